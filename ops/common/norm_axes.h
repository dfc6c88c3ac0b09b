/**
 * @file ops/common/norm_axes.h
 * Shared by the normalisations over trailing axes (LayerNormalization, RMSNormalization): the
 * axis / Scale / B checks and the broadcast offsets of a parameter over X[axis:].
 */
#ifndef OPENATC_OPS_COMMON_NORM_AXES_H_
#define OPENATC_OPS_COMMON_NORM_AXES_H_

#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops {

/// Resolves attribute `axis_attr` (default -1) against X's dims: `*axis` in [0, rank), `*stats` =
/// X's dims with X[axis:] set to 1; checks stash_type (attribute `stash_type_attr`, only 1) and that
/// Scale (and B when given) broadcast unidirectionally to X[axis:]. "" or the reason.
std::string ResolveTrailingNorm(const gert::ExtendedKernelContext *ctx, size_t axis_attr, size_t stash_type_attr,
                                const Dims &x, const Dims &scale, const Dims *b, int64_t *axis, Dims *stats);

/// Flat offsets into a tensor of dims `p` broadcast over `inner` (row-major walk of `inner`).
std::vector<int64_t> InnerOffsets(const Dims &p, const Dims &inner);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_NORM_AXES_H_
