// ops/common/nan_verdicts.h: the running thread's value bounds, recalled only under the id, address
// and element count they were recorded for, replaced per id, the oldest id pushed out past
// kNanVerdicts, invisible to other threads; the max |value| scan; the bounds of a Conv's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "common/nan_verdicts.h"

using namespace openatc_ops;

TEST_CASE("NaN verdicts: bounds recalled for the recorded id, bytes and count only", "[ops][nan]") {
  std::vector<float> a(64), b(64);
  CHECK(RecalledBound(7, a.data(), 64) == kNoBound);  // never recorded
  RecordBound(7, a.data(), 64, 3.5);
  CHECK(RecalledBound(7, a.data(), 64) == 3.5);
  CHECK(RecalledBound(7, b.data(), 64) == kNoBound);  // other bytes
  CHECK(RecalledBound(7, a.data(), 32) == kNoBound);  // another count
  CHECK(RecalledBound(8, a.data(), 64) == kNoBound);  // another id
  CHECK(RecalledBound(0, a.data(), 64) == kNoBound);  // id 0 is no id
  RecordBound(7, b.data(), 64, 2.0);                  // replaces id 7's bound
  CHECK(RecalledBound(7, a.data(), 64) == kNoBound);
  CHECK(RecalledBound(7, b.data(), 64) == 2.0);
  RecordBound(0, a.data(), 64, 1.0);  // not recorded
  CHECK(RecalledBound(0, a.data(), 64) == kNoBound);

  // Another thread has its own table.
  double there = 0.0;
  std::thread([&] { there = RecalledBound(7, b.data(), 64); }).join();
  CHECK(there == kNoBound);
  CHECK(RecalledBound(7, b.data(), 64) == 2.0);

  // The oldest id is pushed out once kNanVerdicts others are recorded after it.
  for (int64_t id = 100; id < 100 + kNanVerdicts - 1; ++id) RecordBound(id, a.data(), 64, 1.0);
  CHECK(RecalledBound(7, b.data(), 64) == 2.0);  // the table is full, 7 still in it
  RecordBound(500, a.data(), 64, kNoBound);
  CHECK(RecalledBound(7, b.data(), 64) == kNoBound);
  CHECK(RecalledBound(500, a.data(), 64) == kNoBound);
  CHECK(RecalledBound(100, a.data(), 64) == 1.0);
}

TEST_CASE("NaN verdicts: max |value| or no bound", "[ops][nan]") {
  std::vector<float> v(3000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i % 7) - 3) * 0.5f;
  CHECK(MaxAbsOrNoBound(v.data(), 3000) == 1.5);
  v[2500] = -1e30f;
  CHECK(MaxAbsOrNoBound(v.data(), 3000) == double(1e30f));
  CHECK(MaxAbsOrNoBound(v.data(), 2500) == 1.5);
  v[2999] = -std::numeric_limits<float>::infinity();
  CHECK(MaxAbsOrNoBound(v.data(), 3000) == kNoBound);
  v[2999] = std::numeric_limits<float>::max();
  CHECK(MaxAbsOrNoBound(v.data(), 3000) == double(std::numeric_limits<float>::max()));
  v[5] = std::nanf("");
  CHECK(MaxAbsOrNoBound(v.data(), 3000) == kNoBound);
  CHECK(MaxAbsOrNoBound(v.data(), 0) == 0.0);
  CHECK(MaxAbsOrNoBound(nullptr, 0) == kNoBound);
}

TEST_CASE("NaN verdicts: a Conv's output bound, post-op by post-op, and its limit", "[ops][nan]") {
  CHECK(ConvBound(3.0, 0.5, 2.0) == 2 * (3.0 * 2.0 + 0.5));
  CHECK(ConvBound(3.0, 0.5, kNoBound) == kNoBound);
  CHECK(ConvBound(0.0, 0.5, kNoBound) == kNoBound);  // 0 * inf: no bound
  CHECK(ConvBound(1.0, 0.0, kBoundLimit / 2) == kBoundLimit);
  CHECK(ConvBound(1.0, 0.0, kBoundLimit) == kNoBound);
  const double slack = 1.0 + 1.0 / 1024;
  CHECK(PostOpBound("eltwise_relu", 0.0f, 0.0f, 4.0, 0.0) == 4.0 * slack);
  CHECK(PostOpBound("eltwise_relu", -3.0f, 0.0f, 4.0, 0.0) == 12.0 * slack);
  CHECK(PostOpBound("eltwise_clip", 0.0f, 6.0f, 100.0, 0.0) == 6.0 * slack);
  CHECK(PostOpBound("eltwise_clip", 0.0f, 6.0f, 2.0, 0.0) == 2.0 * slack);
  CHECK(PostOpBound("eltwise_clip", 1.0f, 6.0f, 0.5, 0.0) == 6.0 * slack);  // 0 outside [1, 6]: max(|lo|, |hi|)
  CHECK(PostOpBound("eltwise_linear", -2.0f, 1.0f, 4.0, 0.0) == 9.0 * slack);
  CHECK(PostOpBound("eltwise_logistic", 0.0f, 0.0f, 1e20, 0.0) == 1.0 * slack);
  CHECK(PostOpBound("eltwise_elu", 5.0f, 0.0f, 2.0, 0.0) == 5.0 * slack);
  CHECK(PostOpBound("binary_add", 0.0f, 0.0f, 2.0, 3.0) == 5.0 * slack);
  CHECK(PostOpBound("eltwise_swish", 0.0f, 0.0f, 2.0, 0.0) == kNoBound);  // not one it knows
  CHECK(PostOpBound("eltwise_relu", 0.0f, 0.0f, kNoBound, 0.0) == kNoBound);
  CHECK(PostOpBound("eltwise_relu", std::nanf(""), 0.0f, 2.0, 0.0) == kNoBound);  // a NaN slope gives NaN
  CHECK(PostOpBound("eltwise_linear", 1.0f, std::numeric_limits<float>::infinity(), 2.0, 0.0) == kNoBound);
  CHECK(PostOpBound("eltwise_logistic", 0.0f, 0.0f, kNoBound, 0.0) == kNoBound);
}
