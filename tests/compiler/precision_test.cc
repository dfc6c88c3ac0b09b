// Precision modes on the host (atc/compiler/src/passes/precision.h): which nodes each mode
// reduces, where the roundings go, and values checked by hand; HF32 (--allow_hf32,
// --op_precision_mode) at the end.
//
// Graph: x -> Mul(x, c) -> Softmax -> Relu -> out, and Mul -> Relu2 -> out2 (Mul is not a cube op;
// the cube op is a MatMul: x2 [1,2] -> MatMul(w [2,1]) -> out3).
// Hand values: float16 keeps 11 significant bits. 0.1f becomes 0.0999755859375 (0x2E66), and
// 3 * 0.0999755859375 = 0.2999267578125 lies exactly between the float16 neighbours 0.2998046875
// and 0.300048828125 (spacing 2^-12 in [0.25, 0.5)), so it rounds to the even one, 0.2998046875.
// bfloat16 keeps 8 bits: 0.1f becomes 0.10009765625 (0x3DCD).
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>

#include "openatc/common/reduced_float.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

ir::Graph MulGraph() {
  Builder b;
  const int32_t x = b.Data("x", {1, 2});
  const int32_t c = b.Const("c", {1}, std::vector<float>{3.0f});
  const int32_t mul = b.Op("mul", "Mul", {x, c});
  const int32_t sm = b.Op("softmax", "Softmax", {mul});
  const int32_t relu = b.Op("relu", "Relu", {sm});
  const int32_t relu2 = b.Op("relu2", "Relu", {mul});
  b.Output({relu, relu2});
  return b.g;
}

om::Model CompileWith(const ir::Graph &g, std::map<std::string, std::string> ge) {
  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.model_path = "<precision test>";
  opts.ge_options = std::move(ge);
  return compiler::CompileGraph(g, opts, BuiltinOpp());
}

std::string Attr(const om::Model &m, const std::string &node, const char *attr) {
  const int32_t i = m.graph.FindNode(node);
  REQUIRE(i >= 0);
  auto it = m.graph.nodes[size_t(i)].attrs.find(attr);
  return it == m.graph.nodes[size_t(i)].attrs.end() ? std::string() : it->second.s;
}

size_t Casts(const om::Model &m) {
  size_t n = 0;
  for (const auto &node : m.graph.nodes) n += node.attrs.count("openatc_precision_cast");
  return n;
}

}  // namespace

TEST_CASE("precision: the rounding helpers", "[compiler][precision]") {
  REQUIRE(RoundToFloat16(0.1f) == 0.0999755859375f);
  REQUIRE(RoundToFloat16(0.2999267578125f) == 0.2998046875f);  // a tie: to even
  REQUIRE(RoundToFloat16(70000.0f) == INFINITY);                // above 65504
  REQUIRE(RoundToBfloat16(0.1f) == 0.10009765625f);
  REQUIRE(std::isnan(RoundToBfloat16(NAN)));
}

TEST_CASE("precision: must_keep_origin_dtype changes nothing and runs bit-identical to float32",
          "[compiler][precision]") {
  const om::Model m = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "must_keep_origin_dtype"}});
  REQUIRE(Casts(m) == 0);
  REQUIRE(Attr(m, "mul", "openatc_output_dtype").empty());
  const auto out = RunModel(m, {Host({1, 2}, {0.1f, -2.0f})});
  REQUIRE(Values(out[1]) == std::vector<float>{0.1f * 3.0f, 0.0f});
}

