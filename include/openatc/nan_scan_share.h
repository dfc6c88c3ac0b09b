/**
 * @file openatc/nan_scan_share.h
 * Sharing a fused Conv's non-finite check between the Convs that read the same tensor
 * (header-only: atc's NanScanSharePass, atc/compiler/src/passes/nan_scan_share.cc, writes the
 * attributes; the built-in Conv, ops/common/conv_nan.h, reads them).
 *
 * A Conv whose fused post-op chain oneDNN evaluates NaN-losing (PostOpDropsNaN) checks its input
 * X and its fused addend for non-finite values on every run, to restore ONNX's NaN where the
 * chain would lose it. In a residual network the same tensor is checked more than once: a
 * block's input is X of the block's first Conv (and of its projection Conv) and, later, the
 * addend of the block's last Conv, by then read back from a far cache level.
 *
 * The pass gives the first Conv (in the graph's order, which is the run's order: the executor
 * runs the OM's nodes in order) that checks a tensor as its X the attribute kNanScanIdAttr, an id
 * unique in the model; a later Conv that checks the same tensor as X or as addend gets that id in
 * kXScanFromAttr or kAddendScanFromAttr. At run time the first Conv records its verdict for X's
 * bytes on the running thread (the executor runs a model's nodes on the calling thread, one after
 * another), and the later one takes the verdict recorded under that id for the same address and
 * element count, else checks itself. The tensor cannot change in between: it is alive and read
 * by the later Conv. A Conv that never checks (its chain keeps NaN) never records, so an id it
 * was given is never found.
 */
#ifndef OPENATC_NAN_SCAN_SHARE_H_
#define OPENATC_NAN_SCAN_SHARE_H_

#include <string_view>

namespace openatc {

/// On the first Conv that checks a tensor as X: the id its verdict is recorded under (non-zero).
inline constexpr const char *kNanScanIdAttr = "openatc_nan_scan_id";
/// On a later Conv: the id of the verdict on its X, or on its fused addend (input 3).
inline constexpr const char *kXScanFromAttr = "openatc_x_scan_from";
inline constexpr const char *kAddendScanFromAttr = "openatc_addend_scan_from";

/// True for the fused post-ops oneDNN's JIT kernels evaluate with max/min instructions, which turn
/// NaN into a number where ONNX's Relu / Clip / HardSigmoid keep it: eltwise_relu with alpha 0
/// and eltwise_clip.
inline bool PostOpDropsNaN(std::string_view alg, float alpha) {
  return (alg == "eltwise_relu" && alpha == 0.0f) || alg == "eltwise_clip";
}

}  // namespace openatc

#endif  // OPENATC_NAN_SCAN_SHARE_H_
