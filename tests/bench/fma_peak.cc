// The measured FMA peak (see fma_peak.h): one loop per instruction set, chosen at run time.
#include "fma_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace openatc::bench {
namespace {

// Volatile so that the compiler cannot see the multiplier is 1 and drop the multiply.
volatile float g_one = 1.0f;

// One loop per instruction set, the same body at each width: kFmaChains accumulators, each one
// step per pass, independent of each other so that the FMA pipes never wait on a result
// (latency 4 x 2 pipes needs 8 in flight; 12 fit in AVX2's 16 registers beside the operand).
// A macro, not a template: gcc does not pass a function's target attribute on to the templates
// and lambdas it calls, and the intrinsics need it.
#define OPENATC_FMA_LOOP(NAME, TARGET, V, WIDTH, SET1, STEP, STORE)                        \
  TARGET void NAME(int64_t iterations, float *lanes) {                                     \
    const V one = SET1(g_one);                                                              \
    V acc[kFmaChains];                                                                      \
    for (auto &a : acc) a = SET1(0.0f);                                                     \
    for (int64_t i = 0; i < iterations; ++i) {                                              \
      _Pragma("GCC unroll 12") for (int c = 0; c < kFmaChains; ++c) acc[c] = STEP(acc[c], one); \
    }                                                                                       \
    for (int c = 0; c < kFmaChains; ++c) STORE(lanes + c * (WIDTH), acc[c]);                \
  }

#define OPENATC_SSE_MUL_ADD(a, one) _mm_add_ps(_mm_mul_ps(a, one), one)
#define OPENATC_AVX2_FMA(a, one) _mm256_fmadd_ps(a, one, one)
#define OPENATC_AVX512_FMA(a, one) _mm512_fmadd_ps(a, one, one)
OPENATC_FMA_LOOP(LoopAvx512, __attribute__((target("avx512f"))), __m512, 16, _mm512_set1_ps, OPENATC_AVX512_FMA,
                 _mm512_storeu_ps)
OPENATC_FMA_LOOP(LoopAvx2, __attribute__((target("avx2,fma"))), __m256, 8, _mm256_set1_ps, OPENATC_AVX2_FMA,
                 _mm256_storeu_ps)
OPENATC_FMA_LOOP(LoopSse, , __m128, 4, _mm_set1_ps, OPENATC_SSE_MUL_ADD, _mm_storeu_ps)

// The widest loop this CPU runs, chosen once.
struct Isa {
  const char *name;
  int lanes;
  void (*loop)(int64_t, float *);
};
const Isa &ThisCpu() {
  static const Isa isa = __builtin_cpu_supports("avx512f") ? Isa{"avx512f", 16, LoopAvx512}
                         : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                             ? Isa{"avx2+fma", 8, LoopAvx2}
                             : Isa{"sse", 4, LoopSse};
  return isa;
}

}  // namespace

FmaLoop RunFmaLoop(int64_t iterations) {
  const Isa &isa = ThisCpu();
  std::array<float, kFmaChains * 16> lanes{};
  isa.loop(iterations, lanes.data());
  FmaLoop r;
  r.isa = isa.name;
  r.lanes = isa.lanes;
  const auto used = lanes.begin() + kFmaChains * r.lanes;
  r.lane_min = *std::min_element(lanes.begin(), used);
  r.lane_max = *std::max_element(lanes.begin(), used);
  r.flops = 2.0 * r.lanes * kFmaChains * static_cast<double>(iterations);
  return r;
}

double MeasureFmaPeak(int threads, double seconds) {
  using Clock = std::chrono::steady_clock;
  constexpr int64_t kPass = 1 << 16;  // iterations per pass: ~0.1 ms at 3 GHz and 2 pipes
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> flops(static_cast<size_t>(threads), 0.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      const auto end = Clock::now() + std::chrono::duration<double>(seconds);
      double mine = 0;
      while (Clock::now() < end) mine += RunFmaLoop(kPass).flops;
      flops[static_cast<size_t>(t)] = mine;
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const auto start = Clock::now();
  go.store(true);
  for (auto &th : pool) th.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  double total = 0;
  for (double f : flops) total += f;
  return wall > 0 ? total / wall / 1e9 : 0.0;
}

}  // namespace openatc::bench
