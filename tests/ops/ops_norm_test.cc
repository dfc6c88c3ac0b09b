// LayerNormalization, InstanceNormalization and LRN (plain-loop built-in ops) through the one-op
// harness with hand-computed values and error messages; plus the oneDNN ops run at 1 and 2 host
// runtime threads (omrun --threads) giving the same results.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "op_harness.h"
#include "openatc/rt/runtime.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

void CheckClose(const std::vector<float> &got, const std::vector<float> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(std::fabs(got[i] - want[i]) <= 1e-6f + 1e-5f * std::fabs(want[i]));
  }
}

// Runs `c`, expecting failure; returns what the op printed on stderr plus the error text.
std::string FailureText(const OpCase &c) { return RunOpExpectingFailure(c); }
}  // namespace

TEST_CASE("LayerNormalization by hand, with Mean and InvStdDev (ONNX-17)", "[ops][norm]") {
  // Row [1,2,3]: mean 2, variance 2/3, + epsilon 1/3 = 1; row [4,4,4]: variance 0 -> 1/sqrt(1/3).
  auto out = RunOp({"LayerNormalization",
                    {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 4, 4})},
                     {Tensor(ge::DT_FLOAT, {3}, std::vector<float>{2, 1, 0.5f})},
                     {Tensor(ge::DT_FLOAT, {1}, std::vector<float>{1})}},
                    {{"epsilon", FloatAttr(1.0f / 3.0f)}},
                    3});
  REQUIRE(out.size() == 3);
  CHECK(out[0].shape == Dims{2, 3});
  CheckClose(Values<float>(out[0]), {-1, 1, 1.5f, 1, 1, 1});
  CHECK(out[1].shape == Dims{2, 1});
  CheckClose(Values<float>(out[1]), {2, 4});
  CheckClose(Values<float>(out[2]), {1, std::sqrt(3.0f)});
  // axis 0 normalises everything: mean 3, variance (4+1+0+1+1+1)/6 = 4/3.
  auto all = RunOp({"LayerNormalization",
                    {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 4, 4})},
                     {Tensor(ge::DT_FLOAT, {}, std::vector<float>{1})}, {}},
                    {{"axis", IntAttr(0)}, {"epsilon", FloatAttr(0.0f)}}});
  const float inv = 1.0f / std::sqrt(4.0f / 3.0f);
  CheckClose(Values<float>(all[0]), {-2 * inv, -inv, 0, inv, inv, inv});
  auto t = FailureText({"LayerNormalization", {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>(6, 1))},
                                               {Tensor(ge::DT_FLOAT, {3}, std::vector<float>(3, 1))}},
                        {{"axis", IntAttr(2)}}});
  CHECK_THAT(t, Catch::Contains("axis 2 is out of range for X [2, 3]"));
  t = FailureText({"LayerNormalization", {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>(6, 1))},
                                          {Tensor(ge::DT_FLOAT, {2}, std::vector<float>(2, 1))}}});
  CHECK_THAT(t, Catch::Contains("Scale [2] does not broadcast to X[axis:] [3]"));
}

TEST_CASE("InstanceNormalization by hand (ONNX-6)", "[ops][norm]") {
  // Channel 0: [1, 3] -> [-1, 1] * 2; channel 1: [0, 4] -> [-1, 1] * 3 + 1.
  auto y = RunOp({"InstanceNormalization",
                  {{Tensor(ge::DT_FLOAT, {1, 2, 2}, std::vector<float>{1, 3, 0, 4})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{2, 3})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{0, 1})}},
                  {{"epsilon", FloatAttr(0.0f)}}});
  CheckClose(Values<float>(y[0]), {-2, 2, -2, 4});
  auto t = FailureText({"InstanceNormalization",
                        {{Tensor(ge::DT_FLOAT, {1, 2, 2}, std::vector<float>(4, 1))},
                         {Tensor(ge::DT_FLOAT, {3}, std::vector<float>(3, 1))},
                         {Tensor(ge::DT_FLOAT, {2}, std::vector<float>(2, 1))}}});
  CHECK_THAT(t, Catch::Contains("scale [3] must have shape [C] = [2]"));
}

TEST_CASE("LRN with an even size (asymmetric window, ONNX-13)", "[ops][norm]") {
  // size 2: channel c sums c and c+1; alpha/size = 1, beta 1, bias 1.
  auto y = RunOp({"LRN", {{Tensor(ge::DT_FLOAT, {1, 3, 1}, std::vector<float>{1, 2, 3})}},
                  {{"size", IntAttr(2)}, {"alpha", FloatAttr(2.0f)}, {"beta", FloatAttr(1.0f)}}});
  CheckClose(Values<float>(y[0]), {1.0f / 6, 2.0f / 14, 3.0f / 10});
  auto t = FailureText({"LRN", {{Tensor(ge::DT_FLOAT, {1, 3, 1}, std::vector<float>{1, 2, 3})}}, {{"size", IntAttr(0)}}});
  CHECK_THAT(t, Catch::Contains("size 0 must be >= 1"));
}

TEST_CASE("oneDNN ops give the same results at 1 and 2 runtime threads", "[ops][norm]") {
  std::vector<float> x(2 * 8 * 9 * 9), w(16 * 8 * 3 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 5) % 11) - 5.0f;  // small integers: exact sums
  const OpCase c{"Conv", {{Tensor(ge::DT_FLOAT, {2, 8, 9, 9}, x)}, {Tensor(ge::DT_FLOAT, {16, 8, 3, 3}, w)}},
                 {{"pads", IntsAttr({1, 1, 1, 1})}}};
  rt::SetThreadCount(1);
  auto one = RunOp(c);
  rt::SetThreadCount(2);
  auto two = RunOp(c);
  rt::SetThreadCount(0);
  CHECK(one[0].shape == Dims{2, 16, 9, 9});
  CHECK(Values<float>(one[0]) == Values<float>(two[0]));
}
