/**
 * @file ops/common/chain_scale.h
 * A per-channel product in the chain layout (conv_layout.h: nChw8c or nChw16c, channels a multiple
 * of the block):
 * Y = X * S with X [N, C, H, W] in the chain layout and S [N|1, C, 1, 1], whose bytes are the
 * same in both layouts. This is the Mul of a squeeze-excitation block (a GlobalAveragePool's
 * channel weights applied to its input), which atc's LayoutPlanningPass keeps in the chain
 * (attributes openatc_chain_layout = 1 and openatc_chain_block on the Mul;
 * atc/compiler/src/passes/layout_plan.cc).
 */
#ifndef OPENATC_OPS_COMMON_CHAIN_SCALE_H_
#define OPENATC_OPS_COMMON_CHAIN_SCALE_H_

#include <string>

#include "common/op_util.h"

namespace openatc_ops {

/// "" when X (dims `x`, chain block `block`) and S (dims `s`) are such a pair (either operand order is the caller's
/// business), with `*y` the output dims (X's: S never has more batches, so atc's layout plan may
/// take Y's shape for X's); else why not.
std::string ChainScaleDims(const Dims &x, const Dims &s, int64_t block, Dims *y);

/// y = x * s over the dims ChainScaleDims gave (`x` in the chain layout of block 8 or 16, `s`
/// [N|1, C, 1, 1]).
void ChainScale(const float *x, const float *s, const Dims &sd, const Dims &yd, int64_t block, float *y);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CHAIN_SCALE_H_
