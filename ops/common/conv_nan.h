/**
 * @file ops/common/conv_nan.h
 * ONNX NaN semantics for a Conv with fused post-ops (ops/common/dnnl_post_ops.h). oneDNN's JIT
 * eltwise_relu with slope 0 and eltwise_clip compute max/min instructions that turn NaN into a
 * number, where the ONNX Relu / Clip / HardSigmoid the fusion pass folded in keep NaN. When such a
 * chain meets non-finite data, RunConvolution (conv_core.cc) also computes the plain convolution
 * and RestoreNaN replays the chain on it with ONNX semantics, writing NaN where ONNX gives NaN
 * and the chain's value where oneDNN gave NaN but ONNX does not (its eltwise_relu turns -inf
 * into NaN, ONNX's Relu into 0). Other elements keep oneDNN's fused values. Whether X and the
 * fused addend are finite is read from a bound an earlier node of the run recorded
 * (openatc/nan_scan_share.h), else found by one scan of each per run (MaxAbsOnTeam); the constant
 * W and B are scanned once (ConvEntry::wb_scan, conv_core.h).
 */
#ifndef OPENATC_OPS_COMMON_CONV_NAN_H_
#define OPENATC_OPS_COMMON_CONV_NAN_H_

#include "common/conv_core.h"
#include "common/math_util.h"

namespace openatc_ops {

/// True when the chain holds a post-op that oneDNN evaluates NaN-losing (openatc::PostOpDropsNaN).
bool ChainDropsNaN(const std::vector<dnnl_util::PostOpSpec> &ops);

/// MaxAbsOrNoBound (nan_verdicts.h) over the `n` values at `p`, split into slices of kNanScanSlice
/// values that the ops' OpenMP team scans, the last slice first (dnnl_util::RunParts; a thread
/// that finds a non-finite value sets a flag the others read before their next slice).
/// RunConvEntry scans before the convolution runs, so the start of X, read last, is still in cache
/// when the convolution reads it first: light_resnet50 (omrun medians of 8 alternated rounds,
/// 2-core Intel VM) 58.0 -> 57.5 ms at 1 thread, 31.0 -> 30.6 at 2, against scanning forward after
/// the convolution. Up to 2 slices, with one thread configured, or inside a parallel region: the
/// calling thread alone. Measured (light_resnet50, 2 threads, omrun medians of 8 alternated
/// rounds): scans on the calling thread 23.6 ms, on the team 22.9, none 21.5; at 1 thread a scan
/// costs about nothing (the Conv then finds X in cache).
double MaxAbsOnTeam(const float *p, int64_t n);
inline constexpr int64_t kNanScanSlice = int64_t{32} << 10;


/// `raw`: the convolution without post-ops, in Y's layout (p.layout.y_blocked / p.y_strides);
/// `addend`: the binary_add operand (p.layout.add_blocked) or null; `fused`: the fused result,
/// same layout as `raw`. Sets fused elements to NaN where the chain on `raw` gives NaN, and to the
/// chain's value where they are NaN and the chain's is not.
void RestoreNaN(const ConvProblem &p, const float *raw, const float *addend, float *fused);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CONV_NAN_H_
