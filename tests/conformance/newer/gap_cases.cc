// The cases behind the fixes found by running ONNX's own newer backend node tests
// (docs/conformance-newer.md, "ONNX's own newer cases"): IR 12 models, Mish-18,
// Reduce*-18 axes computed in the graph or fed at run time, ReduceMax/Min-20 over bool. Expected values
// by hand or by plain loops here, independent of ops/.
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

}  // namespace

void GapCases(const std::string &root) {
  Ir12Cases(root);
  MishCases(root);
  ReduceAxesCases(root);
}

}  // namespace openatc::newer
