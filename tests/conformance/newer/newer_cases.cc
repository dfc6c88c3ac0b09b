// newer_cases: writes OpenATC's own conformance set of opset-18+ ONNX cases, in the layout of
// ONNX's backend node tests (<out>/node/<case>/model.onnx + test_data_set_0/{input,output}_K.pb),
// so that onnx_conformance runs them like Debian's set. Models are written with libonnx's
// onnx.pb.h; expected outputs are computed here by plain loops (independent of ops/).
//   newer_cases OUT_DIR
#include <onnx/defs/attr_proto_util.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "newer_model.h"

using namespace openatc::newer;

namespace openatc::newer {
// spatial_signal_cases.cc: Col2Im, Bitwise*, GridSample-20, DFT-20.
void SpatialSignalCases(const std::string &root);
// gap_cases.cc: the fixes found with ONNX's own newer node tests.
void GapCases(const std::string &root);
}  // namespace openatc::newer

namespace {

// x[i] = ((i * 5) % 11 - 5) / 4: exact in float16 and float32, signs mixed, no ties.
std::vector<float> Ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 5) % 11) - 5) / 4.0f;
  return v;
}

// Reduction of x [2,3,4] over the axes in `reduce` (true = reduced), keepdims; `fold` per kind.
std::vector<float> Reduce3(const std::vector<float> &x, const bool reduce[3], const std::string &kind) {
  const int d[3] = {2, 3, 4};
  int o[3];
  for (int k = 0; k < 3; ++k) o[k] = reduce[k] ? 1 : d[k];
  std::vector<double> acc(static_cast<size_t>(o[0] * o[1] * o[2]), kind == "max" ? -INFINITY : (kind == "prod" ? 1 : 0));
  std::vector<int> cnt(acc.size(), 0);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) {
        const double v = x[static_cast<size_t>((a * 3 + b) * 4 + c)];
        const size_t j = static_cast<size_t>(((reduce[0] ? 0 : a) * o[1] + (reduce[1] ? 0 : b)) * o[2] + (reduce[2] ? 0 : c));
        double &s = acc[j];
        if (kind == "max") s = std::max(s, v);
        else if (kind == "prod") s *= v;
        else if (kind == "l1") s += std::fabs(v);
        else if (kind == "sumsquare" || kind == "l2") s += v * v;
        else if (kind == "logsumexp") s += std::exp(v);
        else s += v;  // mean
        ++cnt[j];
      }
  std::vector<float> out(acc.size());
  for (size_t j = 0; j < acc.size(); ++j) {
    double s = acc[j];
    if (kind == "mean") s /= cnt[j];
    if (kind == "l2") s = std::sqrt(s);
    if (kind == "logsumexp") s = std::log(s);
    out[j] = static_cast<float>(s);
  }
  return out;
}

void ReduceCases(const std::string &root) {
  const std::vector<float> x = Ramp(24);
  struct R { const char *name, *op, *kind; std::vector<int64_t> axes; bool keep; };
  const std::vector<R> cases = {
      {"test_reduce_mean_18_axes_input", "ReduceMean", "mean", {1}, true},
      {"test_reduce_max_18_negative_axis", "ReduceMax", "max", {-1}, false},
      {"test_reduce_sum_square_18_two_axes", "ReduceSumSquare", "sumsquare", {0, 2}, true},
      {"test_reduce_log_sum_exp_18", "ReduceLogSumExp", "logsumexp", {1}, false},
      {"test_reduce_l1_18_all_axes", "ReduceL1", "l1", {}, true},
      {"test_reduce_l2_18", "ReduceL2", "l2", {2}, true},
      {"test_reduce_prod_18", "ReduceProd", "prod", {0}, false},
  };
  for (const R &r : cases) {
    bool red[3] = {r.axes.empty(), r.axes.empty(), r.axes.empty()};
    for (int64_t a : r.axes) red[a < 0 ? a + 3 : a] = true;
    std::vector<int64_t> od;
    for (int k = 0; k < 3; ++k)
      if (!red[k] || r.keep) od.push_back(red[k] ? 1 : std::vector<int64_t>{2, 3, 4}[static_cast<size_t>(k)]);
    Case c(r.name, 18, 9);
    c.Input("x", {2, 3, 4}, x);
    std::vector<std::string> ins = {"x"};
    if (!r.axes.empty()) {
      c.IntInit("axes", {static_cast<int64_t>(r.axes.size())}, r.axes);
      ins.push_back("axes");
    }
    c.AddNode(r.op, ins, {"y"}, {onnx::MakeAttribute("keepdims", int64_t{r.keep ? 1 : 0})});
    c.Output("y", od, Reduce3(x, red, r.kind));
    c.Write(root);
  }
  Case noop("test_reduce_mean_18_empty_axes_noop", 18, 9);  // empty axes + noop: y = x
  noop.Input("x", {2, 3, 4}, x);
  noop.IntInit("axes", {0}, {});
  noop.AddNode("ReduceMean", {"x", "axes"}, {"y"}, {onnx::MakeAttribute("noop_with_empty_axes", int64_t{1})});
  noop.Output("y", {2, 3, 4}, x);
  noop.Write(root);
}

