// Models newer than libonnx 1.12 (IR 9-11, opsets 18-24): accepted without its checker, the
// opset-18+ forms normalised, and the advice of each kind of refusal (too new, not a model, too
// old, unknown ops listed together).
#include <catch2/catch.hpp>

#include "onnx_test_util.h"

using namespace openatc;
using namespace openatc::testing;
using TP = onnx::TensorProto;

namespace {

ModelSpec Unary(int64_t opset, int64_t ir, onnx::NodeProto node) {
  ModelSpec s;
  s.opset = opset;
  s.ir_version = ir;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}, int64_t{3}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  s.nodes = {std::move(node)};
  return s;
}

const ir::Node &Op(const ir::Graph &g, const std::string &name) { return NodeNamed(g, name); }

}  // namespace

TEST_CASE("onnx newer: IR 10 / opset 21 is read without libonnx 1.12's checker") {
  ir::Graph g = ReadModel(MakeModel(Unary(21, 10, Node("Relu", {"x"}, {"y"}, "relu"))));
  CHECK(Op(g, "relu").type == "Relu");
  CHECK(Op(g, "relu").attrs.at("onnx_opset").i == 21);
}

TEST_CASE("onnx newer: beyond IR 12 / opset 24 is refused as too new, with the versions") {
  Error e = ReadError(MakeModel(Unary(25, 10, Node("Relu", {"x"}, {"y"}, "relu"))));
  CHECK(e.code() == "E10041");
  CHECK(e.message() == "the model is newer than OpenATC reads: IR version 10, default-domain opset 25 (OpenATC "
                       "reads IR <= 12 and opsets <= 24)");
  CHECK(e.hint() == "Re-export the model at opset 24 or older (e.g. torch.onnx.export(..., opset_version=24))");
  Error ir = ReadError(MakeModel(Unary(18, 13, Node("Relu", {"x"}, {"y"}, "relu"))));
  CHECK_THAT(ir.message(), Catch::Contains("IR version 13, default-domain opset 18"));
}

TEST_CASE("onnx newer: a checker rejection of an old model advises re-export, of a current one a fix") {
  auto attr = onnx::MakeAttribute("bogus", int64_t{1});  // Relu has no such attribute
  Error old = ReadError(MakeModel(Unary(6, 3, Node("Relu", {"x"}, {"y"}, "relu", {attr}))));
  CHECK(old.code() == "E10041");
  CHECK(old.hint() == "The model is old (IR version 3): re-export it at a newer opset (7 to 24)");
  Error cur = ReadError(MakeModel(Unary(13, 8, Node("Relu", {"x"}, {"y"}, "relu", {attr}))));
  CHECK(cur.hint() == "Fix the model so that onnx.checker.check_model(model, full_check=True) accepts it");
}

TEST_CASE("onnx newer: every unknown or unsupported node is listed in one error, with advice per kind") {
  ModelSpec s = Unary(18, 9, Node("Foo", {"x"}, {"a"}, "foo"));
  s.nodes.push_back(Node("Bar", {"a"}, {"b"}, "bar"));
  s.nodes.push_back(Node("Cust", {"b"}, {"y"}, "cust", {}, "com.example"));
  s.extra_opsets = {{"com.example", 1}};
  Error e = ReadError(MakeModel(s));
  CHECK(e.code() == "OA1503");
  CHECK(e.message() ==
        "the model uses 3 feature(s) OpenATC cannot compile: node 'foo' (Foo, domain '', opset 18): op type 'Foo' "
        "is not an ONNX operator at opset 18 (as far as OpenATC knows) and no custom op of that type is "
        "registered; node 'bar' (Bar, domain '', opset 18): op type 'Bar' is not an ONNX operator at opset 18 (as "
        "far as OpenATC knows) and no custom op of that type is registered; node 'cust' (Cust, domain "
        "'com.example', opset 1): domain 'com.example' is not supported (only the default ONNX domain is)");
  CHECK(e.hint() ==
        "For an op type ONNX does not define, register a custom op of that type in a deliverable under "
        "ASCEND_CUSTOM_OPP_PATH, or check the spelling; nodes of a non-default domain need a custom op mapping; "
        "map a node with REGISTER_CUSTOM_OP(\"<op type>\").FrameworkType(ONNX).OriginOpType(\"ai.onnx::18::Bar\")"
        ".ParseParamsByOperatorFn(AutoMappingByOpFn) in a parser plugin (<root>/framework/onnx/ of an "
        "ASCEND_CUSTOM_OPP_PATH root) or a deliverable (keys: \"ai.onnx::18::Bar\", \"ai.onnx::18::Foo\", "
        "\"com.example::1::Cust\")");
  // The same at opset 13: libonnx's checker would stop at 'foo'; every node is still listed.
  ModelSpec old = s;
  old.opset = 13;
  old.ir_version = 8;
  Error e13 = ReadError(MakeModel(old));
  CHECK(e13.code() == "OA1503");
  CHECK_THAT(e13.message(), Catch::StartsWith("the model uses 3 feature(s)"));
  // A custom op of an unknown type is accepted when the registry has it.
  frontend::OnnxOptions opts;
  opts.is_supported_op = [](const std::string &t) { return t == "Foo" || t == "Bar"; };
  ModelSpec two = Unary(13, 8, Node("Foo", {"x"}, {"a"}, "foo"));
  two.nodes.push_back(Node("Bar", {"a"}, {"y"}, "bar"));
  CHECK(Op(ReadModel(MakeModel(two), opts), "bar").type == "Bar");
}

