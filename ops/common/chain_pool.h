/**
 * @file ops/common/chain_pool.h
 * 2-D max and average pooling in the chain layout (conv_layout.h: nChw8c / nChw16c), one block of
 * 8 or 16 channels at a time as one SIMD vector (AVX-512, AVX2 or the baseline ISA, chosen when
 * the library loads). Each output row first reduces its window's input rows column by column,
 * then each output reduces its window's columns of that row. oneDNN 2.6's jit pooling in this
 * layout took ~4 ns an output for an average and ~1.2 ns for a max (light_inception_v2's 3x3
 * pools, 1 thread, omrun --profile); this takes ~0.2-0.4 ns (measured in the commit that made it).
 */
#ifndef OPENATC_OPS_COMMON_CHAIN_POOL_H_
#define OPENATC_OPS_COMMON_CHAIN_POOL_H_

#include <string>

#include "common/dnnl_window.h"

namespace openatc_ops {

enum class ChainPoolKind { kMax, kAverage, kAverageIncludePad };

/// True when ChainPool computes window `w` over X `xd`: 4-D, no dilation, every window holds at
/// least one position of X (pads under the kernel size). An average also needs no ceil_mode
/// widening (`ceil_extra` all 0: its divisor would count the widening); a max ignores positions
/// outside X, so the widening is allowed.
bool ChainPoolFits(const Dims &xd, const Window &w, const Dims &ceil_extra, ChainPoolKind kind);

/// Y (dims `yd`) = the max or the mean of each window of X (dims `xd`), both float32 in the chain
/// layout of block `b` (8 or 16; channels a multiple of it). A mean divides by the window size
/// for kAverageIncludePad, else by the number of its positions inside X (ONNX count_include_pad).
/// Returns "" when done, else why not (channels not a multiple of `b`). Empty Y: nothing to do.
std::string ChainPool(const float *x, const Dims &xd, const Window &w, const Dims &yd, ChainPoolKind kind, int64_t b,
               float *y);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CHAIN_POOL_H_
