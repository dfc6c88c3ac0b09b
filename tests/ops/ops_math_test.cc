// Part-A elementwise built-ins through the one-op harness with hand-computed values: binary
// arithmetic with broadcasting, unary math, activations, variadic Sum/Max/Min/Mean, comparisons,
// logic, Where, Clip, PRelu. Exact values where they are representable, Approx otherwise.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;
using half = _Float16;

namespace {
HostTensor F(std::vector<int64_t> shape, const std::vector<float> &v) {
  return Tensor<float>(ge::DT_FLOAT, std::move(shape), v);
}
HostTensor B(std::vector<int64_t> shape, const std::vector<uint8_t> &v) {
  return Tensor<uint8_t>(ge::DT_BOOL, std::move(shape), v);
}
std::vector<float> RunF(const std::string &op, std::vector<OpInput> in,
                        std::map<std::string, ir::AttrValue> attrs = {}) {
  auto out = RunOp({op, std::move(in), std::move(attrs)});
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].dtype == ge::DT_FLOAT);
  return Values<float>(out[0]);
}
}  // namespace

TEST_CASE("Sub, Mul, Div broadcast and keep integer semantics", "[ops]") {
  auto s = RunOp({"Sub", {{F({2, 3}, {1, 2, 3, 4, 5, 6})}, {F({3}, {1, 1, 1})}}});
  CHECK(s[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<float>(s[0]) == std::vector<float>{0, 1, 2, 3, 4, 5});
  auto su = RunOp({"Sub", {{Tensor<uint8_t>(ge::DT_UINT8, {2}, {0, 5})}, {Tensor<uint8_t>(ge::DT_UINT8, {}, {1})}}});
  CHECK(Values<uint8_t>(su[0]) == std::vector<uint8_t>{255, 4});  // wraps

  auto m = RunOp({"Mul", {{F({2, 1}, {2, 3})}, {F({1, 2}, {0.5f, 4})}}});
  CHECK(m[0].shape == std::vector<int64_t>{2, 2});
  CHECK(Values<float>(m[0]) == std::vector<float>{1, 8, 1.5f, 12});
  auto mh = RunOp({"Mul",
                   {{Tensor<half>(ge::DT_FLOAT16, {2}, {half(1.5f), half(-2)})},
                    {Tensor<half>(ge::DT_FLOAT16, {1}, {half(2.5f)})}}});
  CHECK(mh[0].dtype == ge::DT_FLOAT16);
  CHECK(static_cast<float>(Values<half>(mh[0])[0]) == 3.75f);
  CHECK(static_cast<float>(Values<half>(mh[0])[1]) == -5.0f);
  auto mi = RunOp(
      {"Mul", {{Tensor<int64_t>(ge::DT_INT64, {3}, {-3, 4, 1LL << 40})}, {Tensor<int64_t>(ge::DT_INT64, {}, {3})}}});
  CHECK(Values<int64_t>(mi[0]) == std::vector<int64_t>{-9, 12, 3LL << 40});

  CHECK(RunF("Div", {{F({3}, {1, -3, 0})}, {F({}, {2})}}) == std::vector<float>{0.5f, -1.5f, 0});
  auto di = RunOp({"Div",
                   {{Tensor<int32_t>(ge::DT_INT32, {5}, {7, -7, 7, -7, std::numeric_limits<int32_t>::min()})},
                    {Tensor<int32_t>(ge::DT_INT32, {5}, {2, 2, -2, -2, -1})}}});
  CHECK(Values<int32_t>(di[0]) == std::vector<int32_t>{3, -3, -3, 3, std::numeric_limits<int32_t>::min()});
  auto dinf = RunF("Div", {{F({2}, {1, -1})}, {F({1}, {0})}});
  CHECK(std::isinf(dinf[0]));
  CHECK(dinf[0] > 0);
  CHECK(dinf[1] < 0);
}

TEST_CASE("Pow: float, integer and mixed exponent types", "[ops]") {
  CHECK(RunF("Pow", {{F({2, 2}, {2, 3, 4, 9})}, {F({2}, {3, 0.5f})}}) == std::vector<float>{8, std::sqrt(3.0f), 64, 3});
  auto ii = RunOp({"Pow",
                   {{Tensor<int64_t>(ge::DT_INT64, {6}, {3, -2, 2, 1, -1, -1})},
                    {Tensor<int64_t>(ge::DT_INT64, {6}, {4, 3, -1, -5, -3, -2})}}});
  CHECK(ii[0].dtype == ge::DT_INT64);
  CHECK(Values<int64_t>(ii[0]) == std::vector<int64_t>{81, -8, 0, 1, -1, 1});
  auto if32 = RunOp({"Pow", {{Tensor<int32_t>(ge::DT_INT32, {2}, {4, 2})}, {F({2}, {0.5f, 3})}}});
  CHECK(if32[0].dtype == ge::DT_INT32);
  CHECK(Values<int32_t>(if32[0]) == std::vector<int32_t>{2, 8});
  CHECK(RunF("Pow", {{F({2}, {2, -2})}, {Tensor<int64_t>(ge::DT_INT64, {}, {3})}}) == std::vector<float>{8, -8});
}

// ops/Pow.cc SmallExponent: one exponent of 1, 2, 3 or 0.5 runs as multiplies or a square root,
// with pow's special values: (-0)^3 = -0, (-0)^0.5 = +0, (-inf)^0.5 = +inf, (-2)^0.5 = NaN.
TEST_CASE("Pow with one exponent of 1, 2, 3 or 0.5 keeps pow's values and special cases", "[ops]") {
  const float inf = std::numeric_limits<float>::infinity();
  const HostTensor x = F({6}, {-0.0f, -inf, 1.5f, -2, 3, 0.1f});
  CHECK(RunF("Pow", {{x}, {F({}, {1})}}) == std::vector<float>{-0.0f, -inf, 1.5f, -2, 3, 0.1f});
  CHECK(RunF("Pow", {{x}, {F({}, {2})}}) == std::vector<float>{0, inf, 2.25f, 4, 9, 0.1f * 0.1f});
  const auto cube = RunF("Pow", {{x}, {F({1, 1}, {3})}});  // Y of higher rank: Z is [1, 6]
  const double tenth = 0.1f;  // the float nearest 0.1; its cube is exact in double up to one rounding
  CHECK(cube == std::vector<float>{-0.0f, -inf, 3.375f, -8, 27, static_cast<float>(tenth * tenth * tenth)});
  CHECK(std::signbit(cube[0]));
  const auto root = RunF("Pow", {{x}, {F({1}, {0.5f})}});
  CHECK(root[0] == 0);
  CHECK_FALSE(std::signbit(root[0]));
  CHECK(root[1] == inf);
  CHECK(root[2] == std::sqrt(1.5f));
  CHECK(std::isnan(root[3]));
  CHECK(root[4] == std::sqrt(3.0f));
  CHECK(root[5] == std::sqrt(0.1f));
  auto d = RunOp({"Pow", {{Tensor<double>(ge::DT_DOUBLE, {3}, {-1.5, 2, 0.25})}, {Tensor<double>(ge::DT_DOUBLE, {}, {3})}}});
  CHECK(Values<double>(d[0]) == std::vector<double>{-3.375, 8, 0.015625});
  // Other exponents take std::pow per element: 2^-1, 4^1.5.
  CHECK(RunF("Pow", {{F({2}, {2, 4})}, {F({}, {-1})}}) == std::vector<float>{0.5f, 0.25f});
  CHECK(RunF("Pow", {{F({2}, {4, 9})}, {F({}, {1.5f})}}) == std::vector<float>{8, 27});
}

TEST_CASE("Unary math: Sqrt Exp Log Erf Abs Neg Reciprocal Floor Ceil", "[ops]") {
  CHECK(RunF("Sqrt", {{F({3}, {4, 0.25f, 0})}}) == std::vector<float>{2, 0.5f, 0});
  auto e = RunF("Exp", {{F({2}, {0, 1})}});
  CHECK(e[0] == 1);
  CHECK(e[1] == Approx(2.718281828));
  auto l = RunF("Log", {{F({3}, {1, 0, 8})}});
  CHECK(l[0] == 0);
  CHECK(std::isinf(l[1]));
  CHECK(l[2] == Approx(2.0794415417));
  auto er = RunF("Erf", {{F({3}, {0, 0.5f, -10})}});
  CHECK(er[0] == 0);
  CHECK(er[1] == Approx(0.5204998778));
  CHECK(er[2] == -1);
  auto eri = RunOp({"Erf", {{Tensor<int32_t>(ge::DT_INT32, {4}, {0, 1, 7, -7})}}});
  CHECK(Values<int32_t>(eri[0]) == std::vector<int32_t>{0, 0, 1, -1});
  CHECK(RunF("Abs", {{F({3}, {-1.5f, 2, -0.0f})}}) == std::vector<float>{1.5f, 2, 0});
  auto ai = RunOp({"Abs", {{Tensor<int8_t>(ge::DT_INT8, {3}, {-128, -3, 3})}}});
  CHECK(Values<int8_t>(ai[0]) == std::vector<int8_t>{-128, 3, 3});
  CHECK(RunF("Neg", {{F({2}, {-1.5f, 2})}}) == std::vector<float>{1.5f, -2});
  auto ni = RunOp({"Neg", {{Tensor<int64_t>(ge::DT_INT64, {2}, {5, -7})}}});
  CHECK(Values<int64_t>(ni[0]) == std::vector<int64_t>{-5, 7});
  CHECK(RunF("Reciprocal", {{F({2}, {4, -0.5f})}}) == std::vector<float>{0.25f, -2});
  CHECK(RunF("Floor", {{F({3}, {-1.5f, 1.5f, 2})}}) == std::vector<float>{-2, 1, 2});
  CHECK(RunF("Ceil", {{F({3}, {-1.5f, 1.5f, 2})}}) == std::vector<float>{-1, 2, 2});
  auto dd = RunOp({"Sqrt", {{Tensor<double>(ge::DT_DOUBLE, {1}, {2.25})}}});
  CHECK(Values<double>(dd[0]) == std::vector<double>{1.5});
  auto hh = RunOp({"Floor", {{Tensor<half>(ge::DT_FLOAT16, {1}, {half(-0.5f)})}}});
  CHECK(static_cast<float>(Values<half>(hh[0])[0]) == -1.0f);
}

TEST_CASE("Activations: LeakyRelu PRelu Sigmoid Tanh HardSigmoid HardSwish Elu Selu Softplus", "[ops]") {
  CHECK(RunF("LeakyRelu", {{F({3}, {-2, 0, 3})}}, {{"alpha", FloatAttr(0.5f)}}) == std::vector<float>{-1, 0, 3});
  CHECK(RunF("LeakyRelu", {{F({1}, {-2})}})[0] == Approx(-0.02));  // default alpha 0.01
  auto p = RunOp({"PRelu", {{F({2, 3}, {-1, 2, -3, 4, -5, 6})}, {F({3}, {0.5f, 2, 0.25f})}}});
  CHECK(p[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<float>(p[0]) == std::vector<float>{-0.5f, 2, -0.75f, 4, -10, 6});
  auto pi =
      RunOp({"PRelu", {{Tensor<int32_t>(ge::DT_INT32, {2}, {-3, 3})}, {Tensor<int32_t>(ge::DT_INT32, {1}, {2})}}});
  CHECK(Values<int32_t>(pi[0]) == std::vector<int32_t>{-6, 3});
  // PRelu-6 (onnx_opset < 7): a 1-D slope of X's dim 1 is one slope per channel, [C] as [C, 1].
  // Channel 0 {-1, -2, 3} * 0.5 where negative, channel 1 {-4, 5, -6} * 3 where negative.
  const OpInput x6 = F({1, 2, 3}, {-1, -2, 3, -4, 5, -6}), s6 = F({2}, {0.5f, 3});
  auto p6 = RunOp({"PRelu", {x6, s6}, {{"onnx_opset", IntAttr(6)}}});
  CHECK(p6[0].shape == std::vector<int64_t>{1, 2, 3});
  CHECK(Values<float>(p6[0]) == std::vector<float>{-0.5f, -1, 3, -12, 5, -18});
  // The same shapes at opset 16 do not broadcast (slope [2] against the last dim 3).
  CHECK_THAT(RunOpExpectingFailure({"PRelu", {x6, s6}, {{"onnx_opset", IntAttr(16)}}}),
             Catch::Contains("slope shape [2] does not broadcast to X shape [1, 2, 3]"));
  CHECK(RunF("Sigmoid", {{F({3}, {0, -1000, 1000})}}) == std::vector<float>{0.5f, 0, 1});
  CHECK(RunF("Sigmoid", {{F({1}, {1})}})[0] == Approx(0.7310585786));
  CHECK(RunF("Tanh", {{F({3}, {0, 50, -50})}}) == std::vector<float>{0, 1, -1});
  CHECK(RunF("HardSigmoid", {{F({3}, {0, 5, -5})}}) == std::vector<float>{0.5f, 1, 0});
  CHECK(RunF("HardSigmoid", {{F({1}, {1})}}, {{"alpha", FloatAttr(0.25f)}, {"beta", FloatAttr(0.5f)}}) ==
        std::vector<float>{0.75f});
  CHECK(RunF("HardSwish", {{F({4}, {3, -3, 0, 1.5f})}}) == std::vector<float>{3, 0, 0, 1.125f});
  auto elu = RunF("Elu", {{F({3}, {0, 2, -1})}}, {{"alpha", FloatAttr(2)}});
  CHECK(elu[0] == 0);
  CHECK(elu[1] == 2);
  CHECK(elu[2] == Approx(2 * (std::exp(-1.0) - 1)));
  auto selu = RunF("Selu", {{F({3}, {1, 0, -1})}});
  CHECK(selu[0] == 1.05070102214813232421875f);
  CHECK(selu[1] == 0);
  CHECK(selu[2] == Approx(1.0507009873554805 * 1.6732632423543772 * (std::exp(-1.0) - 1)));
  auto sp = RunF("Softplus", {{F({3}, {0, 100, -100})}});
  CHECK(sp[0] == Approx(std::log(2.0)));
  CHECK(sp[1] == 100);
  CHECK(sp[2] == Approx(0).margin(1e-30));
  auto r = RunOp({"Relu", {{Tensor<double>(ge::DT_DOUBLE, {2}, {-1, 1})}}});
  CHECK(Values<double>(r[0]) == std::vector<double>{0, 1});
}

TEST_CASE("Clip with optional min/max inputs on floats and integers", "[ops]") {
  CHECK(RunF("Clip", {{F({4}, {-5, -1, 1, 5})}, {F({}, {-2})}, {F({}, {2})}}) == std::vector<float>{-2, -1, 1, 2});
  CHECK(RunF("Clip", {{F({3}, {-5, 0, 5})}, {}, {F({}, {1})}}) == std::vector<float>{-5, 0, 1});   // no min
  CHECK(RunF("Clip", {{F({3}, {-5, 0, 5})}, {F({}, {0}), true}}) == std::vector<float>{0, 0, 5});  // no max, const min
  CHECK(RunF("Clip", {{F({2}, {-5, 5})}}) == std::vector<float>{-5, 5});                           // neither
  CHECK(RunF("Clip", {{F({2}, {-5, 5})}, {F({}, {3})}, {F({}, {1})}}) == std::vector<float>{1, 1});  // min > max
  auto ci = RunOp({"Clip",
                   {{Tensor<int8_t>(ge::DT_INT8, {3}, {-128, 0, 127})},
                    {Tensor<int8_t>(ge::DT_INT8, {}, {-10})},
                    {Tensor<int8_t>(ge::DT_INT8, {}, {10})}}});
  CHECK(Values<int8_t>(ci[0]) == std::vector<int8_t>{-10, 0, 10});
  auto c64 =
      RunOp({"Clip", {{Tensor<int64_t>(ge::DT_INT64, {2}, {-7, 7})}, {}, {Tensor<int64_t>(ge::DT_INT64, {1}, {3})}}});
  CHECK(Values<int64_t>(c64[0]) == std::vector<int64_t>{-7, 3});
}

TEST_CASE("Variadic Sum Mean Max Min broadcast all inputs", "[ops]") {
  auto s = RunOp({"Sum", {{F({2}, {1, 2})}, {F({2, 1}, {10, 20})}, {F({}, {100})}}});
  CHECK(s[0].shape == std::vector<int64_t>{2, 2});
  CHECK(Values<float>(s[0]) == std::vector<float>{111, 112, 121, 122});
  CHECK(RunF("Sum", {{F({2}, {1.5f, 2})}}) == std::vector<float>{1.5f, 2});
  CHECK(RunF("Mean", {{F({2}, {3, 6})}, {F({2, 1}, {3, 0})}, {F({1}, {0})}}) == std::vector<float>{2, 3, 1, 2});
  auto mx = RunOp({"Max",
                   {{Tensor<int32_t>(ge::DT_INT32, {3}, {1, 5, -3})},
                    {Tensor<int32_t>(ge::DT_INT32, {3}, {4, 2, -7})},
                    {Tensor<int32_t>(ge::DT_INT32, {1}, {3})}}});
  CHECK(Values<int32_t>(mx[0]) == std::vector<int32_t>{4, 5, 3});
  auto mn =
      RunOp({"Min", {{Tensor<uint8_t>(ge::DT_UINT8, {3}, {1, 200, 7})}, {Tensor<uint8_t>(ge::DT_UINT8, {}, {100})}}});
  CHECK(Values<uint8_t>(mn[0]) == std::vector<uint8_t>{1, 100, 7});
  auto nan = RunF("Max", {{F({2}, {std::nanf(""), 1})}, {F({2}, {0, 2})}});
  CHECK(std::isnan(nan[0]));
  CHECK(nan[1] == 2);
  auto sh = RunOp({"Sum",
                   {{Tensor<half>(ge::DT_FLOAT16, {1}, {half(2048)})},
                    {Tensor<half>(ge::DT_FLOAT16, {1}, {half(1)})},
                    {Tensor<half>(ge::DT_FLOAT16, {1}, {half(1)})}}});
  CHECK(static_cast<float>(Values<half>(sh[0])[0]) == 2050.0f);  // accumulated in float, rounded once
}

TEST_CASE("Comparisons and logic give bool with broadcasting", "[ops]") {
  auto eq = RunOp({"Equal", {{F({2, 2}, {1, 2, 3, 4})}, {F({2}, {1, 4})}}});
  CHECK(eq[0].dtype == ge::DT_BOOL);
  CHECK(Values<uint8_t>(eq[0]) == std::vector<uint8_t>{1, 0, 0, 1});
  auto eqb = RunOp({"Equal", {{B({3}, {1, 0, 1})}, {B({}, {1})}}});
  CHECK(Values<uint8_t>(eqb[0]) == std::vector<uint8_t>{1, 0, 1});
  auto lt =
      RunOp({"Less", {{Tensor<int64_t>(ge::DT_INT64, {3}, {1, 2, 3})}, {Tensor<int64_t>(ge::DT_INT64, {}, {2})}}});
  CHECK(Values<uint8_t>(lt[0]) == std::vector<uint8_t>{1, 0, 0});
  auto gt = RunOp({"Greater",
                   {{Tensor<half>(ge::DT_FLOAT16, {2}, {half(0.5f), half(-1)})},
                    {Tensor<half>(ge::DT_FLOAT16, {2}, {half(0), half(0)})}}});
  CHECK(Values<uint8_t>(gt[0]) == std::vector<uint8_t>{1, 0});
  auto le = RunOp(
      {"LessOrEqual", {{Tensor<int32_t>(ge::DT_INT32, {3}, {1, 2, 3})}, {Tensor<int32_t>(ge::DT_INT32, {1}, {2})}}});
  CHECK(Values<uint8_t>(le[0]) == std::vector<uint8_t>{1, 1, 0});
  auto ge_ = RunOp({"GreaterOrEqual", {{F({3}, {1, 2, 3})}, {F({1}, {2})}}});
  CHECK(Values<uint8_t>(ge_[0]) == std::vector<uint8_t>{0, 1, 1});
  auto nanc = RunOp({"Equal", {{F({1}, {std::nanf("")})}, {F({1}, {std::nanf("")})}}});
  CHECK(Values<uint8_t>(nanc[0]) == std::vector<uint8_t>{0});

  const HostTensor a = B({2, 2}, {0, 0, 1, 1}), b = B({2}, {0, 1});
  CHECK(Values<uint8_t>(RunOp({"And", {{a}, {b}}})[0]) == std::vector<uint8_t>{0, 0, 0, 1});
  CHECK(Values<uint8_t>(RunOp({"Or", {{a}, {b}}})[0]) == std::vector<uint8_t>{0, 1, 1, 1});
  CHECK(Values<uint8_t>(RunOp({"Xor", {{a}, {b}}})[0]) == std::vector<uint8_t>{0, 1, 1, 0});
  auto n = RunOp({"Not", {{a}}});
  CHECK(n[0].shape == std::vector<int64_t>{2, 2});
  CHECK(Values<uint8_t>(n[0]) == std::vector<uint8_t>{1, 1, 0, 0});
}

TEST_CASE("Where selects with three-way broadcasting", "[ops]") {
  auto w = RunOp({"Where",
                  {{B({2, 1}, {1, 0})},
                   {Tensor<int64_t>(ge::DT_INT64, {3}, {1, 2, 3})},
                   {Tensor<int64_t>(ge::DT_INT64, {}, {-1})}}});
  CHECK(w[0].dtype == ge::DT_INT64);
  CHECK(w[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<int64_t>(w[0]) == std::vector<int64_t>{1, 2, 3, -1, -1, -1});
  CHECK(RunF("Where", {{B({3}, {0, 1, 0})}, {F({3}, {1, 2, 3})}, {F({3}, {4, 5, 6})}}) == std::vector<float>{4, 2, 6});
  auto wb = RunOp({"Where", {{B({2}, {1, 0})}, {B({2}, {0, 0})}, {B({2}, {1, 1})}}});
  CHECK(Values<uint8_t>(wb[0]) == std::vector<uint8_t>{0, 1});
  // An attention mask: the condition repeated over 2 heads, X one fill value, Y the scores.
  const HostTensor mask = B({1, 1, 2, 3}, {1, 0, 0, 1, 1, 0});
  const HostTensor scores = F({1, 2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto am = RunOp({"Where", {{mask}, {F({}, {-100})}, {scores}}});
  CHECK(am[0].shape == std::vector<int64_t>{1, 2, 2, 3});
  CHECK(Values<float>(am[0]) == std::vector<float>{-100, 2, 3, -100, -100, 6, -100, 8, 9, -100, -100, 12});
  // Y the fill value, X the scores; and both per column, the condition per row (no run contiguous).
  CHECK(RunF("Where", {{mask}, {scores}, {F({}, {0})}}) == std::vector<float>{1, 0, 0, 4, 5, 0, 7, 0, 0, 10, 11, 0});
  CHECK(RunF("Where", {{B({2, 1}, {0, 1})}, {F({1, 3}, {1, 2, 3})}, {F({2, 3}, {4, 5, 6, 7, 8, 9})}}) ==
        std::vector<float>{4, 5, 6, 1, 2, 3});
}
