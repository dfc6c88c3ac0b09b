// ResolvePoolWindow and InferPoolShape (ops/common/pool_window.h).
#include "common/pool_window.h"

namespace openatc_ops {

std::string ResolvePoolWindow(const gert::ExtendedKernelContext *ctx, const PoolAttrs &attrs, const Dims &x, Window *w,
                              Dims *y, const std::string &attr_error, Dims *ceil_extra) {
  if (attrs.max_rank == 0 && x.size() < 3)
    return "X must have rank >= 3 (N, C, spatial...); got " + DimsToString(x);
  if (attrs.max_rank != 0 && (x.size() < 3 || x.size() > attrs.max_rank))
    return "X must have rank 3, 4 or 5 (N, C, spatial...); got " + DimsToString(x);
  if (!attr_error.empty()) return attr_error;
  WindowAttrs a;
  a.kernel = AttrInts(ctx, attrs.kernel_shape);
  a.strides = AttrInts(ctx, attrs.strides);
  a.dilations = AttrInts(ctx, attrs.dilations);
  a.pads = AttrInts(ctx, attrs.pads);
  a.auto_pad = AttrStr(ctx, attrs.auto_pad, "NOTSET");
  a.ceil_mode = AttrInt(ctx, attrs.ceil_mode, 0) != 0;
  const std::string err = ResolveWindow(Dims(x.begin() + 2, x.end()), a, w, ceil_extra);
  if (!err.empty()) return err;
  *y = {x[0], x[1]};
  y->insert(y->end(), w->out.begin(), w->out.end());
  return "";
}

ge::graphStatus InferPoolShape(gert::InferShapeContext *ctx, const PoolAttrs &attrs, const std::string &attr_error) {
  const gert::Shape *x = ctx->GetInputShape(0);
  if (x == nullptr) return Fail(ctx, "input X is required");
  Window w;
  Dims y;
  const std::string err = ResolvePoolWindow(ctx, attrs, ToDims(*x), &w, &y, attr_error);
  if (!err.empty()) return Fail(ctx, err);
  *ctx->GetOutputShape(0) = ToShape(y);
  for (size_t i = 1; i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = ToShape(y);
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops
