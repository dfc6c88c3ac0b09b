// Part-A reductions through the one-op harness with hand-computed values: ReduceSum (axes input,
// noop_with_empty_axes), ReduceMean/Max/Min/Prod/L2 (axes attribute, keepdims), ArgMax/ArgMin
// (select_last_index), Softmax/LogSoftmax (opset-13 single axis vs opset < 13 2-D coercion).
#include <catch2/catch.hpp>
#include <cmath>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
HostTensor F(std::vector<int64_t> shape, const std::vector<float> &v) {
  return Tensor<float>(ge::DT_FLOAT, std::move(shape), v);
}
HostTensor I64(std::vector<int64_t> shape, const std::vector<int64_t> &v) {
  return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v);
}
const HostTensor k23 = F({2, 3}, {1, 2, 3, 4, 5, 6});
}  // namespace

TEST_CASE("ReduceSum takes axes as an input, data or constant", "[ops]") {
  auto r = RunOp({"ReduceSum", {{k23}, {I64({1}, {1})}}});
  CHECK(r[0].shape == std::vector<int64_t>{2, 1});
  CHECK(Values<float>(r[0]) == std::vector<float>{6, 15});
  auto c = RunOp({"ReduceSum", {{k23}, {I64({1}, {-2}), true}}, {{"keepdims", IntAttr(0)}}});
  CHECK(c[0].shape == std::vector<int64_t>{3});
  CHECK(Values<float>(c[0]) == std::vector<float>{5, 7, 9});
  auto all = RunOp({"ReduceSum", {{k23}}, {{"keepdims", IntAttr(0)}}});  // absent axes: all
  CHECK(all[0].shape.empty());
  CHECK(Values<float>(all[0]) == std::vector<float>{21});
  auto noop = RunOp({"ReduceSum", {{k23}, {I64({0}, {}), true}}, {{"noop_with_empty_axes", IntAttr(1)}}});
  CHECK(noop[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<float>(noop[0]) == std::vector<float>{1, 2, 3, 4, 5, 6});
  auto ints = RunOp({"ReduceSum", {{Tensor<int32_t>(ge::DT_INT32, {2, 2}, {1, 2, 3, 4})}, {I64({2}, {0, 1})}}});
  CHECK(ints[0].shape == std::vector<int64_t>{1, 1});
  CHECK(Values<int32_t>(ints[0]) == std::vector<int32_t>{10});
  auto empty = RunOp({"ReduceSum", {{F({2, 0}, {})}, {I64({1}, {1})}}});
  CHECK(empty[0].shape == std::vector<int64_t>{2, 1});
  CHECK(Values<float>(empty[0]) == std::vector<float>{0, 0});
}

// ops/common/reduce.h FoldRun: ReduceSum and ReduceMean over the innermost axes fold each row into
// 8 partial sums. Integer-valued floats keep every sum exact, so the values are the plain loop's.
TEST_CASE("ReduceSum and ReduceMean over the innermost axes equal the plain loop", "[ops]") {
  const int64_t rows = 3, cols = 21;  // 21: two blocks of 8 and a tail of 5
  std::vector<float> v(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5);
  std::vector<float> sums(rows, 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) sums[static_cast<size_t>(r)] += v[static_cast<size_t>(r * cols + c)];
  const HostTensor x = F({rows, 1, cols}, v);
  auto s = RunOp({"ReduceSum", {{x}, {I64({2}, {1, 2})}}, {{"keepdims", IntAttr(0)}}});
  CHECK(s[0].shape == std::vector<int64_t>{rows});
  CHECK(Values<float>(s[0]) == sums);
  auto m = RunOp({"ReduceMean", {{x}}, {{"axes", IntsAttr({-1})}}});
  CHECK(m[0].shape == std::vector<int64_t>{rows, 1, 1});
  std::vector<float> means;
  for (float t : sums) means.push_back(static_cast<float>(static_cast<double>(t) / cols));
  CHECK(Values<float>(m[0]) == means);
  // A kept trailing axis of size 1 still leaves rows contiguous: [2, 3, 1] over axis 1.
  auto k = RunOp({"ReduceSum", {{F({2, 3, 1}, {1, 2, 3, 4, 5, 6})}, {I64({1}, {1})}}});
  CHECK(k[0].shape == std::vector<int64_t>{2, 1, 1});
  CHECK(Values<float>(k[0]) == std::vector<float>{6, 15});
  // Axes 0 and 2 of [2, 3, 2] are not innermost: the strided walk ({1..12}: 1+2+7+8, ...).
  std::vector<float> w(12);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i + 1);
  auto g = RunOp({"ReduceSum", {{F({2, 3, 2}, w)}, {I64({2}, {0, 2})}}, {{"keepdims", IntAttr(0)}}});
  CHECK(Values<float>(g[0]) == std::vector<float>{18, 26, 34});
  auto i64 = RunOp({"ReduceSum", {{Tensor<int64_t>(ge::DT_INT64, {1, 9}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}, {I64({1}, {1})}}});
  CHECK(Values<int64_t>(i64[0]) == std::vector<int64_t>{45});
}

TEST_CASE("ReduceMean/Max/Min/Prod/L2 with the axes attribute and keepdims", "[ops]") {
  auto m = RunOp({"ReduceMean", {{k23}}, {{"axes", IntsAttr({1})}, {"keepdims", IntAttr(0)}}});
  CHECK(m[0].shape == std::vector<int64_t>{2});
  CHECK(Values<float>(m[0]) == std::vector<float>{2, 5});
  auto ma = RunOp({"ReduceMean", {{k23}}});
  CHECK(ma[0].shape == std::vector<int64_t>{1, 1});
  CHECK(Values<float>(ma[0]) == std::vector<float>{3.5f});
  auto mi = RunOp({"ReduceMean", {{Tensor<int64_t>(ge::DT_INT64, {3}, {1, 2, 4})}}});
  CHECK(Values<int64_t>(mi[0]) == std::vector<int64_t>{2});  // 7/3 truncated
  auto mx = RunOp({"ReduceMax", {{Tensor<int32_t>(ge::DT_INT32, {2, 2}, {-5, 3, 7, -1})}}, {{"axes", IntsAttr({0})}}});
  CHECK(mx[0].shape == std::vector<int64_t>{1, 2});
  CHECK(Values<int32_t>(mx[0]) == std::vector<int32_t>{7, 3});
  auto mn = RunOp({"ReduceMin", {{k23}}, {{"axes", IntsAttr({-1})}, {"keepdims", IntAttr(0)}}});
  CHECK(Values<float>(mn[0]) == std::vector<float>{1, 4});
  auto pr = RunOp({"ReduceProd", {{k23}}, {{"axes", IntsAttr({0})}}});
  CHECK(Values<float>(pr[0]) == std::vector<float>{4, 10, 18});
  auto l2 = RunOp({"ReduceL2", {{F({2, 2}, {3, 4, 6, 8})}}, {{"axes", IntsAttr({1})}, {"keepdims", IntAttr(0)}}});
  CHECK(Values<float>(l2[0]) == std::vector<float>{5, 10});
  auto emax = RunOp({"ReduceMax", {{F({0, 2}, {})}}, {{"axes", IntsAttr({0})}}});
  CHECK(emax[0].shape == std::vector<int64_t>{1, 2});
  CHECK(std::isinf(Values<float>(emax[0])[0]));
  auto h = RunOp(
      {"ReduceMean", {{Tensor<_Float16>(ge::DT_FLOAT16, {4}, {_Float16(1), _Float16(2), _Float16(3), _Float16(4)})}}});
  CHECK(static_cast<float>(Values<_Float16>(h[0])[0]) == 2.5f);
}

TEST_CASE("ArgMax and ArgMin pick first or last extreme", "[ops]") {
  const HostTensor x = F({2, 3}, {1, 5, 5, 7, 0, 0});
  auto a = RunOp({"ArgMax", {{x}}, {{"axis", IntAttr(1)}}});
  CHECK(a[0].dtype == ge::DT_INT64);
  CHECK(a[0].shape == std::vector<int64_t>{2, 1});
  CHECK(Values<int64_t>(a[0]) == std::vector<int64_t>{1, 0});
  auto al =
      RunOp({"ArgMax", {{x}}, {{"axis", IntAttr(-1)}, {"select_last_index", IntAttr(1)}, {"keepdims", IntAttr(0)}}});
  CHECK(al[0].shape == std::vector<int64_t>{2});
  CHECK(Values<int64_t>(al[0]) == std::vector<int64_t>{2, 0});
  auto n = RunOp({"ArgMin", {{x}}});  // axis 0
  CHECK(n[0].shape == std::vector<int64_t>{1, 3});
  CHECK(Values<int64_t>(n[0]) == std::vector<int64_t>{0, 1, 1});
  auto nl = RunOp({"ArgMin", {{x}}, {{"axis", IntAttr(1)}, {"select_last_index", IntAttr(1)}}});
  CHECK(Values<int64_t>(nl[0]) == std::vector<int64_t>{0, 2});
  auto ni = RunOp({"ArgMin", {{Tensor<int32_t>(ge::DT_INT32, {3}, {4, -2, 9})}}});
  CHECK(Values<int64_t>(ni[0]) == std::vector<int64_t>{1});
}

TEST_CASE("Softmax and LogSoftmax: single axis (opset 13) and 2-D coercion (opset < 13)", "[ops]") {
  const HostTensor x = F({2, 2}, {3, 3, 5, 5});
  auto s13 = RunOp({"Softmax", {{x}}, {{"axis", IntAttr(0)}, {"onnx_opset", IntAttr(13)}}});
  CHECK(Values<float>(s13[0]) == std::vector<float>{std::exp(-2.0f) / (1 + std::exp(-2.0f)),
                                                    std::exp(-2.0f) / (1 + std::exp(-2.0f)), 1 / (1 + std::exp(-2.0f)),
                                                    1 / (1 + std::exp(-2.0f))});
  const HostTensor eq = F({2, 2}, {7, 7, 7, 7});
  CHECK(Values<float>(RunOp({"Softmax", {{eq}}, {{"axis", IntAttr(0)}, {"onnx_opset", IntAttr(13)}}})[0]) ==
        std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f});
  CHECK(Values<float>(RunOp({"Softmax", {{eq}}, {{"axis", IntAttr(0)}, {"onnx_opset", IntAttr(11)}}})[0]) ==
        std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f});
  CHECK(Values<float>(RunOp({"Softmax", {{F({3}, {1000, 1000, -1000})}}})[0]) == std::vector<float>{0.5f, 0.5f, 0});
  auto ls = Values<float>(RunOp({"LogSoftmax", {{F({2}, {0, 0})}}})[0]);
  CHECK(ls[0] == Approx(-std::log(2.0)));
  CHECK(ls[1] == Approx(-std::log(2.0)));
  auto lsc = Values<float>(
      RunOp({"LogSoftmax", {{F({1, 2, 2}, {1, 1, 1, 1})}}, {{"axis", IntAttr(1)}, {"onnx_opset", IntAttr(1)}}})[0]);
  for (float v : lsc) CHECK(v == Approx(-std::log(4.0)));
  auto d = RunOp({"Softmax", {{Tensor<double>(ge::DT_DOUBLE, {2}, {1, 1})}}});
  CHECK(Values<double>(d[0]) == std::vector<double>{0.5, 0.5});
}
