// Writes the seed corpus of onnx_fuzz.cc: small valid ONNX models (built with onnx_builder.h)
// that convert without error and reach every version-normalisation family, plus one with an
// unsupported domain (OA1503). Run at build time by the fuzz build: onnx_fuzz_seeds <dir> (the folder must exist).
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "onnx_builder.h"

namespace {

using openatc::testing::FloatInit;
using openatc::testing::Int64Init;
using openatc::testing::MakeModel;
using openatc::testing::ModelSpec;
using openatc::testing::Node;
using openatc::testing::Value;
constexpr int32_t kF = onnx::TensorProto::FLOAT;

onnx::AttributeProto Ints(const std::string &name, const std::vector<int64_t> &v) {
  return onnx::MakeAttribute(name, v);
}

ModelSpec Unary(int64_t opset, const std::string &op, const std::vector<onnx::AttributeProto> &attrs,
                const std::vector<openatc::testing::Dim> &dims = {2, 3}) {
  ModelSpec s;
  s.opset = opset;
  s.inputs = {Value("x", kF, dims)};
  s.outputs = {Value("y", kF, {}, false)};
  s.nodes = {Node(op, {"x"}, {"y"}, "n", attrs)};
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: onnx_fuzz_seeds <output folder>\n");
    return 2;
  }
  std::vector<std::pair<std::string, ModelSpec>> seeds;
  {  // Add of a graph input (one dim_param) and a float initializer, Relu of a Constant node.
    ModelSpec s;
    s.inputs = {Value("x", kF, {"batch", 3})};
    s.outputs = {Value("y", kF, {}, false), Value("r", kF, {}, false)};
    s.initializers = {FloatInit("w", {3}, {1, 2, 3})};
    onnx::TensorProto c = FloatInit("", {2}, {-1, 1});
    s.nodes = {Node("Add", {"x", "w"}, {"y"}, "add"), Node("Constant", {}, {"c"}, "", {onnx::MakeAttribute("value", c)}),
               Node("Relu", {"c"}, {"r"})};
    seeds.emplace_back("add_const.onnx", s);
  }
  {  // Reshape by an int64 initializer, MatMul by a raw_data initializer.
    ModelSpec s;
    s.inputs = {Value("x", kF, {2, 3})};
    s.outputs = {Value("y", kF, {}, false)};
    onnx::TensorProto w;
    w.set_name("w");
    w.set_data_type(kF);
    w.add_dims(3);
    w.add_dims(1);
    const float wv[3] = {1, 0, -1};
    w.set_raw_data(std::string(reinterpret_cast<const char *>(wv), sizeof(wv)));
    s.initializers = {Int64Init("shape", {2}, {3, 2}), w};
    s.nodes = {Node("Reshape", {"x", "shape"}, {"r"}), Node("Transpose", {"r"}, {"t"}, "", {Ints("perm", {1, 0})}),
               Node("MatMul", {"t", "w"}, {"y"})};
    seeds.emplace_back("reshape_matmul.onnx", s);
  }
  seeds.emplace_back("slice1.onnx", Unary(9, "Slice", {Ints("starts", {0, 1}), Ints("ends", {2, 3}), Ints("axes", {0, 1})}));
  seeds.emplace_back("clip6.onnx", Unary(6, "Clip", {onnx::MakeAttribute("min", 0.0f), onnx::MakeAttribute("max", 6.0f)}));
  seeds.emplace_back("squeeze1.onnx", Unary(9, "Squeeze", {Ints("axes", {0})}, {1, 3}));
  seeds.emplace_back("unsqueeze11.onnx", Unary(11, "Unsqueeze", {Ints("axes", {0})}));
  seeds.emplace_back("pad2.onnx", Unary(9, "Pad", {Ints("pads", {0, 1, 0, 1}), onnx::MakeAttribute("value", 0.5f)}));
  seeds.emplace_back("reducesum11.onnx", Unary(11, "ReduceSum", {Ints("axes", {1}), onnx::MakeAttribute("keepdims", int64_t{0})}));
  seeds.emplace_back("dropout7.onnx", Unary(7, "Dropout", {onnx::MakeAttribute("ratio", 0.25f)}));
  {
    ModelSpec s = Unary(9, "Split", {onnx::MakeAttribute("axis", int64_t{1}), Ints("split", {1, 2})});
    s.nodes[0].set_output(0, "y0");
    s.nodes[0].add_output("y1");
    s.outputs = {Value("y0", kF, {}, false), Value("y1", kF, {}, false)};
    seeds.emplace_back("split2.onnx", s);
  }
  seeds.emplace_back("upsample7.onnx",
                     Unary(7, "Upsample", {onnx::MakeAttribute("scales", std::vector<float>{1, 1, 2, 2})}, {1, 1, 2, 2}));
  seeds.emplace_back("softmax11.onnx", Unary(11, "Softmax", {}));
  {  // A node of another domain: the OA1503 list.
    ModelSpec s = Unary(13, "Fancy", {});
    s.nodes[0].set_domain("com.example");
    s.extra_opsets = {{"com.example", 1}};
    s.outputs = {Value("y", kF, {2, 3})};
    seeds.emplace_back("other_domain.onnx", s);
  }
  for (const auto &[name, spec] : seeds) {
    const std::string path = std::string(argv[1]) + "/" + name;
    std::ofstream out(path, std::ios::binary);
    if (!MakeModel(spec).SerializeToOstream(&out) || !out.flush()) {
      std::fprintf(stderr, "onnx_fuzz_seeds: cannot write '%s'\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
