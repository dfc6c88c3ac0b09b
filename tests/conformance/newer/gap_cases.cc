// The cases behind the fixes found by running ONNX's own newer backend node tests
// (docs/conformance-newer.md, "ONNX's own newer cases"): IR 12 models, Mish-18,
// Reduce*-18 axes computed in the graph or fed at run time, ReduceMax/Min-20 over bool,
// LpNormalization, LpPool, pools' ceil_mode and AveragePool dilations, Resize-18 axes and
// keep_aspect_ratio_policy, AffineGrid-20. Expected values by hand or by plain loops here,
// independent of ops/.
#include <onnx/defs/attr_proto_util.h>

#include <cmath>
#include <string>
#include <vector>

#include "newer_model.h"

namespace openatc::newer {
namespace {

// IR 12 (ONNX 1.19) adds only the FLOAT8E8M0 element type: a float model at IR 12 reads as at IR 11.
void Ir12Cases(const std::string &root) {
  Case r("test_relu_ir12_opset24", 24, 12);
  r.Input("x", {4}, {-1.5f, 0, 2, -3});
  r.AddNode("Relu", {"x"}, {"y"});
  r.Output("y", {4}, {0, 0, 2, 0});
  r.Write(root);
}

// Mish-18: x * tanh(ln(1 + e^x)), with a large x where e^x overflows float (y = x) and a very
// negative one (y -> -0).
void MishCases(const std::string &root) {
  const std::vector<float> x = {-3, -1, -0.5f, 0, 0.5f, 1, 2, 100, -100};
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i], sp = v > 30 ? v : std::log(1.0 + std::exp(v));
    y[i] = static_cast<float>(v * std::tanh(sp));
  }
  Case m("test_mish_18_wide_range", 18, 9);
  m.Input("x", {9}, x);
  m.AddNode("Mish", {"x"}, {"y"});
  m.Output("y", {9}, y);
  m.Write(root);
}

// Reduce*-18 axes that are not an initializer: computed in the graph (Add of two constants, folded
// at compile time) or fed at run time; ReduceMax/Min-20 over bool. x [2,3,4] = 0..23.
void ReduceAxesCases(const std::string &root) {
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  Case c("test_reduce_mean_18_computed_axes", 18, 9);  // axes = [1] + [1] = [2]: mean of each row of 4
  c.Input("x", {2, 3, 4}, x);
  c.IntInit("a", {1}, {1});
  c.IntInit("b", {1}, {1});
  c.AddNode("Add", {"a", "b"}, {"axes"});
  c.AddNode("ReduceMean", {"x", "axes"}, {"y"}, {onnx::MakeAttribute("keepdims", int64_t{0})});
  c.Output("y", {2, 3}, {1.5f, 5.5f, 9.5f, 13.5f, 17.5f, 21.5f});
  c.Write(root);
  Case r("test_reduce_max_18_runtime_axes", 18, 9);  // axes fed as [0, -1]: max over dims 0 and 2
  r.Input("x", {2, 3, 4}, x);
  r.InputInt64("axes", {2}, {0, -1});
  r.AddNode("ReduceMax", {"x", "axes"}, {"y"});
  r.Output("y", {1, 3, 1}, {15, 19, 23});
  r.Write(root);
  const std::vector<uint8_t> b = {1, 0, 1, 1, 1, 0, 0, 0, 0}, b2 = {1, 0, 1, 1, 1, 1, 1, 0, 0};  // [3,3]
  Case mx("test_reduce_max_20_bool", 20, 9);  // any over each row
  mx.InputBool("x", {3, 3}, b);
  mx.IntInit("axes", {1}, {1});
  mx.AddNode("ReduceMax", {"x", "axes"}, {"y"}, {onnx::MakeAttribute("keepdims", int64_t{0})});
  mx.OutputBool("y", {3}, {1, 1, 0});
  mx.Write(root);
  Case mn("test_reduce_min_20_bool", 20, 9);  // all over each column
  mn.InputBool("x", {3, 3}, b2);
  mn.IntInit("axes", {1}, {0});
  mn.AddNode("ReduceMin", {"x", "axes"}, {"y"});
  mn.OutputBool("y", {1, 3}, {1, 0, 0});
  mn.Write(root);
}