TEST_CASE("onnx newer: Reduce*-18 axes input becomes the attribute; empty axes + noop is Identity") {
  ModelSpec s = Unary(18, 9, Node("ReduceMean", {"x", "ax"}, {"y"}, "rm", {onnx::MakeAttribute("keepdims", int64_t{0})}));
  s.initializers = {Int64Init("ax", {1}, {-1})};
  ir::Graph g = ReadModel(MakeModel(s));
  const ir::Node &rm = Op(g, "rm");
  CHECK(rm.type == "ReduceMean");
  CHECK(rm.inputs.size() == 1);
  CHECK(rm.attrs.at("axes").list_i == std::vector<int64_t>{-1});
  CHECK(rm.attrs.at("keepdims").i == 0);
  CHECK(rm.attrs.count("noop_with_empty_axes") == 0);

  ModelSpec n = Unary(18, 9, Node("ReduceMax", {"x", "ax"}, {"y"}, "rx",
                                  {onnx::MakeAttribute("noop_with_empty_axes", int64_t{1})}));
  n.initializers = {Int64Init("ax", {0}, {})};
  CHECK(Op(ReadModel(MakeModel(n)), "rx").type == "Identity");

  // Axes fed at run time stay input 1 (the built-in reads them in place of the attribute)...
  ModelSpec d = Unary(18, 9, Node("ReduceL2", {"x", "ax"}, {"y"}, "rl"));
  d.inputs.push_back(Value("ax", TP::INT64, {int64_t{1}}));
  ir::Graph gd = ReadModel(MakeModel(d));
  const ir::Node &rl = Op(gd, "rl");
  CHECK(rl.type == "ReduceL2");
  REQUIRE(rl.inputs.size() == 2);
  CHECK(rl.attrs.count("axes") == 0);
  // ...but not with noop_with_empty_axes = 1, which the attribute form cannot express.
  ModelSpec dn = Unary(18, 9, Node("ReduceL2", {"x", "ax"}, {"y"}, "rl",
                                   {onnx::MakeAttribute("noop_with_empty_axes", int64_t{1})}));
  dn.inputs.push_back(Value("ax", TP::INT64, {int64_t{1}}));
  Error e = ReadError(MakeModel(dn));
  CHECK(e.code() == "OA1503");
  CHECK(e.message() == "the model uses 1 feature(s) OpenATC cannot compile: node 'rl' (ReduceL2, domain '', opset "
                       "18): ReduceL2's axes input 'ax' is computed and noop_with_empty_axes is 1; OpenATC needs "
                       "such axes at compile time");
}