void SplitPadCastCases(const std::string &root) {
  Case s("test_split_18_num_outputs_uneven", 18, 9);  // 7 = 3 + 3 + 1
  s.Input("x", {7}, {1, 2, 3, 4, 5, 6, 7});
  s.AddNode("Split", {"x"}, {"a", "b", "c"}, {onnx::MakeAttribute("num_outputs", int64_t{3})});
  s.Output("a", {3}, {1, 2, 3});
  s.Output("b", {3}, {4, 5, 6});
  s.Output("c", {1}, {7});
  s.Write(root);
  Case e("test_split_18_num_outputs_axis1", 18, 9);
  e.Input("x", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  e.AddNode("Split", {"x"}, {"a", "b"},
            {onnx::MakeAttribute("num_outputs", int64_t{2}), onnx::MakeAttribute("axis", int64_t{1})});
  e.Output("a", {2, 2}, {1, 2, 5, 6});
  e.Output("b", {2, 2}, {3, 4, 7, 8});
  e.Write(root);
  Case p("test_pad_18_axes_input", 18, 9);  // pad axis 1 only: 1 before, 2 after, value 9
  p.Input("x", {2, 2}, {1, 2, 3, 4});
  p.IntInit("pads", {2}, {1, 2});
  p.FloatInit("value", {}, {9});
  p.IntInit("axes", {1}, {1});
  p.AddNode("Pad", {"x", "pads", "value", "axes"}, {"y"});
  p.Output("y", {2, 5}, {9, 1, 2, 9, 9, 9, 3, 4, 9, 9});
  p.Write(root);
  Case q("test_pad_18_negative_axis_edge", 18, 9);  // axis -2 = 0: 1 row before (edge)
  q.Input("x", {2, 2}, {1, 2, 3, 4});
  q.IntInit("pads", {2}, {1, 0});
  q.IntInit("axes", {1}, {-2});
  q.AddNode("Pad", {"x", "pads", "", "axes"}, {"y"}, {onnx::MakeAttribute("mode", std::string("edge"))});
  q.Output("y", {3, 2}, {1, 2, 1, 2, 3, 4});
  q.Write(root);
  Case c("test_cast_19_saturate_to_double", 19, 9);  // saturate does not change non-float8 casts
  c.Input("x", {4}, {1.5f, -2.25f, 0, 1000});
  c.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{onnx::TensorProto::DOUBLE}),
                                  onnx::MakeAttribute("saturate", int64_t{1})});
  c.OutputDouble("y", {4}, {1.5, -2.25, 0, 1000});
  c.Write(root);
}

// GroupNormalization of x [N=1, C=4, 3] in 2 groups; scale/bias per channel (opset 21) or per
// group (opset 18).
std::vector<float> GroupNorm(const std::vector<float> &x, const std::vector<float> &sc, const std::vector<float> &bi,
                             bool per_channel) {
  std::vector<float> y(12);
  for (int g = 0; g < 2; ++g) {
    double mean = 0, var = 0;
    for (int i = 0; i < 6; ++i) mean += x[static_cast<size_t>(g * 6 + i)] / 6.0;
    for (int i = 0; i < 6; ++i) var += (x[static_cast<size_t>(g * 6 + i)] - mean) * (x[static_cast<size_t>(g * 6 + i)] - mean) / 6.0;
    for (int i = 0; i < 6; ++i) {
      const size_t p = per_channel ? static_cast<size_t>(g * 2 + i / 3) : static_cast<size_t>(g);
      y[static_cast<size_t>(g * 6 + i)] =
          static_cast<float>((x[static_cast<size_t>(g * 6 + i)] - mean) / std::sqrt(var + 1e-5) * sc[p] + bi[p]);
    }
  }
  return y;
}

