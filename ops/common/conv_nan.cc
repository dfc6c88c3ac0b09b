// NaN restoration for fused Conv post-op chains (ops/common/conv_nan.h).
#include "common/conv_nan.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/conv_layout.h"
#include "common/dnnl_util.h"
#include "common/nan_verdicts.h"
#include "openatc/nan_scan_share.h"

namespace openatc_ops {
namespace {

// Element offset of logical index `idx` (dims `d`) in a chain-layout buffer of block `b`.
int64_t ChainOffset(const Dims &d, const Dims &idx, int64_t b) {
  const int64_t hw = d[2] * d[3];
  return ((idx[0] * (d[1] / b) + idx[1] / b) * hw + idx[2] * d[3] + idx[3]) * b + idx[1] % b;
}

int64_t DotStrides(const Dims &s, const Dims &idx) {
  int64_t o = 0;
  for (size_t k = 0; k < idx.size(); ++k) o += idx[k] * s[k];
  return o;
}

}  // namespace

double MaxAbsOnTeam(const float *p, int64_t n) {
  if (p == nullptr || n <= 2 * kNanScanSlice) return MaxAbsOrNoBound(p, n);  // one thread: RunParts runs all here
  const size_t slices = static_cast<size_t>((n + kNanScanSlice - 1) / kNanScanSlice);
  std::vector<double> top(slices, 0.0);
  std::atomic<bool> unbounded{false};
  dnnl_util::RunParts(slices, [&](size_t k) {
    if (unbounded.load(std::memory_order_relaxed)) return;
    const int64_t start = static_cast<int64_t>(slices - 1 - k) * kNanScanSlice;  // last slice first
    top[k] = MaxAbsOrNoBound(p + start, std::min(kNanScanSlice, n - start));
    if (top[k] == kNoBound) unbounded.store(true, std::memory_order_relaxed);
  });
  if (unbounded.load(std::memory_order_relaxed)) return kNoBound;
  return *std::max_element(top.begin(), top.end());
}

bool ChainDropsNaN(const std::vector<dnnl_util::PostOpSpec> &ops) {
  for (const auto &op : ops)
    if (openatc::PostOpDropsNaN(op.alg, op.alpha)) return true;
  return false;
}

void RestoreNaN(const ConvProblem &p, const float *raw, const float *addend, float *fused) {
  const int64_t n = NumElements(p.y);
  const Dims dense = DenseStrides(p.y);
  Dims idx(p.y.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t yo = p.layout.y_blocked ? ChainOffset(p.y, idx, p.layout.block) : DotStrides(p.y_strides.empty() ? dense : p.y_strides, idx);
    const int64_t ao = p.layout.add_blocked ? ChainOffset(p.y, idx, p.layout.block) : i;
    float v = raw[yo];
    for (const auto &op : p.post_ops) v = dnnl_util::ApplyPostOp(op, v, addend ? addend[ao] : 0.0f);
    if (std::isnan(v) || std::isnan(fused[yo])) fused[yo] = v;  // oneDNN's Relu gives NaN for -inf
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < p.y[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace openatc_ops
