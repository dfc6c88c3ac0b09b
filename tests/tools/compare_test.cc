// Compare: allclose rule, max abs/rel errors, NaN and inf handling, exact integers, mismatches.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;

namespace {
template <typename T>
HostTensor Of(ge::DataType dt, std::vector<T> values) {
  HostTensor t;
  t.dtype = dt;
  t.shape = {static_cast<int64_t>(values.size())};
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}
}  // namespace

TEST_CASE("tools_compare: floats within tolerance") {
  Comparison c = Compare(Of<float>(ge::DT_FLOAT, {1.0f, 2.0f, 4.0f}), Of<float>(ge::DT_FLOAT, {1.0f, 2.5f, 4.0f}),
                         0.0, 0.25);
  CHECK(c.ok);  // |2 - 2.5| = 0.5 <= 0.25 * 2.5
  CHECK(c.max_abs == 0.5);
  CHECK(c.max_rel == 0.2);
  CHECK(c.rel_count == 3);
  CHECK(c.max_ratio == 0.8);  // 0.5 / (0 + 0.25 * 2.5)
  CHECK(c.tolerant);
  CHECK(c.first_bad_index == SIZE_MAX);
}

TEST_CASE("tools_compare: failures report the first bad index") {
  Comparison c = Compare(Of<float>(ge::DT_FLOAT, {1.0f, 2.0f, 5.0f, 0.0f}),
                         Of<float>(ge::DT_FLOAT, {1.0f, 2.5f, 4.0f, 0.0f}), 0.1, 0.0);
  CHECK_FALSE(c.ok);
  CHECK(c.first_bad_index == 1);
  CHECK(c.max_abs == 1.0);
  CHECK(c.max_rel == 0.25);
  CHECK(c.rel_count == 3);  // the expected 0 is not above atol
  CHECK(c.max_ratio == 10.0);  // 1 / 0.1, element 2
  CHECK(c.first_bad_actual == 2.0);
  CHECK(c.first_bad_expected == 2.5);
  // atol alone: |a - b| <= atol.
  CHECK(Compare(Of<double>(ge::DT_DOUBLE, {1.0}), Of<double>(ge::DT_DOUBLE, {1.0 + 1e-8}), 1e-7, 0.0).ok);
  CHECK_FALSE(Compare(Of<double>(ge::DT_DOUBLE, {1.0}), Of<double>(ge::DT_DOUBLE, {1.0 + 1e-6}), 1e-7, 0.0).ok);
  // Expected zero, actual not: no relative error is taken there (|expected| <= atol), so none is
  // infinite; the ratio to the tolerance says how close the element came to failing.
  Comparison z = Compare(Of<float>(ge::DT_FLOAT, {0.5f}), Of<float>(ge::DT_FLOAT, {0.0f}), 1.0, 0.0);
  CHECK(z.ok);
  CHECK(z.rel_count == 0);
  CHECK(z.max_rel == 0.0);
  CHECK(z.max_ratio == 0.5);
  // Zero tolerance: any difference is an infinite ratio and a failure; equality is 0.
  Comparison zt = Compare(Of<float>(ge::DT_FLOAT, {1.0f, 0.0f}), Of<float>(ge::DT_FLOAT, {1.0f, 1e-30f}), 0.0, 0.0);
  CHECK_FALSE(zt.ok);
  CHECK(zt.max_ratio == std::numeric_limits<double>::infinity());
  CHECK(Compare(Of<float>(ge::DT_FLOAT, {1.0f}), Of<float>(ge::DT_FLOAT, {1.0f}), 0.0, 0.0).max_ratio == 0.0);
}

TEST_CASE("tools_compare: ok is exactly max_ratio <= 1, also at the boundary") {
  // |a - b| = 0.25 = atol + rtol * |b| with atol 0.125, rtol 0.0625, b 2 (all exact in binary).
  Comparison edge = Compare(Of<double>(ge::DT_DOUBLE, {2.25}), Of<double>(ge::DT_DOUBLE, {2.0}), 0.125, 0.0625);
  CHECK(edge.ok);
  CHECK(edge.max_ratio == 1.0);
  Comparison over = Compare(Of<double>(ge::DT_DOUBLE, {2.2500001}), Of<double>(ge::DT_DOUBLE, {2.0}), 0.125, 0.0625);
  CHECK_FALSE(over.ok);
  CHECK(over.max_ratio > 1.0);
  // 0.1 + 0.2 style rounding: whatever the division gives, a passing element never shows > 1.
  for (double b : {0.1, 0.3, 0.7, 1.1, 3.3}) {
    const double tol = 1e-9 + 1e-3 * b;
    Comparison c = Compare(Of<double>(ge::DT_DOUBLE, {b + tol}), Of<double>(ge::DT_DOUBLE, {b}), 1e-9, 1e-3);
    CHECK(c.ok == (c.max_ratio <= 1.0));
  }
}

