// Axis and parameter checks of the trailing-axes normalisations (ops/common/norm_axes.h).
#include "common/norm_axes.h"

namespace openatc_ops {

std::string ResolveTrailingNorm(const gert::ExtendedKernelContext *ctx, size_t axis_attr, size_t stash_type_attr,
                                const Dims &x, const Dims &scale, const Dims *b, int64_t *axis, Dims *stats) {
  if (x.empty()) return "X must have rank >= 1";
  if (!NormalizeAxis(AttrInt(ctx, axis_attr, -1), static_cast<int64_t>(x.size()), axis))
    return "axis " + std::to_string(AttrInt(ctx, axis_attr, -1)) + " is out of range for X " + DimsToString(x);
  const int64_t st = AttrInt(ctx, stash_type_attr, 1);
  if (st != 1) return "stash_type " + std::to_string(st) + " is not supported (only 1, float32)";
  const Dims inner(x.begin() + *axis, x.end());
  Dims out;
  if (scale.size() > inner.size() || !BroadcastDims(scale, inner, &out) || out != inner)
    return "Scale " + DimsToString(scale) + " does not broadcast to X[axis:] " + DimsToString(inner);
  if (b && (b->size() > inner.size() || !BroadcastDims(*b, inner, &out) || out != inner))
    return "B " + DimsToString(*b) + " does not broadcast to X[axis:] " + DimsToString(inner);
  *stats = x;
  for (size_t i = static_cast<size_t>(*axis); i < x.size(); ++i) (*stats)[i] = 1;
  return "";
}

std::vector<int64_t> InnerOffsets(const Dims &p, const Dims &inner) {
  const std::vector<int64_t> st = BroadcastStrides(p, inner);
  const int64_t n = NumElements(inner);
  std::vector<int64_t> off(static_cast<size_t>(n), 0);
  std::vector<int64_t> idx(inner.size(), 0);
  int64_t cur = 0;
  for (int64_t i = 0; i < n; ++i) {
    off[i] = cur;
    for (size_t d = inner.size(); d-- > 0;) {
      cur += st[d];
      if (++idx[d] < inner[d]) break;
      cur -= st[d] * inner[d];
      idx[d] = 0;
    }
  }
  return off;
}

}  // namespace openatc_ops
