// Hand-computed cases for the round-3 group-L built-ins: NegativeLogLikelihoodLoss,
// SoftmaxCrossEntropyLoss, Hardmax, CumSum, Mod and BitShift (ONNX Operators.md semantics), each
// through the one-op harness (compile, OM round trip, run), plus their error paths with the op's
// message. Log-softmax values were computed independently with Python's math module
// (log_softmax([0,0,0]) = -ln 3 = -1.0986123; log_softmax([1,2,3]) = [-2.4076060, -1.4076060,
// -0.4076060]).
#include <catch2/catch.hpp>
#include <cstdint>
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
HostTensor H(std::vector<int64_t> shape, const std::vector<float> &v) {
  std::vector<_Float16> h;
  for (float x : v) h.push_back(static_cast<_Float16>(x));
  return Tensor<_Float16>(ge::DT_FLOAT16, std::move(shape), h);
}
HostTensor I64(std::vector<int64_t> shape, const std::vector<int64_t> &v) {
  return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v);
}
HostTensor I32(std::vector<int64_t> shape, const std::vector<int32_t> &v) {
  return Tensor<int32_t>(ge::DT_INT32, std::move(shape), v);
}

void CheckFloats(const HostTensor &t, std::vector<int64_t> shape, const std::vector<float> &expected) {
  CHECK(t.dtype == ge::DT_FLOAT);
  CHECK(t.shape == shape);
  const auto v = Values<float>(t);
  REQUIRE(v.size() == expected.size());
  for (size_t i = 0; i < v.size(); ++i) {
    INFO("index " << i);
    CHECK(v[i] == Approx(expected[i]).epsilon(1e-6).margin(1e-6));
  }
}

// The op's own message ("<type> 'op': <message>") must appear in what the failing run printed.
void ExpectFailure(const OpCase &c, const std::string &message) {
  const std::string text = RunOpExpectingFailure(c);
  INFO(text);
  CHECK(text.find(c.op_type + " 'op': " + message) != std::string::npos);
}

// Log-probabilities (N=3, C=3) and targets shared by the NLL cases.
const std::vector<float> kLogp = {-1, -2, -3, -0.5f, -1.5f, -2.5f, -4, -5, -6};
}  // namespace

TEST_CASE("NegativeLogLikelihoodLoss: reductions, weights, ignore_index", "[ops][loss]") {
  const OpInput x = F({3, 3}, kLogp);
  const OpInput t = I64({3}, {2, 0, 1});
  // Picked log-probabilities: -3, -0.5, -5.
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t}, {{"reduction", StringAttr("none")}}})[0], {3}, {3, 0.5f, 5});
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t}, {{"reduction", StringAttr("sum")}}})[0], {}, {8.5f});
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t}})[0], {}, {8.5f / 3});  // mean is the default
  const OpInput w = F({3}, {0.5f, 2, 4});
  // Weighted: 3*4 + 0.5*0.5 + 5*2 = 22.25 over weights 4 + 0.5 + 2 = 6.5.
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t, w}})[0], {}, {22.25f / 6.5f});
  // ignore_index 0 drops row 1 from the sum AND from the weight sum: 22 / (4 + 2).
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t, w}, {{"ignore_index", IntAttr(0)}}})[0], {}, {22.f / 6});
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss",
                     {x, t, w},
                     {{"ignore_index", IntAttr(0)}, {"reduction", StringAttr("none")}}})[0],
              {3}, {12, 0, 10});
  // Without weights, mean divides by the count of targets that are not ignored: (3 + 5) / 2.
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t}, {{"ignore_index", IntAttr(0)}}})[0], {}, {4});
}

