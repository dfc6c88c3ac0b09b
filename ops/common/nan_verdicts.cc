// What a fused Conv knows of a tensor's values without reading it (ops/common/nan_verdicts.h).
#include "common/nan_verdicts.h"

#include <algorithm>
#include <cmath>

#include "common/float_scan.h"

namespace openatc_ops {
namespace {

struct Verdict {
  int64_t id = 0;
  const float *p = nullptr;
  int64_t n = 0;
  double bound = kNoBound;
};

struct VerdictTable {
  Verdict slots[kNanVerdicts];
  int next = 0;  ///< the slot the next new id takes (the oldest)
};

thread_local VerdictTable table;

}  // namespace

void RecordBound(int64_t id, const float *p, int64_t n, double bound) {
  if (id == 0) return;
  Verdict *slot = nullptr;
  for (Verdict &v : table.slots)
    if (v.id == id) slot = &v;
  if (slot == nullptr) {
    slot = &table.slots[table.next];
    table.next = (table.next + 1) % kNanVerdicts;
  }
  *slot = {id, p, n, bound};
}

double RecalledBound(int64_t id, const float *p, int64_t n) {
  if (id == 0) return kNoBound;
  for (const Verdict &v : table.slots)
    if (v.id == id) return v.p == p && v.n == n ? v.bound : kNoBound;
  return kNoBound;
}

double MaxAbsOrNoBound(const float *p, int64_t n) { return p == nullptr ? kNoBound : MaxAbsOrInf(p, n); }

double ConvBound(double w_row_l1, double b_max, double bx) {
  const double b = 2.0 * (w_row_l1 * bx + b_max);
  return b <= kBoundLimit ? b : kNoBound;  // also kNoBound for NaN (an unbounded input times 0)
}

double PostOpBound(std::string_view alg, float alpha, float beta, double v, double add) {
  if (!(v <= kBoundLimit) || !std::isfinite(alpha) || !std::isfinite(beta)) return kNoBound;  // NaN slope: NaN out
  double out = kNoBound;
  if (alg == "eltwise_relu") {
    out = std::max(1.0, std::fabs(double(alpha))) * v;
  } else if (alg == "eltwise_clip") {  // in [lo, hi]; no further from 0 than v when 0 is inside
    out = std::max(std::fabs(double(alpha)), std::fabs(double(beta)));
    if (alpha <= 0.0f && beta >= 0.0f) out = std::min(out, v);
  } else if (alg == "eltwise_linear") {
    out = std::fabs(double(alpha)) * v + std::fabs(double(beta));
  } else if (alg == "eltwise_logistic" || alg == "eltwise_tanh") {
    out = 1.0;
  } else if (alg == "eltwise_elu") {
    out = std::max(v, std::fabs(double(alpha)));
  } else if (alg == "eltwise_hardswish") {
    out = v;
  } else if (alg == "binary_add") {
    out = v + add;
  }
  // Each is computed in float32 once more: one rounding, far inside the factor 2 of ConvBound.
  return out <= kBoundLimit ? out * (1.0 + 1.0 / 1024) : kNoBound;
}

}  // namespace openatc_ops
