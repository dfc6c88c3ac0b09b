// Unary math built-ins (ops/Cos.cc ... ops/MeanVarianceNormalization.cc), CastLike and Dropout
// through the one-op harness. Expected values are hand-derived from identities (cos(pi/3) = 1/2,
// tanh(ln 2) = 3/5, ...), from the ONNX spec's examples, and for Dropout from NumPy's well-known
// np.random.seed(0) uniform stream (0.5488135, 0.71518937, ...), which ONNX's reference uses.
// Error paths check the op's own message.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
HostTensor F(std::vector<int64_t> shape, const std::vector<float> &v) {
  return Tensor<float>(ge::DT_FLOAT, std::move(shape), v);
}
HostTensor D(std::vector<int64_t> shape, const std::vector<double> &v) {
  return Tensor<double>(ge::DT_DOUBLE, std::move(shape), v);
}
const float kPi = 3.14159265358979f;
const float kLn2 = 0.693147180559945f;
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Runs a one-input float op and checks each output against `want` (relative 1e-6).
void CheckFloat(const std::string &op, const std::vector<float> &in, const std::vector<float> &want,
                std::map<std::string, ir::AttrValue> attrs = {}) {
  auto r = RunOp({op, {{F({static_cast<int64_t>(in.size())}, in)}}, attrs});
  REQUIRE(r[0].dtype == ge::DT_FLOAT);
  auto got = Values<float>(r[0]);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO(op << " element " << i);
    if (std::isnan(want[i]))
      CHECK(std::isnan(got[i]));
    else
      CHECK(got[i] == Approx(want[i]).epsilon(1e-6).margin(1e-7));
  }
}

void ExpectFailure(const OpCase &c, const std::string &callback, const std::string &message) {
  const std::string text = RunOpExpectingFailure(c);
  INFO(text);
  CHECK(text.find("node 'op' (" + c.op_type + "): " + callback + " returned GRAPH_FAILED") != std::string::npos);
  CHECK(text.find(c.op_type + " 'op': " + message) != std::string::npos);
}
}  // namespace

TEST_CASE("Trigonometric and hyperbolic ops match their identities", "[ops]") {
  CheckFloat("Cos", {0, kPi / 3, kPi}, {1, 0.5f, -1});
  CheckFloat("Sin", {0, kPi / 6, -kPi / 2}, {0, 0.5f, -1});
  CheckFloat("Tan", {0, kPi / 4, -kPi / 4}, {0, 1, -1});
  CheckFloat("Acos", {1, 0.5f, -1, 2}, {0, kPi / 3, kPi, kNaN});
  CheckFloat("Asin", {0, 0.5f, 1, -2}, {0, kPi / 6, kPi / 2, kNaN});
  CheckFloat("Atan", {0, 1, -1}, {0, kPi / 4, -kPi / 4});
  CheckFloat("Cosh", {0, kLn2, -kLn2}, {1, 1.25f, 1.25f});  // (2 + 1/2) / 2
  CheckFloat("Sinh", {0, kLn2, -kLn2}, {0, 0.75f, -0.75f});  // (2 - 1/2) / 2
  CheckFloat("Acosh", {1, 1.25f, 0.5f}, {0, kLn2, kNaN});
  CheckFloat("Asinh", {0, 0.75f, -0.75f}, {0, kLn2, -kLn2});
  CheckFloat("Atanh", {0, 0.6f, -0.6f, 1}, {0, kLn2, -kLn2, kInf});  // tanh(ln 2) = 3/5
}

TEST_CASE("Trigonometric ops compute float16 and double too", "[ops]") {
  auto d = RunOp({"Cos", {{D({2}, {0.0, 3.14159265358979323846 / 3})}}});
  REQUIRE(d[0].dtype == ge::DT_DOUBLE);
  CHECK(Values<double>(d[0])[0] == 1.0);
  CHECK(Values<double>(d[0])[1] == Approx(0.5).epsilon(1e-15));
  auto h = RunOp({"Sinh", {{Tensor<_Float16>(ge::DT_FLOAT16, {2}, {_Float16(0), _Float16(0.693359375f)})}}});
  REQUIRE(h[0].dtype == ge::DT_FLOAT16);
  CHECK(static_cast<float>(Values<_Float16>(h[0])[1]) == Approx(0.75f).epsilon(1e-3));
}