TEST_CASE("tools_compare: NaN equals NaN, inf equals only itself") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  CHECK(Compare(Of<float>(ge::DT_FLOAT, {nan, inf, -inf}), Of<float>(ge::DT_FLOAT, {nan, inf, -inf}), 0, 0).ok);
  Comparison a = Compare(Of<float>(ge::DT_FLOAT, {1.0f, nan}), Of<float>(ge::DT_FLOAT, {1.0f, 1.0f}), 1, 1);
  CHECK_FALSE(a.ok);
  CHECK(a.first_bad_index == 1);
  CHECK(a.max_abs == std::numeric_limits<double>::infinity());
  CHECK_FALSE(Compare(Of<float>(ge::DT_FLOAT, {inf}), Of<float>(ge::DT_FLOAT, {-inf}), 1e30, 1e30).ok);
  CHECK_FALSE(Compare(Of<float>(ge::DT_FLOAT, {inf}), Of<float>(ge::DT_FLOAT, {1e30f}), 1e30, 1e30).ok);
  // float16 goes through the exact conversion: 0x3C00 = 1.0, 0x3C01 = 1 + 2^-10.
  Comparison h = Compare(Of<uint16_t>(ge::DT_FLOAT16, {0x3C01}), Of<uint16_t>(ge::DT_FLOAT16, {0x3C00}), 0, 1e-3);
  CHECK(h.ok);
  CHECK(h.max_abs == std::ldexp(1.0, -10));
}

TEST_CASE("tools_compare: integers and bools compare exactly") {
  Comparison i = Compare(Of<int32_t>(ge::DT_INT32, {1, 2, 3}), Of<int32_t>(ge::DT_INT32, {1, 2, 4}), 10.0, 10.0);
  CHECK_FALSE(i.ok);
  CHECK(i.first_bad_index == 2);
  CHECK(i.max_abs == 1.0);
  CHECK_FALSE(i.tolerant);
  CHECK(i.max_ratio == std::numeric_limits<double>::infinity());
  CHECK(i.rel_count == 0);
  // Two int64 values equal as doubles but different as integers.
  CHECK_FALSE(Compare(Of<int64_t>(ge::DT_INT64, {9007199254740993LL}), Of<int64_t>(ge::DT_INT64, {9007199254740992LL}),
                      1, 1)
                  .ok);
  CHECK(Compare(Of<uint8_t>(ge::DT_BOOL, {1, 0}), Of<uint8_t>(ge::DT_BOOL, {1, 0}), 0, 0).ok);
  CHECK_FALSE(Compare(Of<uint8_t>(ge::DT_BOOL, {1, 0}), Of<uint8_t>(ge::DT_BOOL, {1, 1}), 1, 1).ok);
}

TEST_CASE("tools_compare: dtype or shape mismatch is an output mismatch") {
  openatc::Error e = tools_test::Capture(
      [] { Compare(Of<float>(ge::DT_FLOAT, {1.0f, 2.0f}), Of<double>(ge::DT_DOUBLE, {1.0, 2.0}), 0, 0); });
  CHECK(e.category() == openatc::ErrorCategory::kMismatch);
  CHECK(openatc::OmrunExitCode(e.category()) == 1);
  CHECK(std::string(e.what()) ==
        "OA3007: the output is float32 [2] but the expected output is float64 [2]. Give an expected output of the "
        "same dtype and shape.");
  openatc::Error s = tools_test::Capture(
      [] { Compare(Of<float>(ge::DT_FLOAT, {1.0f, 2.0f}), Of<float>(ge::DT_FLOAT, {1.0f}), 0, 0); });
  CHECK(s.code() == "OA3007");
}
