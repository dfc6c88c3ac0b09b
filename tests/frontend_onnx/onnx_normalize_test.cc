// ONNX front end: version normalisation of the older forms (onnx_reader.h, step 6), exact resulting
// inputs.
#include <catch2/catch.hpp>

#include "onnx_test_util.h"

using namespace openatc;
using namespace openatc::testing;
using TP = onnx::TensorProto;
using onnx::MakeAttribute;
using Ints = std::vector<int64_t>;

namespace {
// One node `n` on input x (float [2, 3, 4]) plus extra graph inputs, at `opset`.
ir::Graph OneNode(int64_t opset, onnx::NodeProto node, std::vector<onnx::ValueInfoProto> extra_inputs = {}) {
  ModelSpec s;
  s.opset = opset;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}, int64_t{3}, int64_t{4}})};
  for (auto &v : extra_inputs) s.inputs.push_back(v);
  for (const auto &o : node.output()) s.outputs.push_back(Value(o, TP::FLOAT, {}, false));
  s.nodes = {std::move(node)};
  return ReadModel(MakeModel(s));
}

// The names of the producers of n's inputs ("" for an absent input).
std::vector<std::string> InputNames(const ir::Graph &g, const ir::Node &n) {
  std::vector<std::string> v;
  for (const auto &e : n.inputs) v.push_back(e.connected() ? Producer(g, e).name : "");
  return v;
}

Ints IntsOf(const ir::Graph &g, const std::string &name) { return ConstValues<int64_t>(NodeNamed(g, name)); }
std::vector<float> FloatsOf(const ir::Graph &g, const std::string &name) {
  return ConstValues<float>(NodeNamed(g, name));
}
}  // namespace

TEST_CASE("onnx normalise: Slice-1 attrs become Const inputs") {
  ir::Graph g = OneNode(9, Node("Slice", {"x"}, {"y"}, "s",
                                {MakeAttribute("starts", Ints{0, 1}), MakeAttribute("ends", Ints{1, 3}),
                                 MakeAttribute("axes", Ints{0, 2})}));
  const ir::Node &n = NodeNamed(g, "s");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "s_starts", "s_ends", "s_axes"});
  CHECK(IntsOf(g, "s_starts") == Ints{0, 1});
  CHECK(IntsOf(g, "s_ends") == Ints{1, 3});
  CHECK(IntsOf(g, "s_axes") == Ints{0, 2});
  CHECK(n.attrs.count("starts") == 0);
  CHECK(n.attrs.count("axes") == 0);
  CHECK(n.attrs.at("onnx_opset").i == 9);
  // Without axes: three inputs.
  ir::Graph g2 = OneNode(1, Node("Slice", {"x"}, {"y"}, "s", {MakeAttribute("starts", Ints{1}),
                                                              MakeAttribute("ends", Ints{2})}));
  CHECK(InputNames(g2, NodeNamed(g2, "s")) == std::vector<std::string>{"x", "s_starts", "s_ends"});
}

TEST_CASE("onnx normalise: Slice-10 inputs are kept as they are") {
  ModelSpec s;
  s.opset = 10;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{4}})};
  s.initializers = {Int64Init("st", {1}, {1}), Int64Init("en", {1}, {3})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  s.nodes = {Node("Slice", {"x", "st", "en"}, {"y"}, "s")};
  ir::Graph g = ReadModel(MakeModel(s));
  CHECK(InputNames(g, NodeNamed(g, "s")) == std::vector<std::string>{"x", "st", "en"});
}

TEST_CASE("onnx normalise: Split-2/11 split attr becomes input 1") {
  ir::Graph g = OneNode(11, Node("Split", {"x"}, {"a", "b"}, "sp",
                                 {MakeAttribute("axis", int64_t{2}), MakeAttribute("split", Ints{1, 3})}));
  const ir::Node &n = NodeNamed(g, "sp");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "sp_split"});
  CHECK(IntsOf(g, "sp_split") == Ints{1, 3});
  CHECK(n.attrs.at("axis").i == 2);
  CHECK(n.attrs.count("split") == 0);
  CHECK(n.output_descs.size() == 2);
  ir::Graph g2 = OneNode(2, Node("Split", {"x"}, {"a", "b"}, "sp", {MakeAttribute("axis", int64_t{0})}));
  CHECK(InputNames(g2, NodeNamed(g2, "sp")) == std::vector<std::string>{"x"});
}