TEST_CASE("NegativeLogLikelihoodLoss: N-d input, int32 target, negative ignore_index, double and float16",
          "[ops][loss]") {
  // input (N=1, C=2, d1=3): class 0 = [-1, -2, -3], class 1 = [-4, -5, -6]; target [1, -1, 0].
  const OpInput x = F({1, 2, 3}, {-1, -2, -3, -4, -5, -6});
  const OpInput t = I32({1, 3}, {1, -1, 0});
  CheckFloats(
      RunOp(
          {"NegativeLogLikelihoodLoss", {x, t}, {{"ignore_index", IntAttr(-1)}, {"reduction", StringAttr("none")}}})[0],
      {1, 3}, {4, 0, 3});
  CheckFloats(RunOp({"NegativeLogLikelihoodLoss", {x, t}, {{"ignore_index", IntAttr(-1)}}})[0], {}, {3.5f});

  const auto d = RunOp({"NegativeLogLikelihoodLoss",
                        {D({2, 2}, {-0.25, -0.75, -1.5, -0.125}), I64({2}, {1, 0}), D({2}, {2, 3})},
                        {{"reduction", StringAttr("sum")}}})[0];
  CHECK(d.dtype == ge::DT_DOUBLE);
  CHECK(Values<double>(d) == std::vector<double>{0.75 * 3 + 1.5 * 2});

  const auto h = RunOp({"NegativeLogLikelihoodLoss",
                        {H({2, 2}, {-0.25f, -0.75f, -1.5f, -0.125f}), I64({2}, {1, 0})},
                        {{"reduction", StringAttr("none")}}})[0];
  CHECK(h.dtype == ge::DT_FLOAT16);
  const auto hv = Values<_Float16>(h);
  REQUIRE(hv.size() == 2);
  CHECK(static_cast<float>(hv[0]) == 0.75f);
  CHECK(static_cast<float>(hv[1]) == 1.5f);
}

TEST_CASE("NegativeLogLikelihoodLoss refuses bad targets, shapes, dtypes and reductions", "[ops][loss]") {
  const OpInput x = F({3, 3}, kLogp);
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({3}, {2, 3, 1})}},
                "target value 3 at flat index 1 is outside [0, 3) and is not ignore_index");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({3}, {2, -1, 1})}, {{"ignore_index", IntAttr(5)}}},
                "target value -1 at flat index 1 is outside [0, 3) and is not ignore_index");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({3}, {0, 1, 2})}, {{"reduction", StringAttr("avg")}}},
                "reduction 'avg' is not one of none, sum, mean");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({2}, {0, 1})}},
                "target shape [2] does not match input shape [3, 3] (expected [3]");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({3}, {0, 1, 2}), F({2}, {1, 1})}},
                "weight shape [2] must be (C) = [3]");
  ExpectFailure({"NegativeLogLikelihoodLoss", {F({3}, {1, 2, 3}), I64({}, {0})}},
                "input must have shape (N, C) or (N, C, d1, ..., dk), got [3]");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, F({3}, {0, 1, 2})}},
                "target dtype must be int32 or int64, got float32");
  ExpectFailure({"NegativeLogLikelihoodLoss", {x, I64({3}, {0, 1, 2}), D({3}, {1, 1, 1})}},
                "weight dtype float64 differs from the input dtype float32");
}

TEST_CASE("SoftmaxCrossEntropyLoss: loss, log_prob, weights with ignore_index", "[ops][loss]") {
  const float ln3 = 1.0986123f;
  const std::vector<float> lp1 = {-2.4076060f, -1.4076060f, -0.4076060f};
  const OpInput s = F({2, 3}, {0, 0, 0, 1, 2, 3});
  const OpInput l = I64({2}, {1, 2});
  auto out = RunOp({"SoftmaxCrossEntropyLoss", {s, l}, {{"reduction", StringAttr("none")}}, 2});
  REQUIRE(out.size() == 2);
  CheckFloats(out[0], {2}, {ln3, 0.4076060f});
  CheckFloats(out[1], {2, 3}, {-ln3, -ln3, -ln3, lp1[0], lp1[1], lp1[2]});
  CheckFloats(RunOp({"SoftmaxCrossEntropyLoss", {s, l}})[0], {}, {(ln3 + 0.4076060f) / 2});
  CheckFloats(RunOp({"SoftmaxCrossEntropyLoss", {s, l}, {{"reduction", StringAttr("sum")}}})[0], {},
              {ln3 + 0.4076060f});
  // Three rows, weights [1, 2, 3], row 2 (label 0) ignored: (2*ln3 + 3*0.4076060) / (2 + 3).
  const OpInput s3 = F({3, 3}, {0, 0, 0, 1, 2, 3, 5, 5, 5});
  const OpInput l3 = I64({3}, {1, 2, 0});
  const OpInput w = F({3}, {1, 2, 3});
  CheckFloats(RunOp({"SoftmaxCrossEntropyLoss", {s3, l3, w}, {{"ignore_index", IntAttr(0)}}})[0], {}, {0.68400849f});
  // (N=1, C=2, d1=2): positions see classes [0, 1] and [2, 2] -> log_softmax [-1.3132617, -0.3132617] and [-ln2] * 2.
  out = RunOp({"SoftmaxCrossEntropyLoss",
               {F({1, 2, 2}, {0, 2, 1, 2}), I64({1, 2}, {0, 1})},
               {{"reduction", StringAttr("none")}},
               2});
  CheckFloats(out[0], {1, 2}, {1.3132617f, 0.6931472f});
  CheckFloats(out[1], {1, 2, 2}, {-1.3132617f, -0.6931472f, -0.3132617f, -0.6931472f});
}

