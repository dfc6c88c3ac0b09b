// ONNX front end: mapping of inputs, initializers, attributes, optional inputs and outputs;
// dynamic dims; names; checker rejection; unsupported listing; bad files; external data.
#include <catch2/catch.hpp>

#include <fstream>

#include "onnx_test_util.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::testing;
using TP = onnx::TensorProto;

TEST_CASE("onnx: inputs, initializers, attributes and outputs map onto IR nodes") {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("X", TP::FLOAT, {int64_t{1}, std::string("N"), int64_t{3}}), Value("W", TP::FLOAT, {int64_t{3}})};
  s.initializers = {FloatInit("W", {3}, {1.5f, -2.0f, 0.25f})};
  s.outputs = {Value("Z", TP::FLOAT, {}, false)};
  s.nodes = {Node("Add", {"X", "W"}, {"Y"}),
             Node("LeakyRelu", {"Y"}, {"L"}, "lrelu", {onnx::MakeAttribute("alpha", 0.5f)}),
             Node("Transpose", {"L"}, {"Z"}, "tr", {onnx::MakeAttribute("perm", std::vector<int64_t>{2, 0, 1})})};
  ir::Graph g = ReadModel(MakeModel(s));

  // W is an initializer, so it is a Const, not a Data node.
  REQUIRE(g.inputs.size() == 1);
  const ir::Node &x = g.nodes[static_cast<size_t>(g.inputs[0])];
  CHECK(x.name == "X");
  CHECK(x.type == "Data");
  CHECK(x.attrs.at("index").i == 0);
  CHECK(x.output_descs.at(0).dtype == ge::DT_FLOAT);
  CHECK(x.output_descs.at(0).shape == std::vector<int64_t>{1, -1, 3});
  const ir::Node &w = NodeNamed(g, "W");
  CHECK(w.type == "Const");
  CHECK(ConstValues<float>(w) == std::vector<float>{1.5f, -2.0f, 0.25f});
  CHECK(w.output_descs.at(0).shape == std::vector<int64_t>{3});

  const ir::Node &add = NodeNamed(g, "Add_0");  // generated name: <op_type>_<node index>
  CHECK(add.type == "Add");
  REQUIRE(add.inputs.size() == 2);
  CHECK(Producer(g, add.inputs[0]).name == "X");
  CHECK(Producer(g, add.inputs[1]).name == "W");
  CHECK(add.attrs.at("onnx_opset").i == 13);
  // From ONNX shape inference: [1, N, 3] + [3] -> [1, N, 3].
  CHECK(add.output_descs.at(0).dtype == ge::DT_FLOAT);
  CHECK(add.output_descs.at(0).shape == std::vector<int64_t>{1, -1, 3});

  const ir::Node &lr = NodeNamed(g, "lrelu");
  CHECK(lr.attrs.at("alpha").kind == ir::AttrKind::kFloat);
  CHECK(lr.attrs.at("alpha").f == 0.5f);
  const ir::Node &tr = NodeNamed(g, "tr");
  CHECK(tr.attrs.at("perm").kind == ir::AttrKind::kListInt);
  CHECK(tr.attrs.at("perm").list_i == std::vector<int64_t>{2, 0, 1});
  CHECK(tr.output_descs.at(0).shape == std::vector<int64_t>{3, 1, -1});

  const ir::Node &out = NodeNamed(g, "Node_Output");
  CHECK(out.type == "NetOutput");
  REQUIRE(g.outputs.size() == 1);
  CHECK(Producer(g, g.outputs[0]).name == "tr");
  CHECK(out.inputs == g.outputs);
}

