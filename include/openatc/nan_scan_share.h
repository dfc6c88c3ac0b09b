/**
 * @file openatc/nan_scan_share.h
 * What fused Convs tell each other about a tensor's values, so that a NaN-losing chain reads a
 * tensor for non-finite values only where no earlier node of the run already knows its bound
 * (header-only: atc's NanScanSharePass, atc/compiler/src/passes/nan_scan_share.cc, writes the
 * attributes; the built-in Conv, ops/common/conv_core.cc with ops/common/nan_verdicts.h, reads
 * them).
 *
 * A Conv whose fused post-op chain oneDNN evaluates NaN-losing (PostOpDropsNaN) must know whether
 * its X or its fused addend holds a NaN or an infinity, to restore ONNX's NaN where the chain
 * would lose it; reading the tensor for that costs a pass over it from a far cache level. A
 * tensor is known finite, with every |value| <= B, when
 *   - a Conv read it for that earlier in the run (its max |value|), or
 *   - a Conv computed it from such inputs and finite constant weights: its output is then bounded
 *     by 2 (max over output channels of sum |w| x B_X + max |b|), then by each fused post-op, as
 *     long as that stays below FLT_MAX / 2^24, far from any overflow (ops/common/nan_verdicts.h).
 * The pass gives each tensor a Conv reads or writes an id unique in the model, and each Conv:
 *   kXBoundIdAttr, kAddendBoundIdAttr: the id of its X / its addend (input 3); > 0 when a node
 *     before it in the graph's order, which is the run's order (the executor runs the OM's nodes
 *     in order), records that tensor's bound on every run, so it may recall it; < 0 when it is
 *     the first to learn it: it then reads the tensor (if its chain drops NaN) and records the
 *     bound under the negated id on every run, unbounded when it did not read;
 *   kYBoundIdAttr: the id under which it records its output's bound on every run.
 * Records live on the running thread (a model's nodes run on the calling thread, one after
 * another) and hold the tensor's address and element count, which a recall must match. A record
 * read in the same run describes the tensor as it is: the tensor is alive and unchanged until its
 * last reader ran.
 */
#ifndef OPENATC_NAN_SCAN_SHARE_H_
#define OPENATC_NAN_SCAN_SHARE_H_

#include <string_view>

namespace openatc {

inline constexpr const char *kXBoundIdAttr = "openatc_x_bound_id";
inline constexpr const char *kAddendBoundIdAttr = "openatc_addend_bound_id";
inline constexpr const char *kYBoundIdAttr = "openatc_y_bound_id";

/// True for the fused post-ops oneDNN's JIT kernels evaluate with max/min instructions, which turn
/// NaN into a number where ONNX's Relu / Clip / HardSigmoid keep it: eltwise_relu with alpha 0
/// and eltwise_clip.
inline bool PostOpDropsNaN(std::string_view alg, float alpha) {
  return (alg == "eltwise_relu" && alpha == 0.0f) || alg == "eltwise_clip";
}

}  // namespace openatc

#endif  // OPENATC_NAN_SCAN_SHARE_H_
