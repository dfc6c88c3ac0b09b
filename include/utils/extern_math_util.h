/**
 * @file utils/extern_math_util.h
 * Overflow-checked integer arithmetic used inline by SDK headers (metadef
 * `utils/extern_math_util.h`: `ge::MulOverflow`, `ge::AddOverflow`). Header-only.
 * Each function returns true when the exact result does not fit in the result type `TRet`
 * (the value of `ret` is then unspecified), false when `ret` holds the exact result.
 */
#ifndef OPENATC_UTILS_EXTERN_MATH_UTIL_H_
#define OPENATC_UTILS_EXTERN_MATH_UTIL_H_

#include <cstdint>
#include <type_traits>

namespace ge {

/// ret = a * b; true on overflow of TRet (any integer types, mixed signedness allowed).
template <typename TLhs, typename TRhs, typename TRet>
inline bool MulOverflow(TLhs a, TRhs b, TRet &ret) {
  static_assert(std::is_integral<TLhs>::value && std::is_integral<TRhs>::value &&
                    std::is_integral<TRet>::value,
                "MulOverflow works on integer types only");
  return __builtin_mul_overflow(a, b, &ret);
}

/// ret = a + b; true on overflow of TRet (any integer types, mixed signedness allowed).
template <typename TLhs, typename TRhs, typename TRet>
inline bool AddOverflow(TLhs a, TRhs b, TRet &ret) {
  static_assert(std::is_integral<TLhs>::value && std::is_integral<TRhs>::value &&
                    std::is_integral<TRet>::value,
                "AddOverflow works on integer types only");
  return __builtin_add_overflow(a, b, &ret);
}

}  // namespace ge

#endif  // OPENATC_UTILS_EXTERN_MATH_UTIL_H_
