/**
 * @file ops/common/plain_pool.h
 * A plain N-D pooling loop in double, for the windowed pools oneDNN is not used for: LpPool, and
 * AveragePool with dilations. It follows ONNX's reference (AveragePool/LpPool-19+): a window's taps
 * inside X are folded; with count_include_pad the divisor also counts taps in the explicit padding,
 * but never those in the extra end padding that ceil_mode adds.
 */
#ifndef OPENATC_OPS_COMMON_PLAIN_POOL_H_
#define OPENATC_OPS_COMMON_PLAIN_POOL_H_

#include <cmath>

#include "common/dnnl_window.h"

namespace openatc_ops {

/// What one window of a plain pool folds.
struct PlainPoolKind {
  double p = 0;                    ///< > 0: Lp pool, (sum |x|^p)^(1/p); 0: average
  bool count_include_pad = false;  ///< average only: divide by the taps in X and its explicit padding
};

namespace plain_pool_detail {
// Advances the multi-index `idx` over `extent` (row-major); false after the last one.
inline bool Next(Dims &idx, const Dims &extent) {
  for (size_t i = idx.size(); i-- > 0;) {
    if (++idx[i] < extent[i]) return true;
    idx[i] = 0;
  }
  return false;
}
}  // namespace plain_pool_detail

/// y (N, C, w.out...) = pool of x (N, C, spatial... = xd) over window `w`; `ceil_extra[i]` is the
/// end padding ResolveWindow added to w.pads_end[i] for ceil_mode (empty: none).
template <typename T>
void PlainPool(const T *x, T *y, const Dims &xd, const Window &w, const Dims &ceil_extra, PlainPoolKind kind) {
  using plain_pool_detail::Next;
  const size_t n = xd.size() - 2;
  const Dims in(xd.begin() + 2, xd.end());
  int64_t plane_in = 1, plane_out = 1;
  for (size_t i = 0; i < n; ++i) plane_in *= in[i], plane_out *= w.out[i];
  for (int64_t plane = 0; plane < xd[0] * xd[1]; ++plane) {
    const T *xp = x + plane * plane_in;
    T *yp = y + plane * plane_out;
    Dims o(n, 0);
    int64_t oi = 0;
    do {
      double sum = 0;
      int64_t inside_count = 0, padded_count = 0;
      Dims k(n, 0);
      do {
        int64_t off = 0;
        bool inside = true, padded = true;
        for (size_t i = 0; i < n; ++i) {
          const int64_t pos = o[i] * w.strides[i] - w.pads_begin[i] + k[i] * w.dilations[i];
          const int64_t pad_end = w.pads_end[i] - (ceil_extra.empty() ? 0 : ceil_extra[i]);
          inside = inside && pos >= 0 && pos < in[i];
          padded = padded && pos < in[i] + pad_end;
          off = off * in[i] + pos;
        }
        padded_count += padded;
        if (!inside) continue;
        ++inside_count;
        const double v = static_cast<double>(xp[off]);
        sum += kind.p > 0 ? std::pow(std::fabs(v), kind.p) : v;
      } while (Next(k, w.kernel));
      double r;
      if (kind.p > 0) r = std::pow(sum, 1.0 / kind.p);
      else r = sum / static_cast<double>(kind.count_include_pad ? padded_count : inside_count);
      yp[oi++] = static_cast<T>(r);
    } while (Next(o, w.out));
  }
}

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_PLAIN_POOL_H_
