/**
 * @file ops/common/block_shuffle.h
 * The index permutation shared by DepthToSpace-13 and SpaceToDepth-13 (ONNX Operators.md): both
 * are a reshape of the NCHW input into 6 dims, a transpose, and a reshape back, which reduces to
 * one StridedCopy (common/movement.h).
 */
#ifndef OPENATC_OPS_COMMON_BLOCK_SHUFFLE_H_
#define OPENATC_OPS_COMMON_BLOCK_SHUFFLE_H_

#include <array>

#include "common/movement.h"

namespace openatc_ops {

/// Copies `x` viewed with the 6 dims `view` (row-major) and transposed by `perm` into a new
/// output 0 of shape `out` (4-D; same element count).
ge::graphStatus BlockShuffle(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, const std::array<int64_t, 6> &view,
                             const std::array<int, 6> &perm, const Dims &out);

/// The `blocksize` attribute at `index`, which must be in [1, 2^20] (fails otherwise).
bool BlockSize(const gert::ExtendedKernelContext *ctx, size_t index, int64_t *b);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_BLOCK_SHUFFLE_H_
