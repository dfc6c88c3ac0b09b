/**
 * @file ops/common/index_util.h
 * Helpers of the index-driven built-in ops (GatherElements, ScatterElements, Scatter, GatherND,
 * ScatterND, Compress, OneHot, TopK): index normalisation with a message naming the offending
 * index, the scatter reductions, and a dispatch on element size for dtype-agnostic copies.
 *
 * ONNX facts (docs/Operators.md, ONNX 1.12): index values of Gather*, Scatter* may be negative
 * and then count from the end of the indexed axis; a value outside [-n, n-1] is an error (here
 * a clear op failure, never an out-of-bounds access). ScatterElements-16 and ScatterND-16 accept
 * reduction "none" (overwrite), "add" and "mul".
 */
#ifndef OPENATC_OPS_COMMON_INDEX_UTIL_H_
#define OPENATC_OPS_COMMON_INDEX_UTIL_H_

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/movement.h"

namespace openatc_ops {

/// Maps index `v` of an axis of size `n` into [0, n-1] (negative values count from the end).
/// On a value outside [-n, n-1] it fails (Fail on ctx) with a message naming the value, its flat
/// position `pos` in the `what` input, the axis and the range, and returns false.
bool NormalizeIndex(const gert::ExtendedKernelContext *ctx, const char *what, int64_t v, int64_t n, size_t pos,
                    int64_t axis, int64_t *out);

/// Reads an int32/int64 index input (`what` names it in the message); fails when it is absent or
/// of another dtype.
bool ReadIndexInput(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                    std::vector<int64_t> *out);

/// ScatterElements-16 / ScatterND-16 `reduction`.
enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

/// Parses a `reduction` attribute value ("none", "add", "mul", and since opset 18 "max", "min");
/// fails naming the value otherwise.
bool ParseReduction(const gert::ExtendedKernelContext *ctx, const std::string &s, Reduction *r);

/// dst = src (kNone), dst + src (kAdd), dst * src (kMul), the larger (kMax) or smaller (kMin)
/// of the two, NaN when either is NaN (numpy.maximum/minimum). Integer arithmetic wraps.
template <typename T>
inline bool IsNanValue(T v) {
  if constexpr (std::is_integral<T>::value) return false;
  else return !(v == v);
}
template <typename T>
inline void Reduce(T &dst, T src, Reduction r) {
  const bool nan = IsNanValue(dst) || IsNanValue(src);
  switch (r) {
    case Reduction::kNone: dst = src; break;
    case Reduction::kAdd: dst = static_cast<T>(dst + src); break;
    case Reduction::kMul: dst = static_cast<T>(dst * src); break;
    case Reduction::kMax: dst = nan ? (IsNanValue(dst) ? dst : src) : (src > dst ? src : dst); break;
    case Reduction::kMin: dst = nan ? (IsNanValue(dst) ? dst : src) : (src < dst ? src : dst); break;
  }
}
template <>
inline void Reduce<bool>(bool &dst, bool src, Reduction r) {
  switch (r) {
    case Reduction::kNone: dst = src; break;
    case Reduction::kAdd: dst = dst || src; break;
    case Reduction::kMul:
    case Reduction::kMin: dst = dst && src; break;
    case Reduction::kMax: dst = dst || src; break;
  }
}

/// Calls f(U{}) with U the unsigned integer type of `bytes` (1, 2, 4, 8) bytes, for element
/// copies that never interpret values; false for other sizes.
template <typename F>
bool WithElemType(size_t bytes, F &&f) {
  switch (bytes) {
    case 1: f(uint8_t{}); return true;
    case 2: f(uint16_t{}); return true;
    case 4: f(uint32_t{}); return true;
    case 8: f(uint64_t{}); return true;
    default: return false;
  }
}

/// Reads every element of a numeric tensor (float/half/double, int8..uint64, bool) as double;
/// false for other dtypes or a missing tensor.
bool ReadAsDouble(const gert::Tensor *t, std::vector<double> *out);

/// Product of d[begin..end) (1 when empty).
int64_t Prod(const Dims &d, size_t begin, size_t end);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_INDEX_UTIL_H_