TEST_CASE("onnx normalise: Squeeze/Unsqueeze-1/11 axes attr becomes input 1") {
  ModelSpec s;
  s.opset = 11;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}, int64_t{1}, int64_t{4}})};
  s.outputs = {Value("z", TP::FLOAT, {}, false)};
  s.nodes = {Node("Squeeze", {"x"}, {"y"}, "sq", {MakeAttribute("axes", Ints{1})}),
             Node("Unsqueeze", {"y"}, {"z"}, "un", {MakeAttribute("axes", Ints{0, -1})})};
  ir::Graph g = ReadModel(MakeModel(s));
  CHECK(InputNames(g, NodeNamed(g, "sq")) == std::vector<std::string>{"x", "sq_axes"});
  CHECK(IntsOf(g, "sq_axes") == Ints{1});
  CHECK(InputNames(g, NodeNamed(g, "un")) == std::vector<std::string>{"sq", "un_axes"});
  CHECK(IntsOf(g, "un_axes") == Ints{0, -1});
  CHECK(NodeNamed(g, "un").attrs.count("axes") == 0);
  // Squeeze-11 without axes: no input added.
  s.outputs = {Value("y", TP::FLOAT, {int64_t{2}, int64_t{4}})};
  s.nodes = {Node("Squeeze", {"x"}, {"y"}, "sq")};
  ir::Graph g2 = ReadModel(MakeModel(s));
  CHECK(InputNames(g2, NodeNamed(g2, "sq")) == std::vector<std::string>{"x"});
}

TEST_CASE("onnx normalise: Clip-6 min/max attrs become scalar inputs of the input's dtype") {
  ir::Graph g = OneNode(6, Node("Clip", {"x"}, {"y"}, "c", {MakeAttribute("min", -1.0f), MakeAttribute("max", 2.5f)}));
  const ir::Node &n = NodeNamed(g, "c");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "c_min", "c_max"});
  CHECK(FloatsOf(g, "c_min") == std::vector<float>{-1.0f});
  CHECK(FloatsOf(g, "c_max") == std::vector<float>{2.5f});
  CHECK(NodeNamed(g, "c_min").output_descs[0].shape.empty());
  CHECK(NodeNamed(g, "c_min").output_descs[0].dtype == ge::DT_FLOAT);
  CHECK(n.attrs.count("min") == 0);
  // Only max: min stays an absent optional input.
  ir::Graph g2 = OneNode(6, Node("Clip", {"x"}, {"y"}, "c", {MakeAttribute("max", 3.0f)}));
  CHECK(InputNames(g2, NodeNamed(g2, "c")) == std::vector<std::string>{"x", "", "c_max"});
  // float16 input: the scalars are float16 (1.5 = 0x3E00).
  ModelSpec s;
  s.opset = 6;
  s.inputs = {Value("h", TP::FLOAT16, {int64_t{2}})};
  s.outputs = {Value("y", TP::FLOAT16, {}, false)};
  s.nodes = {Node("Clip", {"h"}, {"y"}, "c", {MakeAttribute("min", 1.5f)})};
  ir::Graph g3 = ReadModel(MakeModel(s));
  CHECK(NodeNamed(g3, "c_min").output_descs[0].dtype == ge::DT_FLOAT16);
  CHECK(ConstValues<uint16_t>(NodeNamed(g3, "c_min")) == std::vector<uint16_t>{0x3E00});
}

TEST_CASE("onnx normalise: Pad-2 pads/value attrs become inputs, mode kept") {
  ir::Graph g = OneNode(2, Node("Pad", {"x"}, {"y"}, "p",
                                {MakeAttribute("pads", Ints{0, 1, 0, 0, 2, 0}), MakeAttribute("value", 0.5f),
                                 MakeAttribute("mode", std::string("constant"))}));
  const ir::Node &n = NodeNamed(g, "p");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "p_pads", "p_constant_value"});
  CHECK(IntsOf(g, "p_pads") == Ints{0, 1, 0, 0, 2, 0});
  CHECK(FloatsOf(g, "p_constant_value") == std::vector<float>{0.5f});
  CHECK(n.attrs.at("mode").s == "constant");
  CHECK(n.attrs.count("pads") == 0);
  CHECK(n.attrs.count("value") == 0);
  ir::Graph g2 = OneNode(2, Node("Pad", {"x"}, {"y"}, "p", {MakeAttribute("pads", Ints{1, 0, 0, 1, 0, 0}),
                                                            MakeAttribute("mode", std::string("edge"))}));
  CHECK(InputNames(g2, NodeNamed(g2, "p")) == std::vector<std::string>{"x", "p_pads"});
}

