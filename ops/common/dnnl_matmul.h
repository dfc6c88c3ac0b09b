/**
 * @file ops/common/dnnl_matmul.h
 * Batched matrix-product plumbing for MatMul and Gemm: ONNX MatMul's shape rules (numpy.matmul:
 * 1-D promotion, batch broadcasting) and a plain reference loop used for the integer dtypes
 * oneDNN's matmul does not take (int32/int64/uint32/uint64; integer overflow wraps).
 */
#ifndef OPENATC_OPS_COMMON_DNNL_MATMUL_H_
#define OPENATC_OPS_COMMON_DNNL_MATMUL_H_

#include <string>
#include <type_traits>

#include "common/op_util.h"

namespace openatc_ops {

/// A MatMul resolved to equal-rank operands: a = [batch_a..., M, K], b = [batch_b..., K, N],
/// dst = [batch..., M, N] (all rank >= 2, batch dims of a/b are equal or 1), and `out` the ONNX
/// output dims (dst without the axes 1-D promotion added).
struct MatMulShape {
  Dims a, b, dst, out;
};

/// Resolves A (rank >= 1) x B (rank >= 1). Unknown (-1) dims propagate. "" or the reason
/// (scalar operand, K mismatch, batch dims that do not broadcast).
std::string ResolveMatMul(const Dims &a, const Dims &b, MatMulShape *s);

/// The accumulator of NaiveMatMul: unsigned for integers (wrap-around), T itself otherwise.
template <typename T, bool = std::is_integral_v<T>>
struct MatMulAcc { using type = T; };
template <typename T>
struct MatMulAcc<T, true> { using type = std::make_unsigned_t<T>; };

/// dst = a x b with batch broadcasting, in T with wrap-around for integers.
template <typename T>
void NaiveMatMul(const MatMulShape &s, const T *a, const T *b, T *dst) {
  using U = typename MatMulAcc<T>::type;
  const size_t r = s.dst.size();
  const int64_t m = s.dst[r - 2], n = s.dst[r - 1], k = s.a[r - 1];
  const Dims batch(s.dst.begin(), s.dst.end() - 2);
  const Dims ba(s.a.begin(), s.a.end() - 2), bb(s.b.begin(), s.b.end() - 2);
  const std::vector<int64_t> sa = BroadcastStrides(ba, batch), sb = BroadcastStrides(bb, batch);
  const int64_t nb = NumElements(batch);
  std::vector<int64_t> idx(batch.size(), 0);
  for (int64_t bi = 0; bi < nb; ++bi) {
    int64_t oa = 0, ob = 0;
    for (size_t d = 0; d < batch.size(); ++d) {
      oa += idx[d] * sa[d];
      ob += idx[d] * sb[d];
    }
    const T *pa = a + oa * m * k;
    const T *pb = b + ob * k * n;
    T *pd = dst + bi * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        U acc = U(0);
        for (int64_t q = 0; q < k; ++q) acc = U(acc + U(U(pa[i * k + q]) * U(pb[q * n + j])));
        pd[i * n + j] = static_cast<T>(acc);
      }
    for (size_t d = batch.size(); d-- > 0;) {
      if (++idx[d] < batch[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_DNNL_MATMUL_H_
