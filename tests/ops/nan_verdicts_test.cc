// ops/common/nan_verdicts.h: the running thread's non-finite verdicts, recalled only under the id,
// address and element count they were recorded for, replaced per id, the oldest id pushed out
// past kNanVerdicts, and invisible to other threads.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "common/nan_verdicts.h"

using namespace openatc_ops;

TEST_CASE("NaN verdicts: recalled for the recorded id, bytes and count only", "[ops][nan]") {
  std::vector<float> a(64), b(64);
  CHECK(RecalledNanVerdict(7, a.data(), 64) == -1);  // never recorded
  RecordNanVerdict(7, a.data(), 64, true);
  CHECK(RecalledNanVerdict(7, a.data(), 64) == 1);
  CHECK(RecalledNanVerdict(7, b.data(), 64) == -1);  // other bytes
  CHECK(RecalledNanVerdict(7, a.data(), 32) == -1);  // another count
  CHECK(RecalledNanVerdict(8, a.data(), 64) == -1);  // another id
  CHECK(RecalledNanVerdict(0, a.data(), 64) == -1);  // id 0 is no id
  RecordNanVerdict(7, b.data(), 64, false);          // replaces id 7's verdict
  CHECK(RecalledNanVerdict(7, a.data(), 64) == -1);
  CHECK(RecalledNanVerdict(7, b.data(), 64) == 0);
  RecordNanVerdict(0, a.data(), 64, true);  // not recorded
  CHECK(RecalledNanVerdict(0, a.data(), 64) == -1);


  // Another thread has its own table.
  int there = 2;
  std::thread([&] { there = RecalledNanVerdict(7, b.data(), 64); }).join();
  CHECK(there == -1);
  CHECK(RecalledNanVerdict(7, b.data(), 64) == 0);

  // The oldest id is pushed out once kNanVerdicts others are recorded after it.
  for (int64_t id = 100; id < 100 + kNanVerdicts - 1; ++id) RecordNanVerdict(id, a.data(), 64, false);
  CHECK(RecalledNanVerdict(7, b.data(), 64) == 0);  // the table is full, 7 still in it
  RecordNanVerdict(500, a.data(), 64, true);
  CHECK(RecalledNanVerdict(7, b.data(), 64) == -1);
  CHECK(RecalledNanVerdict(500, a.data(), 64) == 1);
  CHECK(RecalledNanVerdict(100, a.data(), 64) == 0);
}
