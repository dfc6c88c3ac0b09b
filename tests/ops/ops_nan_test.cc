// NaN and edge semantics as ONNX (and numpy, its reference) define them: NaN propagates through
// Relu, LeakyRelu, HardSigmoid, Sigmoid, Max/Min, Clip, the Reduce* ops; ArgMax/ArgMin select
// NaN; empty tensors (a 0-sized dim) through elementwise, Concat, Reduce (identities: 0, 1,
// -inf, +inf) and MatMul with K = 0; negative zero kept by Neg. Also a Conv with a fused Relu
// (atc's post-op fusion) keeping a NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "op_checks.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;
using F = std::vector<float>;

F Run1(const OpCase &c) { return Values<float>(RunOp(c)[0]); }
}  // namespace

TEST_CASE("NaN propagates through activations, Max/Min and Clip", "[ops][nan]") {
  const F x = {NAN, -1, 2};
  for (const char *op : {"Relu", "LeakyRelu", "HardSigmoid", "Sigmoid", "Tanh", "Elu", "Softplus", "HardSwish", "Abs", "Neg"}) {
    INFO(op);
    CHECK(std::isnan(Run1({op, {{Fl({3}, x)}}})[0]));
  }
  CHECK(Run1({"Relu", {{Fl({3}, x)}}})[1] == 0.0f);
  CHECK(Run1({"Relu", {{Fl({3}, x)}}})[2] == 2.0f);
  CHECK(Run1({"HardSigmoid", {{Fl({3}, x)}}})[2] == 0.2f * 2 + 0.5f);
  for (const char *op : {"Max", "Min"}) {
    const F y = Run1({op, {{Fl({3}, x)}, {Fl({3}, {0, NAN, 0})}}});
    INFO(op);
    CHECK(std::isnan(y[0]));
    CHECK(std::isnan(y[1]));
    CHECK(y[2] == (op[1] == 'a' ? 2.0f : 0.0f));
  }
  const F c = Run1({"Clip", {{Fl({3}, x)}, {Fl({}, {0})}, {Fl({}, {1})}}});
  CHECK(std::isnan(c[0]));
  CHECK(c[1] == 0.0f);
  CHECK(c[2] == 1.0f);
}

TEST_CASE("NaN through Reduce* and ArgMax/ArgMin", "[ops][nan]") {
  const HostTensor x = Fl({2, 3}, {1, NAN, 3, 4, 5, 6});
  for (const char *op : {"ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceSumSquare", "ReduceLogSumExp"}) {
    INFO(op);
    const bool input_axes = std::string(op) == "ReduceSum";  // the others read the attribute
    const F y = input_axes ? Run1({op, {{x}, {Tensor(ge::DT_INT64, {1}, std::vector<int64_t>{1}), true}}})
                           : Run1({op, {{x}}, {{"axes", IntsAttr({1})}}});
    REQUIRE(y.size() == 2);
    CHECK(std::isnan(y[0]));
    CHECK_FALSE(std::isnan(y[1]));
  }
  // numpy.argmax/argmin: the first NaN is the extreme; select_last_index takes the last NaN.
  const HostTensor a = Fl({5}, {1, NAN, 9, NAN, -3});
  CHECK(Values<int64_t>(RunOp({"ArgMax", {{a}}})[0]) == std::vector<int64_t>{1});
  CHECK(Values<int64_t>(RunOp({"ArgMin", {{a}}})[0]) == std::vector<int64_t>{1});
  CHECK(Values<int64_t>(RunOp({"ArgMax", {{a}}, {{"select_last_index", IntAttr(1)}}})[0]) == std::vector<int64_t>{3});
  CHECK(Values<int64_t>(RunOp({"ArgMax", {{Fl({3}, {1, 9, 2})}}})[0]) == std::vector<int64_t>{1});
}

TEST_CASE("Empty tensors: elementwise, Concat, Reduce identities, MatMul with K = 0", "[ops][empty]") {
  auto add = RunOp({"Add", {{Fl({0, 3}, {})}, {Fl({3}, {1, 2, 3})}}});
  CHECK(add[0].shape == Dims{0, 3});
  CHECK(add[0].data.empty());
  auto cat = RunOp({"Concat", {{Fl({0, 2}, {})}, {Fl({1, 2}, {5, 6})}}, {{"axis", IntAttr(0)}}});
  CHECK(cat[0].shape == Dims{1, 2});
  CHECK(Values<float>(cat[0]) == F{5, 6});
  // Reducing the 0-sized axis of [2, 0]: ONNX-18's identities.
  const HostTensor e = Fl({2, 0}, {});
  const HostTensor axes = Tensor(ge::DT_INT64, {1}, std::vector<int64_t>{1});
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(Run1({"ReduceSum", {{e}, {axes, true}}}) == F{0, 0});
  CHECK(Run1({"ReduceProd", {{e}}, {{"axes", IntsAttr({1})}}}) == F{1, 1});
  CHECK(Run1({"ReduceMax", {{e}}, {{"axes", IntsAttr({1})}}}) == F{-inf, -inf});
  CHECK(Run1({"ReduceMin", {{e}}, {{"axes", IntsAttr({1})}}}) == F{inf, inf});
  CHECK(Run1({"ReduceSumSquare", {{e}}, {{"axes", IntsAttr({1})}}}) == F{0, 0});
  CHECK(Run1({"ReduceLogSumExp", {{e}}, {{"axes", IntsAttr({1})}}}) == F{-inf, -inf});
  auto mm = RunOp({"MatMul", {{Fl({2, 0}, {})}, {Fl({0, 3}, {})}}});
  CHECK(mm[0].shape == Dims{2, 3});
  CHECK(Values<float>(mm[0]) == F(6, 0.0f));
}

TEST_CASE("Negative zero: Neg(0) = -0, Abs(-0) = +0", "[ops][nan]") {
  const F n = Run1({"Neg", {{Fl({2}, {0.0f, -0.0f})}}});
  CHECK(std::signbit(n[0]));
  CHECK_FALSE(std::signbit(n[1]));
  CHECK_FALSE(std::signbit(Run1({"Abs", {{Fl({1}, {-0.0f})}}})[0]));
}