TEST_CASE("SoftmaxCrossEntropyLoss refuses bad labels", "[ops][loss]") {
  ExpectFailure({"SoftmaxCrossEntropyLoss", {F({2, 3}, {0, 0, 0, 1, 2, 3}), I64({2}, {1, 7})}},
                "labels: target value 7 at flat index 1 is outside [0, 3) and is not ignore_index");
  ExpectFailure({"SoftmaxCrossEntropyLoss", {F({2, 3}, {0, 0, 0, 1, 2, 3}), I64({2, 1}, {1, 0})}},
                "target shape [2, 1] does not match input shape [2, 3]");
}

TEST_CASE("Hardmax marks the first maximum along the axis", "[ops][hardmax]") {
  const OpInput x = F({2, 3}, {1, 3, 2, 4, 4, 0});
  CheckFloats(RunOp({"Hardmax", {x}})[0], {2, 3}, {0, 1, 0, 1, 0, 0});
  CheckFloats(RunOp({"Hardmax", {x}, {{"axis", IntAttr(0)}}})[0], {2, 3}, {0, 0, 1, 1, 1, 0});
  const OpInput x3 = F({2, 2, 2}, {1, 5, 3, 2, 0, 0, 9, 1});
  CheckFloats(RunOp({"Hardmax", {x3}, {{"axis", IntAttr(1)}, {"onnx_opset", IntAttr(13)}}})[0], {2, 2, 2},
              {0, 1, 1, 0, 0, 0, 1, 1});
  // Opset 11 coerces to 2-D rows [1, 5, 3, 2] and [0, 0, 9, 1].
  CheckFloats(RunOp({"Hardmax", {x3}, {{"axis", IntAttr(1)}, {"onnx_opset", IntAttr(11)}}})[0], {2, 2, 2},
              {0, 1, 0, 0, 0, 0, 1, 0});
  const auto d = RunOp({"Hardmax", {D({3}, {-1, -0.5, -2})}})[0];
  CHECK(Values<double>(d) == std::vector<double>{0, 1, 0});
  ExpectFailure({"Hardmax", {x}, {{"axis", IntAttr(2)}}}, "axis 2 is out of range for rank 2 (valid: [-2, 1])");
}

TEST_CASE("CumSum: exclusive, reverse, axes, integer wrap", "[ops][cumsum]") {
  const OpInput x = D({4}, {1, 2, 3, 4});
  const OpInput a0 = I64({}, {0});
  auto run = [&](int64_t excl, int64_t rev) {
    return Values<double>(RunOp({"CumSum", {x, a0}, {{"exclusive", IntAttr(excl)}, {"reverse", IntAttr(rev)}}})[0]);
  };
  CHECK(run(0, 0) == std::vector<double>{1, 3, 6, 10});
  CHECK(run(1, 0) == std::vector<double>{0, 1, 3, 6});
  CHECK(run(0, 1) == std::vector<double>{10, 9, 7, 4});
  CHECK(run(1, 1) == std::vector<double>{9, 7, 4, 0});
  const OpInput m = F({2, 3}, {1, 2, 3, 4, 5, 6});
  CheckFloats(RunOp({"CumSum", {m, I32({}, {0})}})[0], {2, 3}, {1, 2, 3, 5, 7, 9});
  CheckFloats(RunOp({"CumSum", {m, OpInput(I64({1}, {-1}), true)}})[0], {2, 3}, {1, 3, 6, 4, 9, 15});
  const int32_t big = std::numeric_limits<int32_t>::max();
  const auto w = RunOp({"CumSum", {I32({2}, {big, 1}), a0}})[0];
  CHECK(Values<int32_t>(w) == std::vector<int32_t>{big, std::numeric_limits<int32_t>::min()});
  const auto u = RunOp({"CumSum", {Tensor<uint64_t>(ge::DT_UINT64, {3}, {5, 6, 7}), a0}, {{"reverse", IntAttr(1)}}})[0];
  CHECK(Values<uint64_t>(u) == std::vector<uint64_t>{18, 13, 7});
  ExpectFailure({"CumSum", {m, I64({}, {2})}}, "axis 2 is out of range for rank 2 (valid: [-2, 1])");
  ExpectFailure({"CumSum", {m, I64({2}, {0, 1})}},
                "axis must hold exactly one int32/int64 value (a 0-D tensor), got 2");
  ExpectFailure({"CumSum", {Tensor<int8_t>(ge::DT_INT8, {1}, {1}), a0}},
                "x dtype int8 is not one of float, float16, double, int32, int64, uint32, uint64");
}