TEST_CASE("Sign, Softsign, Round, ThresholdedRelu", "[ops]") {
  CheckFloat("Sign", {-3.5f, 0, 2, -0.0f, kNaN, -kInf}, {-1, 0, 1, 0, kNaN, -1});
  auto si = RunOp({"Sign", {{Tensor<int32_t>(ge::DT_INT32, {4}, {-7, 0, 5, std::numeric_limits<int32_t>::min()})}}});
  CHECK(Values<int32_t>(si[0]) == std::vector<int32_t>{-1, 0, 1, -1});
  auto su = RunOp({"Sign", {{Tensor<uint8_t>(ge::DT_UINT8, {3}, {0, 1, 255})}}});
  CHECK(Values<uint8_t>(su[0]) == std::vector<uint8_t>{0, 1, 1});
  CheckFloat("Softsign", {-1, 0, 1, 3}, {-0.5f, 0, 0.5f, 0.75f});
  // ONNX Round's example: halves to even.
  CheckFloat("Round", {0.1f, 0.5f, 0.9f, 1.2f, 1.5f, 1.8f, 2.3f, 2.5f, 2.7f, -1.1f, -1.5f, -1.9f, -2.2f, -2.5f, -2.8f},
             {0, 0, 1, 1, 2, 2, 2, 2, 3, -1, -2, -2, -2, -2, -3});
  CheckFloat("ThresholdedRelu", {-1, 0.5f, 1, 1.5f, 3}, {0, 0, 0, 1.5f, 3});  // alpha 1: strictly greater
  CheckFloat("ThresholdedRelu", {-1, 0.5f, 1, 2, 3}, {0, 0, 0, 0, 3}, {{"alpha", FloatAttr(2.0f)}});
}

TEST_CASE("IsNaN and IsInf give bool masks; IsInf honours detect_positive/negative", "[ops]") {
  const HostTensor x = F({5}, {-kInf, 1, kNaN, kInf, 0});
  auto n = RunOp({"IsNaN", {{x}}});
  REQUIRE(n[0].dtype == ge::DT_BOOL);
  CHECK(Values<uint8_t>(n[0]) == std::vector<uint8_t>{0, 0, 1, 0, 0});
  auto i = RunOp({"IsInf", {{x}}});
  REQUIRE(i[0].dtype == ge::DT_BOOL);
  CHECK(Values<uint8_t>(i[0]) == std::vector<uint8_t>{1, 0, 0, 1, 0});
  auto pos = RunOp({"IsInf", {{x}}, {{"detect_negative", IntAttr(0)}}});
  CHECK(Values<uint8_t>(pos[0]) == std::vector<uint8_t>{0, 0, 0, 1, 0});
  auto neg = RunOp({"IsInf", {{x}}, {{"detect_positive", IntAttr(0)}}});
  CHECK(Values<uint8_t>(neg[0]) == std::vector<uint8_t>{1, 0, 0, 0, 0});
  auto d = RunOp({"IsNaN", {{D({2}, {std::nan(""), 1.0})}}});
  CHECK(Values<uint8_t>(d[0]) == std::vector<uint8_t>{1, 0});
}

TEST_CASE("Shrink: soft and hard, float and integer", "[ops]") {
  // ONNX's examples: hard (lambd 1.5, bias 0) and soft (lambd 1.5, bias 1.5) on -2..2.
  CheckFloat("Shrink", {-2, -1, 0, 1, 2}, {-2, 0, 0, 0, 2}, {{"lambd", FloatAttr(1.5f)}});
  CheckFloat("Shrink", {-2, -1, 0, 1, 2}, {-0.5f, 0, 0, 0, 0.5f}, {{"lambd", FloatAttr(1.5f)}, {"bias", FloatAttr(1.5f)}});
  CheckFloat("Shrink", {-0.6f, -0.5f, 0.5f, 0.7f}, {-0.6f, 0, 0, 0.7f});  // defaults: lambd 0.5, bias 0
  auto i = RunOp({"Shrink", {{Tensor<int8_t>(ge::DT_INT8, {5}, {-5, -1, 0, 1, 5})}},
                  {{"lambd", FloatAttr(1.0f)}, {"bias", FloatAttr(2.0f)}}});
  CHECK(Values<int8_t>(i[0]) == std::vector<int8_t>{-3, 0, 0, 0, 3});
}

