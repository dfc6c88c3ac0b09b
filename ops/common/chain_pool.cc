// Max and average pooling in the chain layout (chain_pool.h).
#include "common/chain_pool.h"

#include <algorithm>
#include <vector>

#include "common/dnnl_util.h"
#include "openatc/chain_block.h"

namespace openatc_ops {
namespace {

// A SIMD register's worth of floats (GCC vector extensions; each is used only inside a function
// compiled for an ISA that has registers of its width), and the same as memory at any float
// address.
typedef float V4 __attribute__((vector_size(16)));
typedef float V8 __attribute__((vector_size(32)));
typedef float V16 __attribute__((vector_size(64)));
template <typename V>
struct Mem;
template <>
struct Mem<V4> {
  typedef float type __attribute__((vector_size(16), aligned(4)));
};
template <>
struct Mem<V8> {
  typedef float type __attribute__((vector_size(32), aligned(4)));
};
template <>
struct Mem<V16> {
  typedef float type __attribute__((vector_size(64), aligned(4)));
};

struct Geometry {
  int64_t blocks, ih, iw, oh, ow, kh, kw, sh, sw, ph, pw;
  bool include_pad;
};

// acc = max(acc, v) (acc kept where v is not greater: a NaN in v is taken, as oneDNN's jit max
// does) or acc + v, for the kParts registers of one channel block.
template <typename V, int kParts, bool kMax>
__attribute__((always_inline)) inline void Reduce(V *acc, const typename Mem<V>::type *v) {
  for (int k = 0; k < kParts; ++k) {
    const V in = v[k];
    if constexpr (kMax) {
      acc[k] = acc[k] > in ? acc[k] : in;
    } else {
      acc[k] += in;
    }
  }
}

// Pools every block of kParts registers of V; `row_buf` holds one output row's column reductions
// (iw blocks).
template <typename V, int kParts, bool kMax>
__attribute__((always_inline)) inline void Pool(const float *x, const Geometry &g, float *y, float *row_buf) {
  typedef typename Mem<V>::type M;
  constexpr int64_t b = kParts * int64_t{sizeof(V) / sizeof(float)};
  M *row = reinterpret_cast<M *>(row_buf);
  for (int64_t blk = 0; blk < g.blocks; ++blk) {
    const M *xb = reinterpret_cast<const M *>(x + blk * g.ih * g.iw * b);
    M *yb = reinterpret_cast<M *>(y + blk * g.oh * g.ow * b);
    if (g.kh == 1 && g.kw == 1 && g.ph == 0 && g.pw == 0) {  // one position: a strided copy
      for (int64_t r = 0; r < g.oh; ++r)
        for (int64_t c = 0; c < g.ow; ++c)
          for (int k = 0; k < kParts; ++k) yb[(r * g.ow + c) * kParts + k] = xb[(r * g.sh * g.iw + c * g.sw) * kParts + k];
      continue;
    }
    for (int64_t r = 0; r < g.oh; ++r) {
      const int64_t h0 = r * g.sh - g.ph, hs = std::max<int64_t>(h0, 0), he = std::min(h0 + g.kh, g.ih);
      for (int64_t j = 0; j < g.iw; ++j) {
        V acc[kParts];
        for (int k = 0; k < kParts; ++k) acc[k] = xb[(hs * g.iw + j) * kParts + k];
        for (int64_t i = hs + 1; i < he; ++i) Reduce<V, kParts, kMax>(acc, xb + (i * g.iw + j) * kParts);
        for (int k = 0; k < kParts; ++k) row[j * kParts + k] = acc[k];
      }
      const int64_t rows = he - hs;
      for (int64_t c = 0; c < g.ow; ++c) {
        const int64_t w0 = c * g.sw - g.pw, ws = std::max<int64_t>(w0, 0), we = std::min(w0 + g.kw, g.iw);
        V acc[kParts];
        for (int k = 0; k < kParts; ++k) acc[k] = row[ws * kParts + k];
        for (int64_t j = ws + 1; j < we; ++j) Reduce<V, kParts, kMax>(acc, row + j * kParts);
        M *out = yb + (r * g.ow + c) * kParts;
        if constexpr (kMax) {
          for (int k = 0; k < kParts; ++k) out[k] = acc[k];
        } else {
          const float count = static_cast<float>(g.include_pad ? g.kh * g.kw : rows * (we - ws));
          for (int k = 0; k < kParts; ++k) out[k] = acc[k] / count;
        }
      }
    }
  }
}

// One entry per ISA, each compiled for it; `b` is 8 or 16 (one or two registers).
template <bool kMax>
__attribute__((target("avx512f"))) void PoolAvx512(const float *x, const Geometry &g, int64_t b, float *y, float *row) {
  if (b == 16)
    Pool<V16, 1, kMax>(x, g, y, row);
  else
    Pool<V8, 1, kMax>(x, g, y, row);
}
template <bool kMax>
__attribute__((target("avx2"))) void PoolAvx2(const float *x, const Geometry &g, int64_t b, float *y, float *row) {
  if (b == 16)
    Pool<V8, 2, kMax>(x, g, y, row);
  else
    Pool<V8, 1, kMax>(x, g, y, row);
}
template <bool kMax>
void PoolBaseline(const float *x, const Geometry &g, int64_t b, float *y, float *row) {
  if (b == 16)
    Pool<V4, 4, kMax>(x, g, y, row);
  else
    Pool<V4, 2, kMax>(x, g, y, row);
}

// The entry for this CPU, within oneDNN's ISA limit, like the chain layout's block (so that
// ONEDNN_MAX_CPU_ISA=AVX2 or SSE41 runs, and tests, the narrower entries on an AVX-512 machine).
template <bool kMax>
void PoolOnThisCpu(const float *x, const Geometry &g, int64_t b, float *y, float *row) {
  static const auto entry =
      openatc::CpuRunsChainBlock16() ? PoolAvx512<kMax>
      : __builtin_cpu_supports("avx2") && !openatc::OneDnnMaxCpuIsaStartsWith("SSE") ? PoolAvx2<kMax>
                                                                                      : PoolBaseline<kMax>;
  entry(x, g, b, y, row);
}

}  // namespace

bool ChainPoolFits(const Dims &xd, const Window &w, const Dims &ceil_extra, ChainPoolKind kind) {
  if (xd.size() != 4 || w.kernel.size() != 2) return false;
  for (size_t a = 0; a < 2; ++a)
    if (w.dilations[a] != 1 || w.pads_begin[a] >= w.kernel[a] || w.pads_end[a] >= w.kernel[a] || w.strides[a] < 1 ||
        (kind != ChainPoolKind::kMax && a < ceil_extra.size() && ceil_extra[a] != 0))
      return false;
  return true;
}

std::string ChainPool(const float *x, const Dims &xd, const Window &w, const Dims &yd, ChainPoolKind kind, int64_t b,
                      float *y) {
  if ((b != 8 && b != 16) || xd[1] % b != 0)
    return "openatc_chain_layout needs a channel count that is a multiple of " + std::to_string(b) + "; X is " +
           DimsToString(xd);
  if (NumElements(yd) == 0) return "";
  const Geometry g{xd[0] * (xd[1] / b), xd[2], xd[3], yd[2], yd[3], w.kernel[0], w.kernel[1], w.strides[0],
                   w.strides[1], w.pads_begin[0], w.pads_begin[1], kind == ChainPoolKind::kAverageIncludePad};
  // Over the OpenMP team by channel blocks, unless the tensors are small enough that waking the
  // passive team costs more than a second thread saves (dnnl_util::SerialMemoryBound).
  const size_t bytes = static_cast<size_t>(NumElements(xd) + NumElements(yd)) * sizeof(float);
  const int64_t threads = dnnl_util::SerialMemoryBound(bytes) ? 1 : dnnl_util::ThreadsFor(false);
  // Two parts a thread: a thread that finishes early takes a late peer's second part.
  const int64_t parts = threads > 1 ? std::min(g.blocks, 2 * threads) : 1;
  dnnl_util::RunParts(static_cast<size_t>(parts), [&](size_t k) {
    const int64_t first = g.blocks * static_cast<int64_t>(k) / parts;
    const int64_t end = g.blocks * static_cast<int64_t>(k + 1) / parts;
    Geometry part = g;
    part.blocks = end - first;
    std::vector<float> row(static_cast<size_t>(g.iw * b));
    const float *px = x + first * g.ih * g.iw * b;
    float *py = y + first * g.oh * g.ow * b;
    if (kind == ChainPoolKind::kMax)
      PoolOnThisCpu<true>(px, part, b, py, row.data());
    else
      PoolOnThisCpu<false>(px, part, b, py, row.data());
  });
  return "";
}

}  // namespace openatc_ops
