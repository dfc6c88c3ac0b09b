// ort_bench's measured FMA peak (fma_peak.h): the loop does the arithmetic it counts, and the
// measurement runs on 1 and 2 threads. Nothing is timed against a bound: a rate depends on the
// machine; the ratio of the rates is what ort_bench prints.
#include <catch2/catch.hpp>

#include "fma_peak.h"

using openatc::bench::kFmaChains;
using openatc::bench::MeasureFmaPeak;
using openatc::bench::RunFmaLoop;

TEST_CASE("bench: the FMA loop steps every lane of every accumulator by exactly 1 per iteration") {
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{1} << 24}) {
    const auto r = RunFmaLoop(n);
    INFO(r.isa << " " << n);
    CHECK((r.lanes == 16 || r.lanes == 8 || r.lanes == 4));
    // acc = acc * 1 + 1 from 0: n after n steps, exact in float up to 2^24.
    CHECK(r.lane_min == static_cast<float>(n));
    CHECK(r.lane_max == static_cast<float>(n));
    // 2 flops (multiply and add) per lane, per accumulator, per iteration.
    CHECK(r.flops == 2.0 * r.lanes * kFmaChains * static_cast<double>(n));
  }
}

TEST_CASE("bench: the FMA peak is measured on 1 and 2 threads at once") {
  CHECK(MeasureFmaPeak(1, 0.02) > 0);
  CHECK(MeasureFmaPeak(2, 0.02) > 0);
}