TEST_CASE("MeanVarianceNormalization over the default axes [0, 2, 3] and given axes", "[ops]") {
  // N=1, C=2, H=1, W=2: channel 0 holds {1, 3} (mean 2, std 1), channel 1 {10, 10} (std 0).
  auto r = RunOp({"MeanVarianceNormalization", {{F({1, 2, 1, 2}, {1, 3, 10, 10})}}});
  REQUIRE(r[0].shape == std::vector<int64_t>{1, 2, 1, 2});
  auto v = Values<float>(r[0]);
  CHECK(v[0] == Approx(-1.0f).epsilon(1e-6));
  CHECK(v[1] == Approx(1.0f).epsilon(1e-6));
  CHECK(v[2] == 0.0f);
  CHECK(v[3] == 0.0f);
  // axes [1] on a 2x3: rows {0, 3, 6} (mean 3, population std sqrt(6)) and {1, 1, 4} (mean 2, std sqrt(2)).
  auto a = RunOp({"MeanVarianceNormalization", {{F({2, 3}, {0, 3, 6, 1, 1, 4})}}, {{"axes", IntsAttr({1})}}});
  auto w = Values<float>(a[0]);
  const float s6 = std::sqrt(6.0f), s2 = std::sqrt(2.0f);
  const std::vector<float> want = {-3 / s6, 0, 3 / s6, -1 / s2, -1 / s2, 2 / s2};
  for (size_t i = 0; i < want.size(); ++i) CHECK(w[i] == Approx(want[i]).epsilon(1e-6).margin(1e-7));
}

TEST_CASE("CastLike takes the dtype of target_type", "[ops]") {
  auto r = RunOp({"CastLike", {{F({4}, {1.9f, -1.9f, 0, 300})}, {Tensor<int32_t>(ge::DT_INT32, {1}, {0})}}});
  REQUIRE(r[0].dtype == ge::DT_INT32);
  CHECK(r[0].shape == std::vector<int64_t>{4});
  CHECK(Values<int32_t>(r[0]) == std::vector<int32_t>{1, -1, 0, 300});  // truncation toward zero
  auto d = RunOp({"CastLike", {{F({2}, {0.1f, 2.5f})}, {D({}, {0.0})}}});
  REQUIRE(d[0].dtype == ge::DT_DOUBLE);
  CHECK(Values<double>(d[0]) == std::vector<double>{static_cast<double>(0.1f), 2.5});
}

TEST_CASE("Cast and CastLike to and from bfloat16 round to nearest even and keep NaN", "[ops]") {
  // 1 + 2^-8 is halfway between bfloat16 1.0 (0x3f80) and 1.0078125 (0x3f81): ties to even 0x3f80.
  // 1 + 3 * 2^-8 is halfway between 0x3f81 and 0x3f82: ties to even 0x3f82.
  // 1 + 2^-8 + 2^-20 is above halfway: 0x3f81. 3.4e38 is beyond bfloat16's max finite: +inf.
  const HostTensor x = F({6}, {1.0f + 1.0f / 256, 1.0f + 3.0f / 256, 1.0f + 1.0f / 256 + 1.0f / 1048576, 3.4e38f,
                                -kNaN, -2.0f});
  const std::vector<uint16_t> want = {0x3f80, 0x3f82, 0x3f81, 0x7f80, 0, 0xc000};
  auto c = RunOp({"Cast", {{x}}, {{"to", IntAttr(16)}}});
  auto l = RunOp({"CastLike", {{x}, {Tensor<uint16_t>(ge::DT_BF16, {1}, {0})}}});
  for (const auto &r : {c[0], l[0]}) {
    REQUIRE(r.dtype == ge::DT_BF16);
    auto v = Values<uint16_t>(r);
    CHECK(v[0] == want[0]);
    CHECK(v[1] == want[1]);
    CHECK(v[2] == want[2]);
    CHECK(v[3] == want[3]);
    CHECK((v[4] & 0x7f80) == 0x7f80);  // NaN: exponent all ones,
    CHECK((v[4] & 0x007f) != 0);       // non-zero mantissa,
    CHECK((v[4] & 0x8000) != 0);       // sign kept
    CHECK(v[5] == want[5]);
  }
  // bfloat16 -> float is exact: 0x3f81 = 1.0078125, 0xc040 = -3.
  auto b = RunOp({"Cast", {{Tensor<uint16_t>(ge::DT_BF16, {2}, {0x3f81, 0xc040})}}, {{"to", IntAttr(1)}}});
  CHECK(Values<float>(b[0]) == std::vector<float>{1.0078125f, -3.0f});
}

