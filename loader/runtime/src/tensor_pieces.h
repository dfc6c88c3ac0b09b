// Byte-level tensor pieces the native ops need (native_ops.cc): slicing one index out of an
// axis, and joining tensors along an axis (concatenation, or stacking along a new axis).
#ifndef OPENATC_RUNTIME_TENSOR_PIECES_H_
#define OPENATC_RUNTIME_TENSOR_PIECES_H_

#include <cstdint>
#include <vector>

#include "openatc/common/host_tensor.h"

namespace openatc::runtime {

/// `axis` in [-rank, rank) (or [-rank-1, rank] when `extra` is 1) as a non-negative axis;
/// throws OA2210 naming `what` otherwise.
size_t NormalizeAxis(int64_t axis, size_t rank, int extra, const char *what);

/// Elements [begin, begin + len) of `t` along `axis`; with `keep_dim` false the axis is removed
/// (len must be 1).
HostTensor SliceAxis(const HostTensor &t, size_t axis, int64_t begin, int64_t len, bool keep_dim);

/// Concatenates `parts` along `axis` (all of one dtype and rank, equal outside the axis), or, with
/// `new_axis`, stacks them along a new axis inserted at `axis`. Throws OA2210 when they do not fit.
HostTensor JoinAxis(const std::vector<HostTensor> &parts, size_t axis, bool new_axis);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_TENSOR_PIECES_H_