TEST_CASE("precision: force_fp16 reduces every float node and rounds its inputs and outputs",
          "[compiler][precision]") {
  const om::Model m = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "force_fp16"}});
  for (const char *n : {"mul", "softmax", "relu", "relu2"}) {
    INFO(n);
    REQUIRE(Attr(m, n, "openatc_compute_dtype") == "float16");
    REQUIRE(Attr(m, n, "openatc_output_dtype") == "float16");
  }
  REQUIRE(Casts(m) == 2);  // one Cast pair after x; the Const is rounded at compile time
  const auto out = RunModel(m, {Host({1, 2}, {0.1f, -2.0f})});
  REQUIRE(Values(out[1]) == std::vector<float>{0.2998046875f, 0.0f});
  SECTION("precision_mode_v2=fp16 is the same mode") {
    const om::Model v2 = CompileWith(MulGraph(), {{"ge.exec.precision_mode_v2", "fp16"}});
    REQUIRE(Attr(v2, "relu2", "openatc_output_dtype") == "float16");
  }
  SECTION("--keep_dtype by node name and by op type") {
    const std::string keep = TempFile("keep_dtype.cfg", "relu2\nOpType::Softmax\n");
    const om::Model k = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "force_fp16"}, {"keep_dtype", keep}});
    REQUIRE(Attr(k, "relu2", "openatc_output_dtype").empty());
    REQUIRE(Attr(k, "softmax", "openatc_output_dtype").empty());
    REQUIRE(Attr(k, "relu", "openatc_output_dtype") == "float16");
    // relu2 reads mul's float16 values as they are: 3 * x rounded once, by mul.
    REQUIRE(Values(RunModel(k, {Host({1, 2}, {0.1f, -2.0f})})[1]) == std::vector<float>{0.2998046875f, 0.0f});
  }
}

TEST_CASE("precision: allow_mix_precision: white reduced, black kept, gray follows its producer",
          "[compiler][precision]") {
  const om::Model m = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "allow_mix_precision"}});
  // Mul is gray with a float32 producer: kept; Softmax black; Relu gray after it: kept.
  for (const char *n : {"mul", "softmax", "relu", "relu2"}) REQUIRE(Attr(m, n, "openatc_output_dtype").empty());
  const std::string mix = TempFile("mixlist.json", R"({"white-list": {"to-add": ["Mul"]}})");
  const om::Model w = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "allow_mix_precision"},
                                               {"ge.exec.modify_mixlist", mix}});
  REQUIRE(Attr(w, "mul", "openatc_output_dtype") == "float16");
  REQUIRE(Attr(w, "relu2", "openatc_output_dtype") == "float16");  // gray after a reduced producer
  REQUIRE(Attr(w, "softmax", "openatc_output_dtype").empty());     // black
  REQUIRE(Attr(w, "relu", "openatc_output_dtype").empty());        // gray after a kept producer
  const auto out = RunModel(w, {Host({1, 2}, {0.1f, -2.0f})});
  REQUIRE(Values(out[1]) == std::vector<float>{0.2998046875f, 0.0f});
  SECTION("allow_mix_precision_bf16 rounds to bfloat16") {
    const om::Model bf = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "allow_mix_precision_bf16"},
                                                  {"ge.exec.modify_mixlist", mix}});
    REQUIRE(Attr(bf, "mul", "openatc_output_dtype") == "bfloat16");
    // 3 * 0.10009765625 = 0.30029296875 -> bfloat16 (spacing 2^-9 in [0.25, 0.5)): 0.30078125.
    REQUIRE(Values(RunModel(bf, {Host({1, 2}, {0.1f, -2.0f})})[1]) == std::vector<float>{0.30078125f, 0.0f});
  }
}

TEST_CASE("precision: cube ops under allow_fp32_to_fp16 and cube_fp16in_fp32out", "[compiler][precision]") {
  Builder b;
  const int32_t x = b.Data("x", {1, 2});
  const int32_t w = b.Const("w", {2, 1}, std::vector<float>{0.1f, 1.0f});
  const int32_t mm = b.Op("mm", "MatMul", {x, w});
  const int32_t r = b.Op("r", "Relu", {mm});
  b.Output({r});
  // x = [3, 1/1024 + 1]: float16 keeps 1 + 2^-10 (11 bits), so x rounds to itself; w[0] to 0.0999755859375.
  // mm = 3 * 0.0999755859375 + 1.0009765625 = 1.3009033203125 (exact in float32); as float16
  // (spacing 2^-10 in [1, 2)): 1.3009033203125 * 1024 = 1332.125 -> 1332 -> 1.30078125.
  const std::vector<float> in = {3.0f, 1.0009765625f};
  const om::Model a = CompileWith(b.g, {{"ge.exec.precision_mode", "allow_fp32_to_fp16"}});
  REQUIRE(Attr(a, "mm", "openatc_output_dtype") == "float16");
  REQUIRE(Attr(a, "r", "openatc_output_dtype").empty());  // a vector op keeps float32
  REQUIRE(Values(RunModel(a, {Host({1, 2}, in)})[0]) == std::vector<float>{1.30078125f});
  const om::Model c = CompileWith(b.g, {{"ge.exec.precision_mode", "cube_fp16in_fp32out"}});
  REQUIRE(Attr(c, "mm", "openatc_compute_dtype") == "float16");
  REQUIRE(Attr(c, "mm", "openatc_output_dtype").empty());  // float32 out
  REQUIRE(Values(RunModel(c, {Host({1, 2}, in)})[0]) == std::vector<float>{1.3009033203125f});
}

