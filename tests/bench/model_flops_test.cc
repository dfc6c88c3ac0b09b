// ort_bench's FLOP count from an omrun profile trace and its CPU peak formula, on hand-written
// traces and /proc/cpuinfo texts (values computed by hand in the comments).
#include <catch2/catch.hpp>

#include "model_flops.h"

using openatc::bench::CountProfileFlops;
using openatc::bench::PeakFromCpuinfo;

namespace {
std::string Event(const std::string &name, const std::string &op, const std::string &inputs, const std::string &y,
                  int run = 0) {
  return R"({"name":")" + name + R"(","ph":"X","dur":1,"args":{"op_type":")" + op + R"(","run":)" +
         std::to_string(run) + R"(,"inputs":[)" + inputs + R"(],"outputs":[")" + y + R"("]}})";
}
std::string Trace(const std::string &events) { return R"({"displayTimeUnit":"ms","traceEvents":[)" + events + "]}"; }
}  // namespace

TEST_CASE("bench: Conv, ConvTranspose, MatMul and Gemm FLOPs of run 0") {
  const std::string events =
      // 2 x (1*8*28*28 = 6272) x (1*5*5) = 313600
      Event("c1", "Conv", R"("float32[1, 1, 28, 28] ND","float32[8, 1, 5, 5] ND","float32[8] ND")",
            "float32[1, 8, 28, 28] ND") +
      // depthwise: 2 x (1*16*10*10 = 1600) x (1*3*3) = 28800
      "," + Event("dw", "Conv", R"("float32[1, 16, 10, 10] ND","float32[16, 1, 3, 3] ND")", "float32[1, 16, 10, 10] ND") +
      // 2 x |X| (1*4*5*5 = 100) x (2*3*3) = 3600
      "," + Event("ct", "ConvTranspose", R"("float32[1, 4, 5, 5] ND","float32[4, 2, 3, 3] ND")",
                  "float32[1, 2, 11, 11] ND") +
      // 2 x (2*3*7 = 42) x K=5 = 420
      "," + Event("mm", "MatMul", R"("float32[2, 3, 5] ND","float32[5, 7] ND")", "float32[2, 3, 7] ND") +
      // Gemm, A transposed [K=6, M=4]: K = 24 / 4 = 6; 2 x (4*9 = 36) x 6 = 432
      "," + Event("g", "Gemm", R"("float32[6, 4] ND","float32[6, 9] ND")", "float32[4, 9] ND") +
      // not counted: another op, and a Conv of run 1
      "," + Event("r", "Relu", R"("float32[1, 8, 28, 28] ND")", "float32[1, 8, 28, 28] ND") + "," +
      Event("c1", "Conv", R"("float32[1, 1, 28, 28] ND","float32[8, 1, 5, 5] ND")", "float32[1, 8, 28, 28] ND", 1);
  const auto f = CountProfileFlops(Trace(events));
  CHECK(f.error.empty());
  CHECK(f.nodes == 5);
  CHECK(f.flops == 313600.0 + 28800.0 + 3600.0 + 420.0 + 432.0);
}

TEST_CASE("bench: a trace that cannot be counted says why") {
  CHECK(CountProfileFlops("not json").error == "not a Chrome trace with traceEvents");
  const auto f = CountProfileFlops(Trace(Event("c", "Conv", R"("float32[1, 1, 4, 4] ND")", "float32[1, 1, 4, 4] ND")));
  CHECK(f.error == "node 'c' (Conv): shapes do not fit the op");
}

TEST_CASE("bench: CPU peak = lanes x 2 x clock") {
  // AVX-512 at 2600 MHz: 16 x 2 x 2.6 = 83.2 GFLOP/s per thread; the highest clock line counts.
  auto p = PeakFromCpuinfo("processor\t: 0\ncpu MHz\t\t: 2599.998\nflags\t\t: fpu sse avx2 fma avx512f avx512bw\n"
                           "processor\t: 1\ncpu MHz\t\t: 2600.000\nflags\t\t: fpu sse avx2 fma avx512f\n");
  CHECK(p.lanes == 16);
  CHECK(p.ghz == 2.6);
  CHECK(p.gflops_per_thread == 16 * 2 * 2.6);
  // AVX2 + FMA: 8 lanes; avx512bw alone does not count as avx512f.
  p = PeakFromCpuinfo("cpu MHz : 3000.0\nflags : sse avx avx2 fma avx512bw\n");
  CHECK(p.lanes == 8);
  CHECK(p.gflops_per_thread == 8 * 2 * 3.0);
  // No clock: no peak.
  p = PeakFromCpuinfo("flags : sse sse2\n");
  CHECK(p.lanes == 4);
  CHECK(p.gflops_per_thread == 0);
}