TEST_CASE("onnx normalise: ReduceSum-11 axes attr becomes input 1; ReduceMean keeps its attr") {
  ir::Graph g = OneNode(11, Node("ReduceSum", {"x"}, {"y"}, "r",
                                 {MakeAttribute("axes", Ints{1, 2}), MakeAttribute("keepdims", int64_t{0})}));
  const ir::Node &n = NodeNamed(g, "r");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "r_axes"});
  CHECK(IntsOf(g, "r_axes") == Ints{1, 2});
  CHECK(n.attrs.at("keepdims").i == 0);
  ir::Graph g2 = OneNode(13, Node("ReduceMean", {"x"}, {"y"}, "r", {MakeAttribute("axes", Ints{1})}));
  CHECK(InputNames(g2, NodeNamed(g2, "r")) == std::vector<std::string>{"x"});
  CHECK(NodeNamed(g2, "r").attrs.at("axes").list_i == Ints{1});
}

TEST_CASE("onnx normalise: Dropout-10 ratio attr becomes input 1") {
  ir::Graph g = OneNode(10, Node("Dropout", {"x"}, {"y"}, "d", {MakeAttribute("ratio", 0.25f)}));
  const ir::Node &n = NodeNamed(g, "d");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "d_ratio"});
  CHECK(FloatsOf(g, "d_ratio") == std::vector<float>{0.25f});
  CHECK(n.attrs.count("ratio") == 0);
  ir::Graph g2 = OneNode(6, Node("Dropout", {"x"}, {"y"}, "d", {MakeAttribute("is_test", int64_t{1})}));
  CHECK(InputNames(g2, NodeNamed(g2, "d")) == std::vector<std::string>{"x"});
  CHECK(NodeNamed(g2, "d").attrs.count("is_test") == 0);
}

TEST_CASE("onnx normalise: Upsample-7/9 become Resize (X, roi absent, scales), asymmetric/floor") {
  ir::Graph g = OneNode(7, Node("Upsample", {"x"}, {"y"}, "u",
                                {MakeAttribute("scales", std::vector<float>{1, 2, 2}),
                                 MakeAttribute("mode", std::string("linear"))}));
  const ir::Node &n = NodeNamed(g, "u");
  CHECK(n.type == "Resize");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "", "u_scales"});
  CHECK(FloatsOf(g, "u_scales") == std::vector<float>{1, 2, 2});
  CHECK(n.attrs.at("mode").s == "linear");
  CHECK(n.attrs.at("coordinate_transformation_mode").s == "asymmetric");
  CHECK(n.attrs.at("nearest_mode").s == "floor");
  CHECK(n.attrs.count("scales") == 0);

  ir::Graph g9 = OneNode(9, Node("Upsample", {"x", "sc"}, {"y"}, "u"), {Value("sc", TP::FLOAT, {int64_t{3}})});
  const ir::Node &n9 = NodeNamed(g9, "u");
  CHECK(n9.type == "Resize");
  CHECK(InputNames(g9, n9) == std::vector<std::string>{"x", "", "sc"});
  CHECK(n9.attrs.at("mode").s == "nearest");
}

TEST_CASE("onnx normalise: Resize-10 (X, scales) gains the absent roi input") {
  ir::Graph g = OneNode(10, Node("Resize", {"x", "sc"}, {"y"}, "r"), {Value("sc", TP::FLOAT, {int64_t{3}})});
  const ir::Node &n = NodeNamed(g, "r");
  CHECK(InputNames(g, n) == std::vector<std::string>{"x", "", "sc"});
  CHECK(n.attrs.at("coordinate_transformation_mode").s == "asymmetric");
}