TEST_CASE("precision: hifloat8 modes are refused on the host", "[compiler][precision]") {
  REQUIRE_THROWS_WITH(CompileWith(MulGraph(), {{"ge.exec.precision_mode_v2", "mixed_hif8"}}),
                      Catch::Contains("selects hifloat8, which only Ascend 950 chips have"));
}

TEST_CASE("precision: --input_fp16_nodes feeds a Data as float16, --output_type FP16 casts an output",
          "[compiler][precision]") {
  Builder b;
  const int32_t x = b.Data("x", {1, 2});
  const int32_t c = b.Const("c", {1}, std::vector<float>{3.0f});
  const int32_t mul = b.Op("mul", "Mul", {x, c});
  b.Output({mul});
  const om::Model m = CompileWith(b.g, {{"ge.INPUT_NODES_SET_FP16", "x"}, {"ge.outputDatatype", "FP16"}});
  const int32_t xi = m.graph.FindNode("x");
  REQUIRE(m.graph.nodes[size_t(xi)].output_descs[0].dtype == ge::DT_FLOAT16);
  const ir::Endpoint out = m.graph.outputs.at(0);
  REQUIRE(m.graph.nodes[size_t(out.node)].name == "mul");  // the output keeps its node's name
  REQUIRE(m.graph.nodes[size_t(out.node)].type == "Cast");
  REQUIRE(m.graph.nodes[size_t(out.node)].output_descs[0].dtype == ge::DT_FLOAT16);
  // 0.0999755859375 (float16 0x2E66) * 3 in float32 = 0.2999267578125, float16 output: 0.2998046875 (a tie, to even).
  HostTensor in;
  in.dtype = ge::DT_FLOAT16;
  in.shape = {1, 2};
  const _Float16 xs[2] = {static_cast<_Float16>(0.1f), static_cast<_Float16>(-2.0f)};
  in.data.resize(sizeof xs);
  std::memcpy(in.data.data(), xs, sizeof xs);
  const auto res = RunModel(m, {in});
  REQUIRE(res[0].dtype == ge::DT_FLOAT16);
  _Float16 ys[2];
  std::memcpy(ys, res[0].data.data(), sizeof ys);
  REQUIRE(static_cast<float>(ys[0]) == 0.2998046875f);
  REQUIRE(static_cast<float>(ys[1]) == -6.0f);
  REQUIRE_THROWS_WITH(CompileWith(b.g, {{"ge.INPUT_NODES_SET_FP16", "nope"}}), Catch::Contains("E10016"));
  REQUIRE_THROWS_WITH(CompileWith(b.g, {{"ge.INPUT_NODES_SET_FP16", "mul"}}), Catch::Contains("E10017"));
  REQUIRE_THROWS_WITH(CompileWith(b.g, {{"ge.outputDatatype", "HIF8"}}), Catch::Contains("has no host dtype"));
}

