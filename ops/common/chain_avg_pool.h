/**
 * @file ops/common/chain_avg_pool.h
 * 2-D average pooling in the chain layout (conv_layout.h: nChw8c / nChw16c): one output block of
 * 8 or 16 channels at a time, summing the window's in-range positions lane by lane. oneDNN 2.6's
 * jit average pooling took ~4 ns an output for light_inception_v2's 3x3 stride-1 pools
 * (1x1024x7x7: 0.19 ms, a MaxPool of the same shape 0.03 ms).
 */
#ifndef OPENATC_OPS_COMMON_CHAIN_AVG_POOL_H_
#define OPENATC_OPS_COMMON_CHAIN_AVG_POOL_H_

#include "common/dnnl_window.h"

namespace openatc_ops {

/// True when ChainAvgPool computes window `w` over X `xd` (4-D, no dilation, every window holds
/// at least one position of X, no ceil_mode widening: `ceil_extra` all 0).
bool ChainAvgPoolFits(const Dims &xd, const Window &w, const Dims &ceil_extra);

/// Y (dims `yd`) = the mean of each window of X (dims `xd`), both float32 in the chain layout of
/// block `b` (8 or 16; channels a multiple of it); the divisor is the window size with
/// `include_pad`, else the number of positions inside X (ONNX count_include_pad).
void ChainAvgPool(const float *x, const Dims &xd, const Window &w, const Dims &yd, bool include_pad, int64_t b,
                  float *y);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CHAIN_AVG_POOL_H_
