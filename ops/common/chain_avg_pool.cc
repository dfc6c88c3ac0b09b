// Average pooling in the chain layout (chain_avg_pool.h).
#include "common/chain_avg_pool.h"

#include <algorithm>

namespace openatc_ops {
namespace {

template <int64_t b>
void Pool(const float *x, const Dims &xd, const Window &w, const Dims &yd, bool include_pad, float *y) {
  const int64_t blocks = xd[0] * (xd[1] / b), ih = xd[2], iw = xd[3], oh = yd[2], ow = yd[3];
  const int64_t kh = w.kernel[0], kw = w.kernel[1], sh = w.strides[0], sw = w.strides[1];
  const int64_t ph = w.pads_begin[0], pw = w.pads_begin[1];
  for (int64_t blk = 0; blk < blocks; ++blk) {
    const float *xb = x + blk * ih * iw * b;
    float *yb = y + blk * oh * ow * b;
    for (int64_t r = 0; r < oh; ++r) {
      const int64_t h0 = r * sh - ph, hs = std::max<int64_t>(h0, 0), he = std::min(h0 + kh, ih);
      for (int64_t c = 0; c < ow; ++c) {
        const int64_t w0 = c * sw - pw, ws = std::max<int64_t>(w0, 0), we = std::min(w0 + kw, iw);
        float acc[b] = {};
        for (int64_t i = hs; i < he; ++i)
          for (int64_t j = ws; j < we; ++j) {
            const float *p = xb + (i * iw + j) * b;
            for (int64_t k = 0; k < b; ++k) acc[k] += p[k];
          }
        const float count = static_cast<float>(include_pad ? kh * kw : (he - hs) * (we - ws));
        float *q = yb + (r * ow + c) * b;
        for (int64_t k = 0; k < b; ++k) q[k] = acc[k] / count;
      }
    }
  }
}

}  // namespace

bool ChainAvgPoolFits(const Dims &xd, const Window &w, const Dims &ceil_extra) {
  if (xd.size() != 4 || w.kernel.size() != 2) return false;
  for (size_t a = 0; a < 2; ++a)
    if (w.dilations[a] != 1 || w.pads_begin[a] >= w.kernel[a] || w.pads_end[a] >= w.kernel[a] || w.strides[a] < 1 ||
        (a < ceil_extra.size() && ceil_extra[a] != 0))
      return false;
  return true;
}

void ChainAvgPool(const float *x, const Dims &xd, const Window &w, const Dims &yd, bool include_pad, int64_t b,
                  float *y) {
  if (b == 16)
    Pool<16>(x, xd, w, yd, include_pad, y);
  else
    Pool<8>(x, xd, w, yd, include_pad, y);
}

}  // namespace openatc_ops