TEST_CASE("onnx newer: Cast-19 keeps saturate, takes FNUZ float8, refuses string; Resize-18 keeps an int antialias") {
  ModelSpec c = Unary(19, 9, Node("Cast", {"x"}, {"y"}, "c",
      {onnx::MakeAttribute("to", int64_t{TP::FLOAT16}), onnx::MakeAttribute("saturate", int64_t{1})}));
  c.outputs = {Value("y", TP::FLOAT16, {}, false)};
  ir::Graph g = ReadModel(MakeModel(c));
  CHECK(Op(g, "c").attrs.at("saturate").i == 1);  // the built-in implements it
  CHECK(Op(g, "c").attrs.at("to").i == TP::FLOAT16);
  ir::Graph fnuz = ReadModel(MakeModel(Unary(19, 9, Node("Cast", {"x"}, {"y"}, "c", {onnx::MakeAttribute("to", int64_t{18})}))));
  CHECK(Op(fnuz, "c").attrs.at("to").i == 18);  // FLOAT8E4M3FNUZ: an OpenATC-private dtype
  ModelSpec cs = Unary(19, 9, Node("Cast", {"x"}, {"y"}, "c", {onnx::MakeAttribute("to", int64_t{TP::STRING})}));
  cs.outputs = {Value("y", TP::STRING, {}, false)};
  Error str = ReadError(MakeModel(cs));
  CHECK(str.code() == "OA1503");
  CHECK_THAT(str.message(), Catch::Contains("node 'c' (Cast, domain '', opset 19): Cast to STRING is not "
                                            "supported (numeric types, bool, float16, bfloat16, the float8 types, "
                                            "int4, uint4 and float4e2m1 are);"));
  ModelSpec r = Unary(18, 9, Node("Resize", {"x", "", "sc"}, {"y"}, "rs",
      {onnx::MakeAttribute("mode", std::string("linear")), onnx::MakeAttribute("antialias", int64_t{1})}));
  r.initializers = {FloatInit("sc", {2}, {1.0f, 2.0f})};
  CHECK(Op(ReadModel(MakeModel(r)), "rs").attrs.at("antialias").i == 1);  // the built-in implements it
  ModelSpec rf = Unary(18, 9, Node("Resize", {"x", "", "sc"}, {"y"}, "rs",
      {onnx::MakeAttribute("mode", std::string("linear")), onnx::MakeAttribute("antialias", 1.0f)}));
  rf.initializers = {FloatInit("sc", {2}, {1.0f, 2.0f})};
  Error aa = ReadError(MakeModel(rf));
  CHECK(aa.code() == "OA1503");
  CHECK_THAT(aa.message(), Catch::EndsWith("Resize's antialias must be an int (0 or 1)"));
}

TEST_CASE("onnx newer: a graph using the default domain without importing its opset is invalid") {
  onnx::ModelProto m = MakeModel(Unary(18, 9, Node("Relu", {"x"}, {"y"}, "relu")));
  m.mutable_opset_import(0)->set_domain("com.example");
  Error e = ReadError(m);
  CHECK(e.code() == "E10041");
  CHECK(e.message() == "the model is not valid ONNX: it imports no default-domain opset, but its graph uses that domain");
  onnx::ModelProto twice = MakeModel(Unary(18, 9, Node("Relu", {"x"}, {"y"}, "a")));
  *twice.mutable_graph()->add_node() = Node("Neg", {"x"}, {"y"}, "b");
  Error t = ReadError(twice);
  CHECK(t.code() == "E10041");
  CHECK(t.message() == "the model is not valid ONNX: tensor 'y' is produced twice (node 'b')");
}

TEST_CASE("onnx newer: an attribute newer than opset 17 that OpenATC does not handle is listed, not ignored") {
  auto ks = onnx::MakeAttribute("kernel_shape", std::vector<int64_t>{2, 2});
  ModelSpec s = Unary(19, 9, Node("AveragePool", {"x"}, {"y"}, "ap",
                                  {ks, onnx::MakeAttribute("dilations", std::vector<int64_t>{2, 2})}));
  s.inputs = {Value("x", TP::FLOAT, {int64_t{1}, int64_t{1}, int64_t{4}, int64_t{4}})};
  ir::Graph dilated = ReadModel(MakeModel(s));  // AveragePool-19 dilations reach the built-in
  CHECK(Op(dilated, "ap").attrs.at("dilations").list_i == std::vector<int64_t>{2, 2});
  Error f = ReadError(MakeModel(Unary(20, 9, Node("Relu", {"x"}, {"y"}, "r", {onnx::MakeAttribute("fancy", int64_t{1})}))));
  CHECK(f.code() == "OA1503");
  CHECK(f.message() == "the model uses 1 feature(s) OpenATC cannot compile: node 'r' (Relu, domain '', opset 20): "
                       "attribute 'fancy' (newer than opset 17) is not supported");
}