// LpNormalization: p = 1 along axis 0 of [2,3] with an all-zero column (0 / 0 = NaN, as ONNX's
// reference), and the default p = 2 along the last axis.
void LpNormalizationCases(const std::string &root) {
  const float nan = std::nanf("");
  Case l1("test_lpnormalization_p1_axis0_zero_column", 22, 10);
  l1.Input("x", {2, 3}, {1, 0, -3, 3, 0, 1});
  l1.AddNode("LpNormalization", {"x"}, {"y"}, {onnx::MakeAttribute("axis", int64_t{0}),
                                              onnx::MakeAttribute("p", int64_t{1})});
  l1.Output("y", {2, 3}, {0.25f, nan, -0.75f, 0.75f, nan, 0.25f});
  l1.Write(root);
  Case l2("test_lpnormalization_p2_default_axis", 22, 10);  // rows (3, 4) and (-6, 8): norms 5, 10
  l2.Input("x", {2, 2}, {3, 4, -6, 8});
  l2.AddNode("LpNormalization", {"x"}, {"y"});
  l2.Output("y", {2, 2}, {0.6f, 0.8f, -0.6f, 0.8f});
  l2.Write(root);
}

// Pools of opsets 18-22, values by hand: LpPool-18 with dilations and ceil_mode, MaxPool and
// AveragePool ceil_mode dropping a last window that would start in the end padding,
// AveragePool-19 dilated with count_include_pad and ceil_mode (the ceil extension is not counted).
void PoolCases(const std::string &root) {
  using onnx::MakeAttribute;
  using V = std::vector<int64_t>;
  // x = 1, -2, 3, -4, 5, -6; kernel 2, dilation 2 (taps i, i + 2), stride 2, ceil: windows at 0, 2, 4,
  // the last with one tap inside.
  Case lp("test_lppool_18_dilated_ceil", 18, 9);
  lp.Input("x", {1, 1, 6}, {1, -2, 3, -4, 5, -6});
  lp.AddNode("LpPool", {"x"}, {"y"}, {MakeAttribute("kernel_shape", V{2}), MakeAttribute("dilations", V{2}),
                                      MakeAttribute("strides", V{2}), MakeAttribute("ceil_mode", int64_t{1}),
                                      MakeAttribute("p", int64_t{2})});
  lp.Output("y", {1, 1, 3}, {std::sqrt(10.0f), std::sqrt(34.0f), 5});
  lp.Write(root);
  // in 2, kernel 1, stride 2, ceil: floor gives 1 window; the ceil one would start at 2, past X.
  for (const char *op : {"MaxPool", "AveragePool"}) {
    Case c(std::string("test_") + (op[0] == 'M' ? "maxpool" : "averagepool") + "_22_ceil_drops_window_in_pad", 22, 10);
    c.Input("x", {1, 1, 2}, {3, 7});
    c.AddNode(op, {"x"}, {"y"}, {MakeAttribute("kernel_shape", V{1}), MakeAttribute("strides", V{2}),
                                 MakeAttribute("ceil_mode", int64_t{1})});
    c.Output("y", {1, 1, 1}, {3});
    c.Write(root);
  }
  // x = 1..5, pads [1, 0], kernel 2, dilation 2, stride 2, ceil, count_include_pad: windows start at
  // -1 (taps: pad, x[1] = 2 -> 2/2), 1 (x[1], x[3] -> 6/2), 3 (x[3] = 4, then position 5 in the
  // ceil extension -> 4/1).
  Case av("test_averagepool_19_dilated_include_pad_ceil", 19, 9);
  av.Input("x", {1, 1, 5}, {1, 2, 3, 4, 5});
  av.AddNode("AveragePool", {"x"}, {"y"}, {MakeAttribute("kernel_shape", V{2}), MakeAttribute("dilations", V{2}),
                                           MakeAttribute("strides", V{2}), MakeAttribute("pads", V{1, 0}),
                                           MakeAttribute("ceil_mode", int64_t{1}),
                                           MakeAttribute("count_include_pad", int64_t{1})});
  av.Output("y", {1, 1, 3}, {1, 3, 4});
  av.Write(root);
  Case ex("test_averagepool_19_dilated_exclude_pad", 19, 9);  // the same windows, padding not counted
  ex.Input("x", {1, 1, 5}, {1, 2, 3, 4, 5});
  ex.AddNode("AveragePool", {"x"}, {"y"}, {MakeAttribute("kernel_shape", V{2}), MakeAttribute("dilations", V{2}),
                                           MakeAttribute("strides", V{2}), MakeAttribute("pads", V{1, 0}),
                                           MakeAttribute("ceil_mode", int64_t{1})});
  ex.Output("y", {1, 1, 3}, {2, 3, 4});
  ex.Write(root);
}