// HF32 keeps float32's sign and exponent and 11 of its 23 mantissa bits (spacing 2^-11 in [1, 2)).
// 0.1f = 0x3DCCCCCD: the 12 dropped bits 0xCCD are above half, so it rounds up to 0x3DCCD000 =
// 3277/32768 = 0.100006103515625; 1 + 2^-12 is a tie between 1 and 1 + 2^-11: to even, 1.
TEST_CASE("precision: the HF32 rounding helper", "[compiler][precision]") {
  REQUIRE(RoundToHfloat32(0.1f) == 0.100006103515625f);
  REQUIRE(RoundToHfloat32(1.0f + 0x1p-12f) == 1.0f);                  // a tie: to even
  REQUIRE(RoundToHfloat32(1.0f + 0x1p-11f + 0x1p-12f) == 1.0f + 0x1p-10f);  // a tie: to even (up)
  REQUIRE(RoundToHfloat32(1.0f + 0x1p-11f) == 1.0f + 0x1p-11f);       // kept bits only: exact
  REQUIRE(RoundToHfloat32(FLT_MAX) == INFINITY);                        // the carry reaches inf
  REQUIRE(RoundToHfloat32(0x1p-130f) == 0x1p-130f);  // a float32 subnormal with kept bits only
  REQUIRE(RoundToHfloat32(0x1p-140f) == 0.0f);       // its one bit is among the dropped ones
  REQUIRE(std::isnan(RoundToHfloat32(NAN)));
  REQUIRE(RoundToHfloat32(-0.1f) == -0.100006103515625f);
}

namespace {

// x [1,2] -> MatMul(w [2,1]) -> out; x2 [1,2] -> Gemm(w, c [1]) -> out2.
ir::Graph CubeGraph() {
  Builder b;
  const int32_t x = b.Data("x", {1, 2});
  const int32_t w = b.Const("w", {2, 1}, std::vector<float>{0.1f, 1.0f});
  const int32_t c = b.Const("c", {1}, std::vector<float>{0.1f});
  const int32_t mm = b.Op("mm", "MatMul", {x, w});
  const int32_t gemm = b.Op("gemm", "Gemm", {x, w, c});
  b.Output({mm, gemm});
  return b.g;
}

// x = [3, 1 + 2^-12]. In HF32 x becomes [3, 1] (a tie, to even) and w [0.100006103515625, 1], so
// mm = 3 * 3277/32768 + 1 = 42599/32768 = 1.300018310546875 (exact in float32). Gemm's bias c is
// not a matrix operand: it stays 0.1f, so gemm = 1.300018310546875 + 0.1f (an HF32 bias would
// add 0.100006103515625, 6e-6 more). In float32: mm = 3 * 0.1f + 1.000244140625 = 1.30024418...
const std::vector<float> kCubeIn = {3.0f, 1.0f + 0x1p-12f};
constexpr float kHf32Mm = 1.300018310546875f;

void RequireHf32(const om::Model &m) {
  REQUIRE(Attr(m, "mm", "openatc_compute_dtype") == "hfloat32");
  REQUIRE(Attr(m, "mm", "openatc_output_dtype").empty());  // float32 out
  REQUIRE(Attr(m, "x/hfloat32", "openatc_output_dtype") == "hfloat32");
  REQUIRE(Casts(m) == 1);  // one rounding Identity after x, shared; w rounded at compile time
  const auto out = RunModel(m, {Host({1, 2}, kCubeIn)});
  REQUIRE(Values(out[0]) == std::vector<float>{kHf32Mm});
  REQUIRE(std::fabs(Values(out[1])[0] - (double(kHf32Mm) + double(0.1f))) < 1e-6);
}

void RequireFloat32(const om::Model &m) {
  REQUIRE(Attr(m, "mm", "openatc_compute_dtype").empty());
  REQUIRE(Casts(m) == 0);
  const float mm = Values(RunModel(m, {Host({1, 2}, kCubeIn)})[0])[0];
  REQUIRE(std::fabs(mm - (3.0 * double(0.1f) + (1.0 + 0x1p-12))) < 1e-6);
}

}  // namespace

TEST_CASE("precision: --allow_hf32=true reads float32 Conv/MatMul operands as HF32", "[compiler][precision]") {
  RequireHf32(CompileWith(CubeGraph(), {{"ge.exec.allow_hf32", "true"}}));
  RequireFloat32(CompileWith(CubeGraph(), {{"ge.exec.allow_hf32", "false"}}));
  RequireFloat32(CompileWith(CubeGraph(), {}));  // not given: nothing changes on the host
  SECTION("an op the precision mode reduced stays float16") {
    const om::Model m = CompileWith(CubeGraph(), {{"ge.exec.allow_hf32", "true"}, {"ge.exec.precision_mode", "force_fp16"}});
    REQUIRE(Attr(m, "mm", "openatc_compute_dtype") == "float16");
    REQUIRE(m.graph.FindNode("x/hfloat32") < 0);
  }
  SECTION("a vector op is not touched") {
    const om::Model m = CompileWith(MulGraph(), {{"ge.exec.allow_hf32", "true"}});
    REQUIRE(Casts(m) == 0);
    REQUIRE(Attr(m, "mul", "openatc_compute_dtype").empty());
  }
}