TEST_CASE("Mod: divisor sign (fmod=0), dividend sign (fmod=1), floats, broadcasting", "[ops][mod]") {
  const OpInput a = I32({5}, {-4, 4, -4, 4, 7});
  const OpInput b = I32({5}, {3, 3, -3, -3, 5});
  CHECK(Values<int32_t>(RunOp({"Mod", {a, b}})[0]) == std::vector<int32_t>{2, 1, -1, -2, 2});
  CHECK(Values<int32_t>(RunOp({"Mod", {a, b}, {{"fmod", IntAttr(1)}}})[0]) == std::vector<int32_t>{-1, 1, -1, 1, 2});
  CheckFloats(RunOp({"Mod", {F({2}, {-4.5f, 5.5f}), F({2}, {2, -2})}, {{"fmod", IntAttr(1)}}})[0], {2}, {-0.5f, 1.5f});
  const int8_t lo = std::numeric_limits<int8_t>::min();
  CHECK(Values<int8_t>(RunOp(
            {"Mod", {Tensor<int8_t>(ge::DT_INT8, {2}, {lo, -7}), Tensor<int8_t>(ge::DT_INT8, {2}, {-1, 2})}})[0]) ==
        std::vector<int8_t>{0, 1});
  CHECK(Values<int64_t>(RunOp({"Mod", {I64({2, 2}, {5, -6, 7, 8}), I64({1}, {3})}})[0]) ==
        std::vector<int64_t>{2, 0, 1, 2});
  CHECK(
      Values<uint8_t>(RunOp(
          {"Mod", {Tensor<uint8_t>(ge::DT_UINT8, {2}, {250, 7}), Tensor<uint8_t>(ge::DT_UINT8, {2}, {7, 250})}})[0]) ==
      std::vector<uint8_t>{5, 7});
  ExpectFailure({"Mod", {F({1}, {1}), F({1}, {2})}},
                "fmod=0 (integer modulus) is not defined for floating-point inputs; set fmod=1");
  ExpectFailure({"Mod", {a, I32({5}, {1, 2, 0, 4, 5})}}, "integer modulus by zero: divisor B contains 0");
  ExpectFailure({"Mod", {I32({2}, {1, 2}), I32({3}, {1, 2, 3})}}, "shapes [2] and [3] do not broadcast");
}

TEST_CASE("BitShift: LEFT and RIGHT on unsigned types, shifts past the width", "[ops][bitshift]") {
  const auto l =
      RunOp({"BitShift",
             {Tensor<uint8_t>(ge::DT_UINT8, {4}, {16, 4, 1, 255}), Tensor<uint8_t>(ge::DT_UINT8, {4}, {1, 2, 8, 1})},
             {{"direction", StringAttr("LEFT")}}})[0];
  CHECK(Values<uint8_t>(l) == std::vector<uint8_t>{32, 16, 0, 254});
  const auto r = RunOp({"BitShift",
                        {Tensor<uint32_t>(ge::DT_UINT32, {3}, {16, 4, 1}), Tensor<uint32_t>(ge::DT_UINT32, {1}, {2})},
                        {{"direction", StringAttr("RIGHT")}}})[0];
  CHECK(Values<uint32_t>(r) == std::vector<uint32_t>{4, 1, 0});
  const auto u = RunOp({"BitShift",
                        {Tensor<uint64_t>(ge::DT_UINT64, {2}, {1, 1}), Tensor<uint64_t>(ge::DT_UINT64, {2}, {63, 64})},
                        {{"direction", StringAttr("LEFT")}}})[0];
  CHECK(Values<uint64_t>(u) == std::vector<uint64_t>{uint64_t{1} << 63, 0});
  ExpectFailure({"BitShift",
                 {Tensor<uint8_t>(ge::DT_UINT8, {1}, {1}), Tensor<uint8_t>(ge::DT_UINT8, {1}, {1})},
                 {{"direction", StringAttr("UP")}}},
                "direction 'UP' must be \"LEFT\" or \"RIGHT\"");
  ExpectFailure({"BitShift", {I32({1}, {1}), I32({1}, {1})}, {{"direction", StringAttr("LEFT")}}}, "unsupported dtype");
}