// Resize-18/19 `axes` and `keep_aspect_ratio_policy`, nearest with asymmetric coordinates and floor
// rounding (x_original = x_resized / scale), values by hand.
void ResizeCases(const std::string &root) {
  using onnx::MakeAttribute;
  const std::vector<onnx::AttributeProto> nearest = {
      MakeAttribute("mode", std::string("nearest")),
      MakeAttribute("coordinate_transformation_mode", std::string("asymmetric")),
      MakeAttribute("nearest_mode", std::string("floor"))};
  auto with = [&](std::vector<onnx::AttributeProto> extra) {
    extra.insert(extra.begin(), nearest.begin(), nearest.end());
    return extra;
  };
  // axes [3], sizes [4]: W 2 -> 4 (sources 0, 0, 1, 1); H untouched.
  Case ax("test_resize_18_axes_sizes_nearest", 18, 9);
  ax.Input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  ax.IntInit("sizes", {1}, {4});
  ax.AddNode("Resize", {"x", "", "", "sizes"}, {"y"}, with({MakeAttribute("axes", std::vector<int64_t>{3})}));
  ax.Output("y", {1, 1, 2, 4}, {1, 1, 2, 2, 3, 3, 4, 4});
  ax.Write(root);
  // x [1,1,2,4] = 1..8, axes [2, 3], sizes [3, 3]: ratios 1.5 and 0.75.
  std::vector<float> x(8);
  for (size_t i = 0; i < 8; ++i) x[i] = static_cast<float>(i + 1);
  // not_larger: scale 0.75, out floor(0.75 * [2, 4] + 0.5) = [2, 3]; sources rows 0, 1, cols 0, 1, 2.
  Case nl("test_resize_19_keep_aspect_not_larger", 19, 9);
  nl.Input("x", {1, 1, 2, 4}, x);
  nl.IntInit("sizes", {2}, {3, 3});
  nl.AddNode("Resize", {"x", "", "", "sizes"}, {"y"},
             with({MakeAttribute("axes", std::vector<int64_t>{2, 3}),
                   MakeAttribute("keep_aspect_ratio_policy", std::string("not_larger"))}));
  nl.Output("y", {1, 1, 2, 3}, {1, 2, 3, 5, 6, 7});
  nl.Write(root);
  // not_smaller: scale 1.5, out [3, 6]; sources rows 0, 0, 1, cols 0, 0, 1, 2, 2, 3.
  Case ns("test_resize_19_keep_aspect_not_smaller", 19, 9);
  ns.Input("x", {1, 1, 2, 4}, x);
  ns.IntInit("sizes", {2}, {3, 3});
  ns.AddNode("Resize", {"x", "", "", "sizes"}, {"y"},
             with({MakeAttribute("axes", std::vector<int64_t>{-2, -1}),
                   MakeAttribute("keep_aspect_ratio_policy", std::string("not_smaller"))}));
  ns.Output("y", {1, 1, 3, 6}, {1, 1, 2, 3, 3, 4, 1, 1, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8});
  ns.Write(root);
}

// AffineGrid-20: 2-D without align_corners (base coordinates -1 + (2i + 1) / L), theta = [[1, 0,
// 0.5], [0, 2, 0]] -> (x + 0.5, 2y); 3-D with align_corners (coordinates -1, 1), theta = identity
// plus z + 1 -> (x, y, z + 1). The size is fed at run time in the 3-D case.
void AffineGridCases(const std::string &root) {
  Case g2("test_affine_grid_20_2d_shift_scale", 20, 9);
  g2.Input("theta", {1, 2, 3}, {1, 0, 0.5f, 0, 2, 0});
  g2.IntInit("size", {4}, {1, 1, 2, 3});
  g2.AddNode("AffineGrid", {"theta", "size"}, {"grid"});
  std::vector<float> e2;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      const double bx = -1 + (2.0 * x + 1) / 3, by = -1 + (2.0 * y + 1) / 2;
      e2.push_back(static_cast<float>(bx + 0.5));
      e2.push_back(static_cast<float>(2 * by));
    }
  g2.Output("grid", {1, 2, 3, 2}, e2);
  g2.Write(root);
  Case g3("test_affine_grid_20_3d_align_corners_runtime_size", 20, 9);
  g3.Input("theta", {1, 3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1});
  g3.InputInt64("size", {5}, {1, 1, 2, 2, 2});
  g3.AddNode("AffineGrid", {"theta", "size"}, {"grid"}, {onnx::MakeAttribute("align_corners", int64_t{1})});
  std::vector<float> e3;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) {
        e3.push_back(x == 0 ? -1.0f : 1.0f);
        e3.push_back(y == 0 ? -1.0f : 1.0f);
        e3.push_back(z == 0 ? 0.0f : 2.0f);
      }
  g3.Output("grid", {1, 2, 2, 2, 3}, e3);
  g3.Write(root);
}

}  // namespace

void GapCases(const std::string &root) {
  AffineGridCases(root);
  ResizeCases(root);
  PoolCases(root);
  LpNormalizationCases(root);
  Ir12Cases(root);
  MishCases(root);
  ReduceAxesCases(root);
}

}  // namespace openatc::newer