TEST_CASE("precision: --op_precision_mode float32 / HF32 entries and their precedence", "[compiler][precision]") {
  const std::string by_type = TempFile("opm_type.ini", "[ByOpType]\nMatMul=enable_hi_float_32_execution\n"
                                                       "Gemm=enable_hi_float_32_execution\n");
  RequireHf32(CompileWith(CubeGraph(), {{"ge.exec.op_precision_mode", by_type}}));
  // --allow_hf32 beats [ByOpType] ...
  RequireFloat32(CompileWith(CubeGraph(), {{"ge.exec.op_precision_mode", by_type}, {"ge.exec.allow_hf32", "false"}}));
  // ... and [ByNodeName] beats --allow_hf32.
  const std::string by_name = TempFile("opm_name.ini", "# per node\n[ByNodeName]\nmm = enable_hi_float_32_execution\n"
                                                       "gemm=enable_hi_float_32_execution\n");
  RequireHf32(CompileWith(CubeGraph(), {{"ge.exec.op_precision_mode", by_name}, {"ge.exec.allow_hf32", "false"}}));
  const std::string fp32 = TempFile("opm_fp32.ini", "[ByNodeName]\nmm=enable_float_32_execution\n"
                                                    "gemm=enable_float_32_execution\n");
  RequireFloat32(CompileWith(CubeGraph(), {{"ge.exec.op_precision_mode", fp32}, {"ge.exec.allow_hf32", "true"}}));

  SECTION("enable_float_32_execution keeps a node out of the precision mode") {
    const std::string keep = TempFile("opm_keep.ini", "[ByNodeName]\nrelu2=enable_float_32_execution\n");
    const om::Model k = CompileWith(MulGraph(), {{"ge.exec.precision_mode", "force_fp16"},
                                                 {"ge.exec.op_precision_mode", keep}});
    REQUIRE(Attr(k, "relu2", "openatc_output_dtype").empty());
    REQUIRE(Attr(k, "relu", "openatc_output_dtype") == "float16");
    REQUIRE(Values(RunModel(k, {Host({1, 2}, {0.1f, -2.0f})})[1]) == std::vector<float>{0.2998046875f, 0.0f});
  }
  SECTION("enable_hi_float_32_execution beats force_fp16 for its op") {
    const om::Model m = CompileWith(CubeGraph(), {{"ge.exec.precision_mode", "force_fp16"},
                                                  {"ge.exec.op_precision_mode", by_name}});
    RequireHf32(m);
  }
}

TEST_CASE("precision: a dynamic model's rounding Identity leaves its input unrounded for later readers",
          "[compiler][precision]") {
  // x [-1, 2] -> MatMul(w) -> mm -> Add(x, mm) -> r. Under HF32 a rounding Identity feeds the
  // MatMul its x; with run-time shapes the Identity's output is a view of x's bytes
  // (ops/common/movement.h Input0AsOutput0), so the runtime rounds a copy and the Add, which runs
  // after it, reads x unrounded: r = [3 + kHf32Mm, 1 + 2^-12 + kHf32Mm] = [140903, 75375] / 32768
  // (exact in float32); with x rounded in place it would be [.., 1 + kHf32Mm].
  Builder b;
  const int32_t x = b.Data("x", {-1, 2});
  const int32_t w = b.Const("w", {2, 1}, std::vector<float>{0.1f, 1.0f});
  const int32_t mm = b.Op("mm", "MatMul", {x, w});
  const int32_t add = b.Op("add", "Add", {x, mm});
  b.Output({mm, add});
  const om::Model m = CompileWith(b.g, {{"ge.exec.allow_hf32", "true"}});
  REQUIRE(Casts(m) == 1);
  const auto out = RunModel(m, {Host({1, 2}, kCubeIn)});
  CHECK(Values(out[0]) == std::vector<float>{kHf32Mm});
  CHECK(Values(out[1]) == std::vector<float>{140903.0f / 32768, 75375.0f / 32768});
}