TEST_CASE("onnx: string, ints, floats and tensor attributes; absent optional inputs stay unconnected") {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("X", TP::FLOAT, {int64_t{1}, int64_t{1}, int64_t{2}, int64_t{2}}),
              Value("S", TP::INT64, {int64_t{4}})};
  s.initializers = {FloatInit("scales", {4}, {1, 1, 2, 2})};
  s.outputs = {Value("Y", TP::FLOAT, {}, false), Value("C", TP::FLOAT, {}, false)};
  onnx::TensorProto v;
  v.set_data_type(TP::FLOAT);
  v.add_dims(1);
  v.add_float_data(7.0f);
  s.nodes = {Node("Resize", {"X", "", "scales"}, {"Y"}, "rs",
                  {onnx::MakeAttribute("mode", std::string("nearest")),
                   onnx::MakeAttribute("coordinate_transformation_mode", std::string("asymmetric"))}),
             Node("ConstantOfShape", {"S"}, {"C"}, "cos", {onnx::MakeAttribute("value", v)})};
  ir::Graph g = ReadModel(MakeModel(s));
  const ir::Node &rs = NodeNamed(g, "rs");
  REQUIRE(rs.inputs.size() == 3);
  CHECK(Producer(g, rs.inputs[0]).name == "X");
  CHECK_FALSE(rs.inputs[1].connected());
  CHECK(Producer(g, rs.inputs[2]).name == "scales");
  CHECK(rs.attrs.at("mode").kind == ir::AttrKind::kString);
  CHECK(rs.attrs.at("mode").s == "nearest");
  CHECK(rs.output_descs.at(0).shape == std::vector<int64_t>{1, 1, 4, 4});
  const ir::Node &cos = NodeNamed(g, "cos");
  REQUIRE(cos.attrs.at("value").kind == ir::AttrKind::kTensor);
  CHECK(cos.attrs.at("value").t->desc.dtype == ge::DT_FLOAT);
  CHECK(cos.attrs.at("value").t->desc.shape == std::vector<int64_t>{1});
  float f = 0;
  std::memcpy(&f, cos.attrs.at("value").t->data.data, 4);
  CHECK(f == 7.0f);
  CHECK(g.outputs.size() == 2);
}

TEST_CASE("onnx: Constant nodes become Const nodes with their value") {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("X", TP::INT64, {int64_t{2}})};
  s.outputs = {Value("Y", TP::INT64, {}, false), Value("F", TP::FLOAT, {}, false)};
  s.nodes = {Node("Constant", {}, {"K"}, "k", {onnx::MakeAttribute("value_ints", std::vector<int64_t>{4, 5})}),
             Node("Constant", {}, {"F"}, "", {onnx::MakeAttribute("value_float", 2.5f)}),
             Node("Add", {"X", "K"}, {"Y"}, "add")};
  ir::Graph g = ReadModel(MakeModel(s));
  const ir::Node &k = NodeNamed(g, "k");
  CHECK(k.type == "Const");
  CHECK(ConstValues<int64_t>(k) == std::vector<int64_t>{4, 5});
  CHECK(k.output_descs.at(0).shape == std::vector<int64_t>{2});
  const ir::Node &f = NodeNamed(g, "Constant_1");
  CHECK(f.type == "Const");
  CHECK(ConstValues<float>(f) == std::vector<float>{2.5f});
  CHECK(f.output_descs.at(0).shape.empty());  // value_float is a scalar
  CHECK(Producer(g, NodeNamed(g, "add").inputs[1]).name == "k");
  CHECK(Producer(g, g.outputs[1]).name == "Constant_1");
}

TEST_CASE("onnx: dynamic and unknown dims; names made unique") {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("x", TP::FLOAT, {std::string("N"), std::string("C")}), Value("r", TP::FLOAT, {std::string("C")})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  // The node is named like the graph input and like the NetOutput: both get a suffix.
  s.nodes = {Node("Add", {"x", "r"}, {"t"}, "x"), Node("Relu", {"t"}, {"y"}, "Node_Output")};
  ir::Graph g = ReadModel(MakeModel(s));
  CHECK(NodeNamed(g, "x").type == "Data");
  CHECK(NodeNamed(g, "x").output_descs[0].shape == std::vector<int64_t>{-1, -1});
  CHECK(NodeNamed(g, "r").output_descs[0].shape == std::vector<int64_t>{-1});
  CHECK(NodeNamed(g, "x_1").type == "Add");
  CHECK(NodeNamed(g, "Node_Output").type == "NetOutput");
  CHECK(NodeNamed(g, "Node_Output_1").type == "Relu");
  CHECK(NodeNamed(g, "r").attrs.at("index").i == 1);
}

