/**
 * @file ops/common/math_util.h
 * Numeric helpers shared by the elementwise math, comparison and reduction built-ins (ops part A):
 * range-checked float -> integer casts, an integer map, a binary broadcast whose inputs have
 * different element types (Pow), and `case` label families covering every numeric dtype.
 */
#ifndef OPENATC_OPS_COMMON_MATH_UTIL_H_
#define OPENATC_OPS_COMMON_MATH_UTIL_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "common/elementwise.h"
#include "common/float_scan.h"

namespace openatc_ops {

/// float/half/double -> the float type computations run in (half computes in float).
template <typename T>
using ComputeType = typename std::conditional<std::is_same<T, half>::value, float, T>::type;

/// Converts a double to T. For integer T: truncates toward zero, NaN -> 0, out-of-range values
/// saturate (a C++ cast would be undefined behaviour there). For float T: a plain conversion.
template <typename T>
T FromDouble(double v) {
  if constexpr (std::is_integral<T>::value) {
    if (std::isnan(v)) return T(0);
    if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

/// y[i] = f(x[i]) for an integer dtype; GRAPH_FAILED for any other dtype.
template <typename F>
ge::graphStatus MapInt(const gert::Tensor &x, gert::Tensor &y, F f) {
  const int64_t n = x.GetShapeSize();
  switch (x.GetDataType()) {
    OPENATC_OPS_INT_CASES(const T *p = x.GetData<T>(); T *q = y.GetData<T>();
                          for (int64_t i = 0; i < n; ++i) q[i] = static_cast<T>(f(p[i])))
    default:
      return ge::GRAPH_FAILED;
  }
  return ge::GRAPH_SUCCESS;
}

/// Wrapping (two's complement) integer arithmetic, free of signed-overflow undefined behaviour.
template <typename T>
T WrapAdd(T x, T y) {
  using U = typename std::make_unsigned<T>::type;
  return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(y)));
}
template <typename T>
T WrapSub(T x, T y) {
  using U = typename std::make_unsigned<T>::type;
  return static_cast<T>(static_cast<U>(static_cast<U>(x) - static_cast<U>(y)));
}
template <typename T>
T WrapMul(T x, T y) {
  using U = typename std::make_unsigned<T>::type;
  // Promote to at least unsigned int so that uint16*uint16 cannot overflow a signed int.
  using P = typename std::conditional<(sizeof(U) < sizeof(unsigned)), unsigned, U>::type;
  return static_cast<T>(static_cast<U>(static_cast<P>(static_cast<U>(x)) * static_cast<P>(static_cast<U>(y))));
}

/// c[i] = cmp(a[bcast], b[bcast]) as bool (one byte 0/1) for every numeric dtype of a (b has the
/// same dtype); bool inputs are read as bytes normalised to 0/1. GRAPH_FAILED for other dtypes.
template <typename Cmp>
ge::graphStatus CompareBroadcast(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c, Cmp cmp) {
  switch (a.GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, uint8_t>(a, b, c, [&](T x, T y) -> uint8_t {
      return cmp(static_cast<ComputeType<T>>(x), static_cast<ComputeType<T>>(y)) ? 1 : 0;
    }))
    OPENATC_OPS_INT_CASES(
        BinaryBroadcastMixed<T, T, uint8_t>(a, b, c, [&](T x, T y) -> uint8_t { return cmp(x, y) ? 1 : 0; }))
    case ge::DT_BOOL:
      BinaryBroadcastMixed<uint8_t, uint8_t, uint8_t>(a, b, c, [&](uint8_t x, uint8_t y) -> uint8_t {
        return cmp(static_cast<int>(x != 0), static_cast<int>(y != 0)) ? 1 : 0;
      });
      break;
    default:
      return ge::GRAPH_FAILED;
  }
  return ge::GRAPH_SUCCESS;
}

/// True when some element of integer tensor `t` is zero (false for non-integer dtypes).
bool HasIntZero(const gert::Tensor &t);

/// True when any of the `n` float32 values is NaN or +-inf (null `p`: false). Vectorised.
inline bool AnyNonFinite(const float *p, int64_t n) { return p != nullptr && std::isinf(MaxAbsOrInf(p, n)); }

}  // namespace openatc_ops

/// Every numeric dtype: floats then integers (see op_util.h).
#define OPENATC_OPS_NUMBER_CASES(...) OPENATC_OPS_FLOAT_CASES(__VA_ARGS__) OPENATC_OPS_INT_CASES(__VA_ARGS__)

#endif  // OPENATC_OPS_COMMON_MATH_UTIL_H_
