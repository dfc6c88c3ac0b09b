// Arithmetic of one model run and the CPU's peak, for ort_bench's achieved GFLOP/s (issue 13's
// benchmark): floating-point operations of the Conv, ConvTranspose, MatMul and Gemm nodes of one
// run, counted from an `omrun --profile` trace (its per-node input/output shapes), and the peak
// FLOP rate of this CPU as threads x fp32 FMA lanes x 2 x clock.
#ifndef OPENATC_TESTS_BENCH_MODEL_FLOPS_H_
#define OPENATC_TESTS_BENCH_MODEL_FLOPS_H_

#include <string>

namespace openatc::bench {

/// Multiply-adds count 2 operations: Conv 2 x |Y| x (C_in/group x kernel), ConvTranspose
/// 2 x |X| x (C_out/group x kernel), MatMul and Gemm 2 x |Y| x K. Only the events of run 0 of
/// the trace are counted (a fused node is one event, op_type its anchor Conv/Gemm).
struct FlopCount {
  double flops = 0;
  int nodes = 0;      ///< counted nodes
  std::string error;  ///< set when the trace could not be read
};
FlopCount CountProfileFlops(const std::string &trace_json);

/// This CPU's peak fp32 rate for `threads` threads, from /proc/cpuinfo text: the widest FMA
/// (avx512f: 16 lanes, fma/avx2: 8, else 4 lanes of SSE mul+add) x 2 x the highest "cpu MHz".
/// A core with two FMA units peaks twice as high; the formula counts one, as the issue states it.
/// ort_bench prints it beside the measured peak (fma_peak.h), which it sets the models against.
struct CpuPeak {
  int lanes = 0;
  double ghz = 0;
  double gflops_per_thread = 0;  ///< lanes x 2 x ghz; 0 when the text names no clock
};
CpuPeak PeakFromCpuinfo(const std::string &cpuinfo_text);

}  // namespace openatc::bench

#endif  // OPENATC_TESTS_BENCH_MODEL_FLOPS_H_