TEST_CASE("onnx: a model the checker rejects is E10041 with the checker's message") {
  ModelSpec s;  // Equal on float at opset 10 (Equal-7 takes bool/int32/int64 only), as the ezkl originals
  s.opset = 10;
  s.inputs = {Value("a", TP::FLOAT, {int64_t{2}}), Value("b", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("c", TP::BOOL, {int64_t{2}})};
  s.nodes = {Node("Equal", {"a", "b"}, {"c"}, "eq")};
  Error e = ReadError(MakeModel(s));
  CHECK(e.code() == "E10041");
  CHECK(e.file() == "m.onnx");
  CHECK_THAT(e.message(), Catch::StartsWith("ONNX's checker (full check: types and shapes) rejects the model: "));
  CHECK_THAT(e.message(), Catch::Contains("Equal"));
  CHECK_THAT(e.Format("atc"), Catch::StartsWith("atc: error: E10041: 'm.onnx': ONNX's checker (full check"));
}

TEST_CASE("onnx: an int64 Constant at opset 6 (old PyTorch exports) passes the full check") {
  ModelSpec s;  // Constant-1 allows float types only; ONNX Runtime accepts int64 (test_PixelShuffle)
  s.opset = 6;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}, int64_t{3}})};
  s.outputs = {Value("y", TP::FLOAT, {int64_t{3}, int64_t{2}})};
  s.nodes = {Node("Constant", {}, {"shape"}, "c", {onnx::MakeAttribute("value", Int64Init("", {2}, {3, 2}))}),
             Node("Reshape", {"x", "shape"}, {"y"}, "r")};
  ir::Graph g = ReadModel(MakeModel(s));
  CHECK(ConstValues<int64_t>(NodeNamed(g, "c")) == std::vector<int64_t>{3, 2});
  CHECK(NodeNamed(g, "r").output_descs.at(0).shape == std::vector<int64_t>{3, 2});
}

TEST_CASE("onnx: every unsupported op, domain and dtype is listed in one error") {
  ModelSpec s;
  s.opset = 13;
  s.extra_opsets = {{"com.example", 1}};
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}}), Value("s", TP::STRING, {int64_t{1}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false), Value("z", TP::FLOAT, {int64_t{2}})};
  s.nodes = {Node("Erf", {"x"}, {"e"}, "erf1"), Node("Tanh", {"e"}, {"y"}, ""),
             Node("Fancy", {"x"}, {"z"}, "fancy", {}, "com.example")};
  frontend::OnnxOptions o;
  o.is_supported_op = [](const std::string &t) { return t != "Erf" && t != "Tanh"; };
  Error e = ReadError(MakeModel(s), o);
  CHECK(e.code() == "OA1503");
  CHECK(e.message() ==
        "the model uses 4 feature(s) OpenATC cannot compile: graph input 's': tensor 's' has dtype STRING, which is "
        "not supported; node 'erf1' (Erf, domain '', opset 13): op type 'Erf' is not a built-in operator; node "
        "'Tanh_1' (Tanh, domain '', opset 13): op type 'Tanh' is not a built-in operator; node 'fancy' (Fancy, "
        "domain 'com.example', opset 1): domain 'com.example' is not supported (only the default ONNX domain is)");
  // Without a registry callback every default-domain op is accepted.
  s.inputs.pop_back();
  s.nodes.pop_back();
  s.outputs.pop_back();
  CHECK(ReadModel(MakeModel(s)).nodes.size() == 4);
}

TEST_CASE("onnx: a string Constant and its consumers are listed, not a malformed-graph error") {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{1}})};
  s.outputs = {Value("y", TP::STRING, {}), Value("z", TP::FLOAT, {int64_t{1}})};
  s.nodes = {Node("Constant", {}, {"c"}, "c", {onnx::MakeAttribute("value_string", std::string("abc"))}),
             Node("Identity", {"c"}, {"y"}, "id"), Node("Relu", {"x"}, {"z"}, "relu")};
  Error e = ReadError(MakeModel(s));
  CHECK(e.code() == "OA1503");
  CHECK(e.message() ==
        "the model uses 3 feature(s) OpenATC cannot compile: node 'c' (Constant, domain '', opset 13): Constant "
        "attribute 'value_string' is not supported (strings, sparse); node 'id' (Identity, domain '', opset 13): "
        "tensor 'c' has dtype STRING, which is not supported; node 'id' (Identity, domain '', opset 13): tensor 'y' "
        "has dtype STRING, which is not supported");
}