void NewOpCases(const std::string &root) {
  const std::vector<float> x = Ramp(12);
  for (int opset : {18, 21}) {
    const bool per_channel = opset >= 21;
    const std::vector<float> sc = per_channel ? std::vector<float>{1, 2, 0.5f, -1} : std::vector<float>{1.5f, -0.5f};
    const std::vector<float> bi = per_channel ? std::vector<float>{0, 0.25f, -1, 2} : std::vector<float>{0.5f, 1};
    Case g(std::string("test_group_normalization_") + std::to_string(opset), opset, 10);
    g.Input("x", {1, 4, 3}, x);
    g.FloatInit("scale", {static_cast<int64_t>(sc.size())}, sc);
    g.FloatInit("bias", {static_cast<int64_t>(bi.size())}, bi);
    g.AddNode("GroupNormalization", {"x", "scale", "bias"}, {"y"}, {onnx::MakeAttribute("num_groups", int64_t{2})});
    g.Output("y", {1, 4, 3}, GroupNorm(x, sc, bi, per_channel));
    g.Write(root);
  }
  Case cc("test_center_crop_pad_crop_and_pad", 18, 9);  // rows 3 -> 2 (start 0), cols 4 -> 6 (1 zero first)
  cc.Input("x", {3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  cc.IntInit("shape", {2}, {2, 6});
  cc.AddNode("CenterCropPad", {"x", "shape"}, {"y"});
  cc.Output("y", {2, 6}, {0, 1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 0});
  cc.Write(root);
  Case ca("test_center_crop_pad_negative_axis", 18, 9);  // cols 5 -> 3 start at 1
  ca.Input("x", {2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  ca.IntInit("shape", {1}, {3});
  ca.AddNode("CenterCropPad", {"x", "shape"}, {"y"}, {onnx::MakeAttribute("axes", std::vector<int64_t>{-1})});
  ca.Output("y", {2, 3}, {2, 3, 4, 7, 8, 9});
  ca.Write(root);
  Case w("test_pad_19_wrap", 19, 9);  // numpy.pad(x, ((0, 0), (2, 1)), 'wrap')
  w.Input("x", {2, 3}, {1, 2, 3, 4, 5, 6});
  w.IntInit("pads", {4}, {0, 2, 0, 1});
  w.AddNode("Pad", {"x", "pads"}, {"y"}, {onnx::MakeAttribute("mode", std::string("wrap"))});
  w.Output("y", {2, 6}, {2, 3, 1, 2, 3, 1, 5, 6, 4, 5, 6, 4});
  w.Write(root);
  // Resize-19 half_pixel_symmetric, linear, x [1,1,1,4] by scale 1.7 -> 6 columns: the source
  // coordinate is offset + (o + 0.5) / 1.7 - 0.5 with offset = 4 / 2 * (1 - 6 / 6.8).
  Case r("test_resize_19_half_pixel_symmetric_linear", 19, 9);
  r.Input("x", {1, 1, 1, 4}, {1, 2, 3, 4});
  r.FloatInit("scales", {4}, {1, 1, 1, 1.7f});
  r.AddNode("Resize", {"x", "", "scales"}, {"y"},
            {onnx::MakeAttribute("mode", std::string("linear")),
             onnx::MakeAttribute("coordinate_transformation_mode", std::string("half_pixel_symmetric"))});
  std::vector<float> ry(6);
  const double scale = 1.7f, offset = 2.0 * (1 - 6 / (scale * 4));
  for (int o = 0; o < 6; ++o) {
    const double src = std::min(std::max(offset + (o + 0.5) / scale - 0.5, 0.0), 3.0);
    ry[static_cast<size_t>(o)] = static_cast<float>(1 + src);  // x[i] = i + 1: linear in i
  }
  r.Output("y", {1, 1, 1, 6}, ry);
  r.Write(root);
  // Resize-18 antialias, linear, [1,1,1,4] -> sizes [1,1,1,2]: sources 0.5 and 2.5 read 4 taps
  // with the kernel stretched by 2: weights (0.25, 0.75, 0.75, 0.25) / 2, edge taps clamped.
  Case al("test_resize_18_antialias_linear_sizes", 18, 9);
  al.Input("x", {1, 1, 1, 4}, {1, 2, 3, 4});
  al.IntInit("sizes", {4}, {1, 1, 1, 2});
  al.AddNode("Resize", {"x", "", "", "sizes"}, {"y"},
             {onnx::MakeAttribute("mode", std::string("linear")), onnx::MakeAttribute("antialias", int64_t{1})});
  al.Output("y", {1, 1, 1, 2}, {1.625f, 3.375f});
  al.Write(root);
  // cubic (A = -0.75) over an impulse at index 3 of 8, by scale 0.5: the impulse's tap weight
  // K(0.5 * (3 - src)) over the weight sum 2 at sources 0.5, 2.5, 4.5, 6.5.
  Case ac("test_resize_18_antialias_cubic_scales", 18, 9);
  ac.Input("x", {1, 1, 1, 8}, {0, 0, 0, 1, 0, 0, 0, 0});
  ac.FloatInit("scales", {4}, {1, 1, 1, 0.5f});
  ac.AddNode("Resize", {"x", "", "scales"}, {"y"},
             {onnx::MakeAttribute("mode", std::string("cubic")), onnx::MakeAttribute("antialias", int64_t{1})});
  ac.Output("y", {1, 1, 1, 4}, {-0.052734375f, 0.439453125f, 0.130859375f, -0.017578125f});
  ac.Write(root);
}

// Opset-18/19 values of existing attributes: Scatter* max/min, AveragePool unit dilations.
void AttributeValueCases(const std::string &root) {
  Case sm("test_scatter_elements_18_max", 18, 9);  // duplicates combine by max: [1, max(2,5,0), 3, 4]
  sm.Input("x", {1, 4}, {1, 2, 3, 4});
  sm.IntInit("idx", {1, 3}, {1, 1, 3});
  sm.FloatInit("upd", {1, 3}, {5, 0, -7});
  sm.AddNode("ScatterElements", {"x", "idx", "upd"}, {"y"},
             {onnx::MakeAttribute("axis", int64_t{1}), onnx::MakeAttribute("reduction", std::string("max"))});
  sm.Output("y", {1, 4}, {1, 5, 3, 4});
  sm.Write(root);
  Case sn("test_scatter_nd_18_min", 18, 9);  // rows 0 and 2 of x [3,2] with min
  sn.Input("x", {3, 2}, {1, 2, 3, 4, 5, 6});
  sn.IntInit("idx", {2, 1}, {0, 2});
  sn.FloatInit("upd", {2, 2}, {0, 9, 9, -1});
  sn.AddNode("ScatterND", {"x", "idx", "upd"}, {"y"}, {onnx::MakeAttribute("reduction", std::string("min"))});
  sn.Output("y", {3, 2}, {0, 2, 3, 4, 5, -1});
  sn.Write(root);
  Case ap("test_averagepool_19_unit_dilations", 19, 9);  // dilations all 1 = the undilated pool
  ap.Input("x", {1, 1, 2, 2}, {1, 2, 3, 6});
  ap.AddNode("AveragePool", {"x"}, {"y"}, {onnx::MakeAttribute("kernel_shape", std::vector<int64_t>{2, 2}),
                                           onnx::MakeAttribute("dilations", std::vector<int64_t>{1, 1})});
  ap.Output("y", {1, 1, 1, 1}, {3});
  ap.Write(root);
}

void VersionCases(const std::string &root) {
  Case r("test_relu_ir10_opset21", 21, 10);
  r.Input("x", {4}, {-1, 0, 2, -3});
  r.AddNode("Relu", {"x"}, {"y"});
  r.Output("y", {4}, {0, 0, 2, 0});
  r.Write(root);
  Case i("test_identity_ir11_opset24", 24, 11);
  i.Input("x", {2}, {3, -4});
  i.AddNode("Identity", {"x"}, {"y"});
  i.Output("y", {2}, {3, -4});
  i.Write(root);
  // A small net as an opset-18 exporter writes it: MatMul, Add, Relu, ReduceMean-18 (axes input),
  // Split-18 (num_outputs). x [2,3] . w [3,4] + b [4] -> relu -> mean over axis 0 -> [1,4] -> 2 parts.
  Case n("test_small_net_opset18", 18, 9);
  const std::vector<float> x = {1, -2, 3, 0.5f, 1, -1}, w = Ramp(12), b = {0.25f, -0.5f, 1, 0};
  n.Input("x", {2, 3}, x);
  n.FloatInit("w", {3, 4}, w);
  n.FloatInit("b", {4}, b);
  n.IntInit("axes", {1}, {0});
  n.AddNode("MatMul", {"x", "w"}, {"mm"});
  n.AddNode("Add", {"mm", "b"}, {"s"});
  n.AddNode("Relu", {"s"}, {"r"});
  n.AddNode("ReduceMean", {"r", "axes"}, {"m"});
  n.AddNode("Split", {"m"}, {"y0", "y1"}, {onnx::MakeAttribute("num_outputs", int64_t{2}),
                                          onnx::MakeAttribute("axis", int64_t{1})});
  std::vector<float> mean(4, 0);
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 4; ++col) {
      double s = b[static_cast<size_t>(col)];
      for (int k = 0; k < 3; ++k) s += double(x[static_cast<size_t>(row * 3 + k)]) * w[static_cast<size_t>(k * 4 + col)];
      mean[static_cast<size_t>(col)] += static_cast<float>(std::max(s, 0.0) / 2);
    }
  n.Output("y0", {1, 2}, {mean[0], mean[1]});
  n.Output("y1", {1, 2}, {mean[2], mean[3]});
  n.Write(root);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: newer_cases OUT_DIR\n");
    return 2;
  }
  const std::string root = std::string(argv[1]) + "/node";
  ::mkdir(argv[1], 0755);
  ::mkdir(root.c_str(), 0755);
  ReduceCases(root);
  SplitPadCastCases(root);
  NewOpCases(root);
  AttributeValueCases(root);
  VersionCases(root);
  TransformerCases(root);
  SpatialSignalCases(root);
  GapCases(root);
  Float8Cases(root);
  Packed4FnuzCases(root);
  QuantBlockedCases(root);
  return 0;
}