TEST_CASE("Dropout: inference is the identity, training follows NumPy's seeded stream", "[ops]") {
  const HostTensor x = F({2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  const HostTensor yes = Tensor<uint8_t>(ge::DT_BOOL, {}, {1}), no = Tensor<uint8_t>(ge::DT_BOOL, {}, {0});
  auto inf = RunOp({"Dropout", {{x}, {F({}, {0.5f})}, {no}}, {}, 2});
  CHECK(Values<float>(inf[0]) == Values<float>(x));
  CHECK(Values<uint8_t>(inf[1]) == std::vector<uint8_t>(10, 1));
  auto zero = RunOp({"Dropout", {{x}, {F({}, {0.0f})}, {yes}}, {{"seed", IntAttr(0)}}, 2});
  CHECK(Values<float>(zero[0]) == Values<float>(x));
  CHECK(Values<uint8_t>(zero[1]) == std::vector<uint8_t>(10, 1));
  // np.random.seed(0); np.random.uniform(0, 1, 10) = 0.549 0.715 0.603 0.545 0.424 0.646 0.438
  // 0.892 0.964 0.383: kept where >= 0.5, scaled by 1 / (1 - 0.5).
  auto t = RunOp({"Dropout", {{x}, {F({}, {0.5f})}, {yes}}, {{"seed", IntAttr(0)}}, 2});
  CHECK(Values<float>(t[0]) == std::vector<float>{2, 4, 6, 8, 0, 12, 0, 16, 18, 0});
  CHECK(Values<uint8_t>(t[1]) == std::vector<uint8_t>{1, 1, 1, 1, 0, 1, 0, 1, 1, 0});
  // ratio 0.6 (scale 2.5): kept where >= 0.6.
  auto t6 = RunOp({"Dropout", {{x}, {F({}, {0.6f})}, {yes}}, {{"seed", IntAttr(0)}}});
  const std::vector<float> w6 = {0, 5, 7.5f, 0, 0, 15, 0, 20, 22.5f, 0};
  auto g6 = Values<float>(t6[0]);
  for (size_t i = 0; i < w6.size(); ++i) CHECK(g6[i] == Approx(w6[i]).epsilon(1e-6));
  // Without a seed the mask is random but still consistent: kept elements are scaled, others 0.
  auto u = RunOp({"Dropout", {{x}, {F({}, {0.5f})}, {yes}}, {}, 2});
  auto uv = Values<float>(u[0]);
  auto um = Values<uint8_t>(u[1]);
  for (size_t i = 0; i < 10; ++i) CHECK(uv[i] == (um[i] ? 2.0f * static_cast<float>(i + 1) : 0.0f));
}

TEST_CASE("Unary/Dropout/MVN error paths name the problem", "[ops]") {
  ExpectFailure({"IsNaN", {{Tensor<int32_t>(ge::DT_INT32, {1}, {1})}}}, "InferDataType",
                "unsupported dtype 3 (float types only)");
  ExpectFailure({"Cos", {{Tensor<int32_t>(ge::DT_INT32, {1}, {1})}}}, "InferDataType", "unsupported dtype 3");
  ExpectFailure({"MeanVarianceNormalization", {{F({2, 3}, {1, 2, 3, 4, 5, 6})}}}, "InferShape",
                "axis 2 is out of range for rank 2 (valid: [-2, 1])");
  ExpectFailure({"Dropout", {{F({2}, {1, 2})}, {F({}, {1.0f}), true}}}, "InferShape",
                "ratio 1.000000 is outside [0, 1)");
  ExpectFailure({"Dropout", {{F({2}, {1, 2})}, {F({}, {-0.5f})}, {Tensor<uint8_t>(ge::DT_BOOL, {}, {1})}}}, "Execute",
                "ratio -0.500000 is outside [0, 1)");
}