TEST_CASE("onnx: bad files are clear errors") {
  ModelSpec s;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  s.nodes = {Node("Relu", {"x"}, {"y"}, "r")};
  const std::string bytes = MakeModel(s).SerializeAsString();
  auto error_of = [](const std::string &b) -> Error {
    try {
      frontend::ReadOnnxBytes(b, "", "bad.onnx");
    } catch (const Error &e) {
      return e;
    }
    return Error(ErrorCategory::kInternal, "", "no error");
  };
  Error truncated = error_of(bytes.substr(0, bytes.size() - 5));
  CHECK(truncated.code() == "E10041");
  CHECK(truncated.message() ==
        "the file does not parse as an ONNX ModelProto (binary protobuf); it is truncated or not an ONNX model");
  Error text = error_of("this is not a protobuf at all \xff\xff\xff");
  CHECK(text.code() == "E10041");
  Error empty = error_of("");  // an empty message parses, but holds no model
  CHECK(empty.code() == "E10041");
  CHECK(empty.message() == "the file is not an ONNX model: it holds no ir_version, opset_import or graph");
  try {
    frontend::ReadOnnxFile("/nonexistent/m.onnx");
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.code() == "OA1501");
    CHECK(e.category() == ErrorCategory::kIo);
    CHECK(e.Format("atc") ==
          "atc: error: OA1501: '/nonexistent/m.onnx': cannot open the model file: No such file or directory. Check "
          "--model.");
  }
}

TEST_CASE("onnx: malformed initializer data is OA1505") {
  ModelSpec s;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  onnx::TensorProto w = FloatInit("w", {2}, {});
  w.set_raw_data(std::string(7, '\0'));
  s.initializers = {w};
  s.nodes = {Node("Add", {"x", "w"}, {"y"}, "a")};
  Error e = ReadError(MakeModel(s));
  CHECK(e.code() == "OA1505");
  CHECK(e.message() == "initializer 'w': raw_data holds 7 bytes, but dims [2] of float32 need 8");
}

namespace {
onnx::ModelProto ExternalModel(const std::string &location, const std::string &offset, const std::string &length) {
  ModelSpec s;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(TP::FLOAT);
  w.add_dims(2);
  w.set_data_location(TP::EXTERNAL);
  auto add = [&](const char *k, const std::string &v) {
    if (v.empty()) return;
    auto *e = w.add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  add("offset", offset);
  add("length", length);
  s.initializers = {w};
  s.nodes = {Node("Add", {"x", "w"}, {"y"}, "a")};
  return MakeModel(s);
}
}  // namespace

TEST_CASE("onnx: external data is read relative to the model's folder, bounds-checked") {
  std::string dir = MakeTempDir();
  float vals[3] = {9.0f, 3.5f, -1.25f};
  WriteBytes(dir + "/weights.bin", std::string(reinterpret_cast<const char *>(vals), sizeof(vals)));
  {
    ir::Graph g = ReadModel(ExternalModel("weights.bin", "4", "8"), {}, dir);
    CHECK(ConstValues<float>(NodeNamed(g, "w")) == std::vector<float>{3.5f, -1.25f});
  }
  {  // through ReadOnnxFile: the folder is the model file's
    std::ofstream(dir + "/m.onnx", std::ios::binary) << ExternalModel("weights.bin", "", "8").SerializeAsString();
    ir::Graph g = frontend::ReadOnnxFile(dir + "/m.onnx");
    CHECK(ConstValues<float>(NodeNamed(g, "w")) == std::vector<float>{9.0f, 3.5f});
  }
  Error beyond = ReadError(ExternalModel("weights.bin", "8", "8"), {}, dir);
  CHECK(beyond.code() == "OA1502");
  CHECK(beyond.message() == "initializer 'w': offset 8 + length 8 is beyond the end of '" + dir +
                                "/weights.bin' (12 bytes)");
  Error size = ReadError(ExternalModel("weights.bin", "", ""), {}, dir);
  CHECK(size.message() == "initializer 'w': external data holds 12 bytes, but the dims and dtype need 8");
  Error missing = ReadError(ExternalModel("nothere.bin", "", ""), {}, dir);
  CHECK(missing.code() == "OA1502");
  CHECK(missing.message() == "initializer 'w': external data file '" + dir + "/nothere.bin' does not exist or is not a file");
  Error escape = ReadError(ExternalModel("../weights.bin", "", ""), {}, dir);
  CHECK(escape.code() == "OA1502");
  CHECK_THAT(escape.message(), Catch::Contains("must be a relative path inside the model's folder"));
  Error bad_offset = ReadError(ExternalModel("weights.bin", "-4", ""), {}, dir);
  CHECK(bad_offset.message() == "initializer 'w': external_data 'offset' is not a non-negative integer: '-4'");
  RemoveTree(dir);
}
