/**
 * @file ops/common/pool_window.h
 * What AveragePool, MaxPool and LpPool share: reading their window attributes (kernel_shape,
 * strides, dilations, pads, auto_pad, ceil_mode) from the kernel context, checking X's rank,
 * resolving the window (ops/common/dnnl_window.h) and the output dims (N, C, out spatial...), and
 * their InferShape.
 */
#ifndef OPENATC_OPS_COMMON_POOL_WINDOW_H_
#define OPENATC_OPS_COMMON_POOL_WINDOW_H_

#include <cstddef>
#include <string>

#include "common/dnnl_window.h"
#include "common/op_util.h"

namespace openatc_ops {

/// Where a pool op registers its window attributes (the indices of its REG_OP attributes), and
/// the ranks of X it takes: max_rank 5 for 3, 4 or 5 (the oneDNN pools), 0 for any rank >= 3.
struct PoolAttrs {
  size_t auto_pad, ceil_mode, dilations, kernel_shape, pads, strides;
  size_t max_rank;
};

/// Resolves the window of a pool on X of dims `x` into `w` and Y's dims into `y` (for
/// `ceil_extra` see ResolveWindow). Checks in this order: X's rank, then `attr_error` (a problem
/// with one of the op's own attributes found by the caller, "" for none), then the window.
/// Returns "" on success, else the message.
std::string ResolvePoolWindow(const gert::ExtendedKernelContext *ctx, const PoolAttrs &attrs, const Dims &x, Window *w,
                              Dims *y, const std::string &attr_error = "", Dims *ceil_extra = nullptr);

/// A pool's InferShape: Y (and every further output, MaxPool's Indices) gets the dims
/// ResolvePoolWindow gives for input 0; a failure is reported with Fail.
ge::graphStatus InferPoolShape(gert::InferShapeContext *ctx, const PoolAttrs &attrs,
                               const std::string &attr_error = "");

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_POOL_WINDOW_H_