TEST_CASE("onnx newer: an operator ONNX added after opset 17 without a built-in is named as such") {
  Error e = ReadError(MakeModel(Unary(21, 10, Node("ImageDecoder", {"x"}, {"y"}, "dec"))));
  CHECK(e.code() == "OA1503");
  CHECK(e.message() == "the model uses 1 feature(s) OpenATC cannot compile: node 'dec' (ImageDecoder, domain '', "
                       "opset 21): op type 'ImageDecoder' (an ONNX operator since opset 20) has no built-in or custom "
                       "implementation");
  CHECK(e.hint() == "For an ONNX operator without a built-in, provide a custom op of that type, or replace the "
                    "operator before export (docs/conformance.md lists what passes)");
}

TEST_CASE("onnx newer: packed INT4 / UINT4 / FLOAT4E2M1 initializers (raw_data, int32_data, odd counts)") {
  auto packed = [](const std::string &name, int32_t type, int64_t n, const std::string &raw,
                   const std::vector<int32_t> &int32_data) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(type);
    t.add_dims(n);
    if (int32_data.empty()) t.set_raw_data(raw);
    for (int32_t v : int32_data) t.add_int32_data(v);
    return t;
  };
  ModelSpec s;
  s.opset = 23;
  s.ir_version = 11;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{1}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false), Value("a", TP::FLOAT, {}, false), Value("b", TP::FLOAT, {}, false),
               Value("c", TP::FLOAT, {}, false)};
  auto to_float = onnx::MakeAttribute("to", int64_t{TP::FLOAT});
  s.nodes = {Node("Identity", {"x"}, {"y"}, "id"), Node("Cast", {"i4"}, {"a"}, "ca", {to_float}),
             Node("Cast", {"u4"}, {"b"}, "cb", {to_float}), Node("Cast", {"f4"}, {"c"}, "cc", {to_float})};
  s.initializers = {packed("i4", 22, 3, std::string("\x21\xF3", 2), {}),  // 1, 2, 3; high nibble F dropped
                    packed("u4", 21, 3, "", {0x9F, 0x08}),                 // int32_data: 15, 9, 8
                    packed("f4", 23, 2, std::string("\x7A", 1), {})};      // -1.0, 6.0
  ir::Graph g = ReadModel(MakeModel(s));
  const auto &i4 = NodeNamed(g, "i4").attrs.at("value").t;
  CHECK(i4->desc.dtype == ge::DT_INT4);
  CHECK(ConstValues<uint8_t>(NodeNamed(g, "i4")) == std::vector<uint8_t>{0x21, 0x03});
  CHECK(NodeNamed(g, "u4").attrs.at("value").t->desc.dtype == static_cast<ge::DataType>(63));
  CHECK(ConstValues<uint8_t>(NodeNamed(g, "u4")) == std::vector<uint8_t>{0x9F, 0x08});
  CHECK(NodeNamed(g, "f4").attrs.at("value").t->desc.dtype == ge::DT_FLOAT4_E2M1);
  CHECK(ConstValues<uint8_t>(NodeNamed(g, "f4")) == std::vector<uint8_t>{0x7A});
  // 3 elements need 2 packed bytes, not 3
  s.initializers = {packed("i4", 22, 3, std::string("\x21\x03\x00", 3), {})};
  Error e = ReadError(MakeModel(s));
  CHECK_THAT(e.message(), Catch::Contains("raw_data holds 3 bytes, but dims [3] of int4 need 2"));
  s.initializers = {packed("u4", 21, 3, "", {0x21})};
  Error f = ReadError(MakeModel(s));
  CHECK_THAT(f.message(), Catch::Contains("int32_data holds 1 packed byte(s), but dims [3] of uint4 need 2"));
}
