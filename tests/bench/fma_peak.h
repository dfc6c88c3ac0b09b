// The fp32 rate this CPU reaches, measured: a loop of nothing but independent fused
// multiply-adds on the widest vectors the CPU has, on 1..N threads at once. ort_bench sets each
// model's achieved GFLOP/s against it. The formula of model_flops.h (lanes x 2 x the clock
// /proc/cpuinfo names) counts one FMA unit per core at the listed clock; a core with two FMA
// pipes, or one boosting above that clock, reaches more, and the formula would then call a
// kernel faster than the CPU.
#ifndef OPENATC_TESTS_BENCH_FMA_PEAK_H_
#define OPENATC_TESTS_BENCH_FMA_PEAK_H_

#include <cstdint>
#include <string>

namespace openatc::bench {

/// One pass of the FMA loop on this thread: kFmaChains independent vector accumulators, each
/// starting at 0 and stepped `iterations` times by acc = acc * 1 + 1, so every lane ends at
/// exactly `iterations` (for iterations <= 2^24) whatever the vector width.
struct FmaLoop {
  std::string isa;       ///< "avx512f" (16 lanes), "avx2+fma" (8) or "sse" (4 lanes, mul then add)
  int lanes = 0;
  double flops = 0;      ///< 2 x lanes x kFmaChains x iterations
  float lane_min = 0;    ///< smallest and largest final lane over all accumulators
  float lane_max = 0;
};
constexpr int kFmaChains = 12;
FmaLoop RunFmaLoop(int64_t iterations);

/// GFLOP/s of `threads` threads each running the loop for about `seconds`, all at once:
/// the flops of all threads over the wall time from the first start to the last finish.
double MeasureFmaPeak(int threads, double seconds);

}  // namespace openatc::bench

#endif  // OPENATC_TESTS_BENCH_FMA_PEAK_H_
