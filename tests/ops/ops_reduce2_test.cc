// ReduceSumSquare, ReduceL1, ReduceLogSum, ReduceLogSumExp (ONNX -13: axes attribute, keepdims)
// through the one-op harness, with hand-computed values, empty-set reductions (0 for the sums,
// log(0) = -inf for the log forms), integer dtypes and log-sum-exp's overflow safety.
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
const HostTensor k23 = F({2, 3}, {1, -2, 3, -4, 5, -6});
const float kInf = std::numeric_limits<float>::infinity();
}  // namespace

TEST_CASE("ReduceSumSquare and ReduceL1 with axes, keepdims and negative axes", "[ops]") {
  auto ss = RunOp({"ReduceSumSquare", {{k23}}, {{"axes", IntsAttr({1})}}});
  CHECK(ss[0].shape == std::vector<int64_t>{2, 1});
  CHECK(Values<float>(ss[0]) == std::vector<float>{14, 77});  // 1+4+9, 16+25+36
  auto ssa = RunOp({"ReduceSumSquare", {{k23}}, {{"keepdims", IntAttr(0)}}});
  CHECK(ssa[0].shape.empty());
  CHECK(Values<float>(ssa[0]) == std::vector<float>{91});
  auto l1 = RunOp({"ReduceL1", {{k23}}, {{"axes", IntsAttr({-2})}, {"keepdims", IntAttr(0)}}});
  CHECK(l1[0].shape == std::vector<int64_t>{3});
  CHECK(Values<float>(l1[0]) == std::vector<float>{5, 7, 9});
  auto l1i = RunOp({"ReduceL1", {{Tensor<int32_t>(ge::DT_INT32, {2, 2}, {-3, 4, -5, 6})}}, {{"axes", IntsAttr({0})}}});
  CHECK(l1i[0].shape == std::vector<int64_t>{1, 2});
  CHECK(Values<int32_t>(l1i[0]) == std::vector<int32_t>{8, 10});
  auto ssi = RunOp({"ReduceSumSquare", {{Tensor<int64_t>(ge::DT_INT64, {3}, {-3, 4, 5})}}});
  CHECK(Values<int64_t>(ssi[0]) == std::vector<int64_t>{50});
  auto l1u = RunOp({"ReduceL1", {{Tensor<uint8_t>(ge::DT_UINT8, {3}, {200, 50, 5})}}});
  CHECK(Values<uint8_t>(l1u[0]) == std::vector<uint8_t>{255});
}

TEST_CASE("ReduceLogSum and ReduceLogSumExp", "[ops]") {
  auto ls = RunOp({"ReduceLogSum", {{F({2, 2}, {1, 1, 2, 5})}}, {{"axes", IntsAttr({1})}, {"keepdims", IntAttr(0)}}});
  auto lsv = Values<float>(ls[0]);
  CHECK(lsv[0] == Approx(std::log(2.0f)));
  CHECK(lsv[1] == Approx(std::log(7.0f)));
  // log(e^0 + e^0) = ln 2; log(e^ln3 + e^0) = ln 4.
  auto lse = RunOp({"ReduceLogSumExp", {{F({2, 2}, {0, 0, std::log(3.0f), 0})}}, {{"axes", IntsAttr({1})}}});
  CHECK(lse[0].shape == std::vector<int64_t>{2, 1});
  auto lsev = Values<float>(lse[0]);
  CHECK(lsev[0] == Approx(std::log(2.0f)));
  CHECK(lsev[1] == Approx(std::log(4.0f)));
  // Large values do not overflow: log(2 e^1000) = 1000 + ln 2; -inf inputs add nothing; +inf wins.
  auto big = RunOp({"ReduceLogSumExp", {{Tensor<double>(ge::DT_DOUBLE, {2, 2}, {1000, 1000, -kInf, 5})}},
                    {{"axes", IntsAttr({1})}, {"keepdims", IntAttr(0)}}});
  CHECK(Values<double>(big[0])[0] == Approx(1000.0 + std::log(2.0)).epsilon(1e-15));
  CHECK(Values<double>(big[0])[1] == 5.0);
  auto infs = RunOp({"ReduceLogSumExp", {{F({3}, {kInf, 1, kInf})}}});
  CHECK(Values<float>(infs[0])[0] == kInf);
  auto nan = RunOp({"ReduceLogSumExp", {{F({2}, {std::nanf(""), 1})}}});
  CHECK(std::isnan(Values<float>(nan[0])[0]));
  // Integers: log(sum(exp)) truncated: log(e^2 + e^2) = 2.69 -> 2.
  auto li = RunOp({"ReduceLogSumExp", {{Tensor<int32_t>(ge::DT_INT32, {2}, {2, 2})}}});
  CHECK(Values<int32_t>(li[0]) == std::vector<int32_t>{2});
}

TEST_CASE("Empty-set reductions: 0 for the sums, -inf for the log forms", "[ops]") {
  const HostTensor empty = F({2, 0}, {});
  for (const char *op : {"ReduceSumSquare", "ReduceL1"}) {
    auto r = RunOp({op, {{empty}}, {{"axes", IntsAttr({1})}}});
    CHECK(r[0].shape == std::vector<int64_t>{2, 1});
    CHECK(Values<float>(r[0]) == std::vector<float>{0, 0});
  }
  for (const char *op : {"ReduceLogSum", "ReduceLogSumExp"}) {
    auto r = RunOp({op, {{empty}}, {{"axes", IntsAttr({1})}, {"keepdims", IntAttr(0)}}});
    CHECK(r[0].shape == std::vector<int64_t>{2});
    CHECK(Values<float>(r[0]) == std::vector<float>{-kInf, -kInf});
  }
}

TEST_CASE("New reductions refuse bad axes with the shared message", "[ops]") {
  const std::string text =
      RunOpExpectingFailure({"ReduceLogSumExp", {{k23}}, {{"axes", IntsAttr({1, -1})}}});
  INFO(text);
  CHECK(text.find("ReduceLogSumExp 'op': axis -1 is given more than once") != std::string::npos);
  const std::string t2 = RunOpExpectingFailure({"ReduceL1", {{k23}}, {{"axes", IntsAttr({2})}}});
  INFO(t2);
  CHECK(t2.find("ReduceL1 'op': axis 2 is out of range for rank 2 (valid: [-2, 1])") != std::string::npos);
}
