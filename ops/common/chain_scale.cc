// The per-channel product in the chain layout (chain_scale.h).
#include "common/chain_scale.h"

namespace openatc_ops {
namespace {

template <int64_t b>  // the block: a constant so that the inner loop vectorises
void Scale(const float *x, const float *s, const Dims &sd, const Dims &yd, float *y) {
  const int64_t c = yd[1], hw = yd[2] * yd[3], blocks = c / b;
  for (int64_t n = 0; n < yd[0]; ++n) {
    const float *xn = x + n * c * hw;
    const float *sn = s + (sd[0] == 1 ? 0 : n) * c;
    float *yn = y + n * c * hw;
    for (int64_t cb = 0; cb < blocks; ++cb) {
      const float *sc = sn + cb * b;
      const float *xb = xn + cb * hw * b;
      float *yb = yn + cb * hw * b;
      for (int64_t p = 0; p < hw; ++p)
        for (int64_t k = 0; k < b; ++k) yb[p * b + k] = xb[p * b + k] * sc[k];
    }
  }
}

}  // namespace

std::string ChainScaleDims(const Dims &x, const Dims &s, int64_t block, Dims *y) {
  if ((block != 8 && block != 16) || x.size() != 4 || s.size() != 4 || s[2] != 1 || s[3] != 1 || s[1] != x[1] ||
      x[1] % block != 0 || !(s[0] == x[0] || s[0] == 1))
    return "openatc_chain_layout needs X [N, C, H, W] with C a multiple of " + std::to_string(block) +
           " and a per-channel operand [N or 1, C, 1, 1] (Y has X's shape); got " + DimsToString(x) + " and " +
           DimsToString(s) + ". Compile with LayoutPlanningPass off (--fusion_switch_file) for other shapes";
  *y = x;
  return "";
}

void ChainScale(const float *x, const float *s, const Dims &sd, const Dims &yd, int64_t block, float *y) {
  if (block == 16)
    Scale<16>(x, s, sd, yd, y);
  else
    Scale<8>(x, s, sd, yd, y);
}

}  // namespace openatc_ops
