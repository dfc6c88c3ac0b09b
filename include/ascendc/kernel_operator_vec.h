/**
 * @file kernel_operator_vec.h
 * Elementwise vector arithmetic of the Ascend C host library: binary (Add, Sub, Mul, Div, Max,
 * Min; bitwise And, Or on integer types), tensor-scalar (Adds, Muls, Maxs, Mins; ShiftLeft,
 * ShiftRight by a bit count on integer types), unary (Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt,
 * Relu) and Duplicate, each in the count form `Op(dst, src..., count)` (exactly the first count
 * elements) and the repeat form `Op(dst, src..., mask, repeatTime, params)`: per repeat 256
 * bytes in 8 DataBlocks; `mask` is the number of leading elements of a repeat or a 128-bit
 * bitmap (mask[0] low); strides in DataBlocks; masked-off elements are not written. With
 * isSetMask = false the mask set by SetVectorMask is used (in counter mode, SetMaskCount, it is
 * the element count, processed as one run of DataBlocks: repeatTime and repeat strides are
 * ignored). Operands are checked (kernel_operator_tensor.h);
 * half arithmetic is done in float and rounded once.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_VEC_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_VEC_H_

#include <math.h>

#include "kernel_operator_tensor.h"

namespace AscendC {

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dst_blk, uint8_t src0_blk, uint8_t src1_blk, uint8_t dst_rep, uint8_t src0_rep,
                     uint8_t src1_rep)
      : dstBlkStride(dst_blk), src0BlkStride(src0_blk), src1BlkStride(src1_blk), dstRepStride(dst_rep),
        src0RepStride(src0_rep), src1RepStride(src1_rep) {}
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dst_blk, uint16_t src_blk, uint8_t dst_rep, uint8_t src_rep)
      : dstBlkStride(dst_blk), srcBlkStride(src_blk), dstRepStride(dst_rep), srcRepStride(src_rep) {}
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
};

inline void SetMaskCount() { openatc::ascendc::Core().mask_counter = true; }
inline void SetMaskNorm() { openatc::ascendc::Core().mask_counter = false; }
/** Normal mode: the leading `len` elements of each repeat; counter mode: `len` elements in all. */
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t len) {
  openatc::ascendc::Core().mask_hi = 0;
  openatc::ascendc::Core().mask_lo = len;
  openatc::ascendc::Core().mask_counter = openatc::ascendc::Core().mask_counter || mode == MaskMode::COUNTER;
  if (!openatc::ascendc::Core().mask_counter) {
    const uint64_t n = len > 128 ? 128 : len;
    openatc::ascendc::Core().mask_lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
    openatc::ascendc::Core().mask_hi = n <= 64 ? 0 : (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1));
  }
}
/** Normal mode: a bitmap of the repeat's elements. */
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t hi, uint64_t lo) {
  openatc::ascendc::Core().mask_hi = hi;
  openatc::ascendc::Core().mask_lo = lo;
}
inline void ResetMask() {
  openatc::ascendc::Core().mask_hi = ~0ull;
  openatc::ascendc::Core().mask_lo = ~0ull;
}

}  // namespace AscendC

namespace openatc {
namespace ascendc {

/** Arithmetic type of T: float for half and bfloat16_t, T otherwise. */
template <typename T>
struct CalcOf {
  using type = T;
};
template <>
struct CalcOf<bfloat16_t> {
  using type = float;
};
#ifdef OPENATC_HOST_KERNEL_HAS_HALF
template <>
struct CalcOf<half> {
  using type = float;
};
#endif
template <typename T>
using Calc = typename CalcOf<T>::type;

/** The elements a repeat touches: bitmap of `ElemsPerRepeat<T>` bits. */
struct RepeatMask {
  uint64_t lo, hi;
  bool Active(uint32_t i) const { return i < 64 ? ((lo >> i) & 1u) : ((hi >> (i - 64)) & 1u); }
};

template <typename T>
constexpr uint32_t ElemsPerRepeat() {
  return kRepeatBytes / sizeof(T);
}

inline RepeatMask LeadingMask(uint64_t n) {
  if (n > 128) n = 128;
  return RepeatMask{n >= 64 ? ~0ull : ((1ull << n) - 1), n <= 64 ? 0 : (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1))};
}

/** Calls f(repeat, element-in-repeat) for every active element of a repeat-form call; handles
 *  isSetMask = false (the mask register, counter mode). */
template <typename T, bool isSetMask, typename F>
inline void ForEachRepeat(RepeatMask mask, uint32_t repeat_time, F &&f) {
  static_assert(sizeof(T) >= 2, "repeat-form vector calls take 16-, 32- or 64-bit elements");
  constexpr uint32_t per = ElemsPerRepeat<T>();
  if (!isSetMask && Core().mask_counter) {
    // Counter mode: the count's elements as one run of DataBlocks (block strides apply,
    // repeat strides do not), as CANN's own examples' golden data has it.
    for (uint64_t k = 0; k < Core().mask_lo; ++k) f(0u, static_cast<uint32_t>(k));
    return;
  }
  if (!isSetMask) mask = RepeatMask{Core().mask_lo, Core().mask_hi};
  for (uint32_t r = 0; r < repeat_time; ++r) {
    for (uint32_t i = 0; i < per && i < 128; ++i) {
      if (mask.Active(i)) f(r, i);
    }
  }
}

/** Element index of (repeat r, element i) for the given strides in DataBlocks. */
template <typename T>
constexpr uint64_t RepeatIndex(uint32_t r, uint32_t i, uint32_t blk_stride, uint32_t rep_stride) {
  return (static_cast<uint64_t>(r) * rep_stride * (kBlockBytes / sizeof(T))) +
         (i / (kBlockBytes / sizeof(T))) * blk_stride * (kBlockBytes / sizeof(T)) + i % (kBlockBytes / sizeof(T));
}

/** Bounds-checked element of a repeat-form operand. */
template <typename T>
inline T &At(const char *api, const char *role, const AscendC::LocalTensor<T> &t, uint64_t index) {
  if (index >= t.GetSize()) {
    Fail(api, std::string(role) + " element " + Num(index) + " is outside the tensor's " + Num(t.GetSize()) + " " +
                  TypeName<T>() + " elements");
  }
  return t.Raw()[index];
}

inline void CheckCount(const char *api, int64_t count) {
  if (count < 0) Fail(api, "count " + Num(count) + " is negative");
}

template <typename T, typename F>
inline void BinaryCount(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &a,
                        const AscendC::LocalTensor<T> &b, int32_t count, F f) {
  CheckCount(api, count);
  if (count == 0) return;
  CheckOperand(api, "dst", dst, count);
  CheckOperand(api, "src0", a, count);
  CheckOperand(api, "src1", b, count);
  for (int32_t i = 0; i < count; ++i) {
    dst.Raw()[i] = static_cast<T>(f(static_cast<Calc<T>>(a.Raw()[i]), static_cast<Calc<T>>(b.Raw()[i])));
  }
}

template <typename T, bool isSetMask, typename F>
inline void BinaryRepeat(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &a,
                         const AscendC::LocalTensor<T> &b, RepeatMask mask, uint8_t repeat_time,
                         const AscendC::BinaryRepeatParams &p, F f) {
  CheckOperand(api, "dst", dst, 0);
  CheckOperand(api, "src0", a, 0);
  CheckOperand(api, "src1", b, 0);
  ForEachRepeat<T, isSetMask>(mask, repeat_time, [&](uint32_t r, uint32_t i) {
    const T x = At(api, "src0", a, RepeatIndex<T>(r, i, p.src0BlkStride, p.src0RepStride));
    const T y = At(api, "src1", b, RepeatIndex<T>(r, i, p.src1BlkStride, p.src1RepStride));
    At(api, "dst", dst, RepeatIndex<T>(r, i, p.dstBlkStride, p.dstRepStride)) =
        static_cast<T>(f(static_cast<Calc<T>>(x), static_cast<Calc<T>>(y)));
  });
}

template <typename T, typename F>
inline void UnaryCount(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                       int32_t count, F f) {
  CheckCount(api, count);
  if (count == 0) return;
  CheckOperand(api, "dst", dst, count);
  CheckOperand(api, "src", src, count);
  for (int32_t i = 0; i < count; ++i) dst.Raw()[i] = static_cast<T>(f(static_cast<Calc<T>>(src.Raw()[i])));
}

template <typename T, bool isSetMask, typename F>
inline void UnaryRepeat(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                        RepeatMask mask, uint8_t repeat_time, const AscendC::UnaryRepeatParams &p, F f) {
  CheckOperand(api, "dst", dst, 0);
  CheckOperand(api, "src", src, 0);
  ForEachRepeat<T, isSetMask>(mask, repeat_time, [&](uint32_t r, uint32_t i) {
    const T x = At(api, "src", src, RepeatIndex<T>(r, i, p.srcBlkStride, p.srcRepStride));
    At(api, "dst", dst, RepeatIndex<T>(r, i, p.dstBlkStride, p.dstRepStride)) =
        static_cast<T>(f(static_cast<Calc<T>>(x)));
  });
}

}  // namespace ascendc
}  // namespace openatc

/* One binary op: count form, repeat form with a leading-elements mask, with a bitmap mask. */
#define OPENATC_ASCENDC_BINARY(Name, expr)                                                                         \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,             \
                   const int32_t &count) {                                                                         \
    openatc::ascendc::BinaryCount(#Name, dst, src0, src1, count, [](auto a, auto b) { return (expr); });           \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,             \
                   uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &params) {                          \
    openatc::ascendc::BinaryRepeat<T, isSetMask>(#Name, dst, src0, src1, openatc::ascendc::LeadingMask(mask),     \
                                                 repeatTime, params, [](auto a, auto b) { return (expr); });       \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,             \
                   const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &params) {                  \
    openatc::ascendc::BinaryRepeat<T, isSetMask>(#Name, dst, src0, src1,                                          \
                                                 openatc::ascendc::RepeatMask{mask[0], mask[1]}, repeatTime,      \
                                                 params, [](auto a, auto b) { return (expr); });                   \
  }

/* One unary op (f of `a`), count and repeat forms. */
#define OPENATC_ASCENDC_UNARY(Name, expr)                                                                          \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) {                  \
    openatc::ascendc::UnaryCount(#Name, dst, src, count, [](auto a) { return (expr); });                          \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, uint8_t repeatTime,       \
                   const UnaryRepeatParams &params) {                                                              \
    openatc::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, openatc::ascendc::LeadingMask(mask), repeatTime, \
                                                params, [](auto a) { return (expr); });                            \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],                   \
                   uint8_t repeatTime, const UnaryRepeatParams &params) {                                          \
    openatc::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, openatc::ascendc::RepeatMask{mask[0], mask[1]},  \
                                                repeatTime, params, [](auto a) { return (expr); });                \
  }

/* One tensor-scalar op (f of `a` and the scalar `s`), count and repeat forms. */
#define OPENATC_ASCENDC_SCALAR(Name, expr)                                                                         \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                          \
                   const typename openatc::ascendc::NonDeduced<T>::type &scalar, const int32_t &count) {           \
    const openatc::ascendc::Calc<T> s = static_cast<openatc::ascendc::Calc<T>>(scalar);                            \
    openatc::ascendc::UnaryCount(#Name, dst, src, count, [s](auto a) { return (expr); });                         \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                          \
                   const typename openatc::ascendc::NonDeduced<T>::type &scalar, uint64_t mask, uint8_t repeatTime, \
                   const UnaryRepeatParams &params) {                                                              \
    const openatc::ascendc::Calc<T> s = static_cast<openatc::ascendc::Calc<T>>(scalar);                            \
    openatc::ascendc::UnaryRepeat<T, isSetMask>(#Name, dst, src, openatc::ascendc::LeadingMask(mask), repeatTime, \
                                                params, [s](auto a) { return (expr); });                           \
  }

namespace AscendC {

OPENATC_ASCENDC_BINARY(Add, a + b)
OPENATC_ASCENDC_BINARY(Sub, a - b)
OPENATC_ASCENDC_BINARY(Mul, a *b)
OPENATC_ASCENDC_BINARY(Div, a / b)
OPENATC_ASCENDC_BINARY(Max, a > b ? a : b)
OPENATC_ASCENDC_BINARY(Min, a < b ? a : b)
OPENATC_ASCENDC_BINARY(AddRelu, a + b < 0 ? decltype(a + b)(0) : a + b)
OPENATC_ASCENDC_BINARY(SubRelu, a - b < 0 ? decltype(a - b)(0) : a - b)
OPENATC_ASCENDC_BINARY(And, a &b)
OPENATC_ASCENDC_BINARY(Or, a | b)

OPENATC_ASCENDC_SCALAR(Adds, a + s)
OPENATC_ASCENDC_SCALAR(Muls, a *s)
OPENATC_ASCENDC_SCALAR(Maxs, a > s ? a : s)
OPENATC_ASCENDC_SCALAR(Mins, a < s ? a : s)
OPENATC_ASCENDC_SCALAR(LeakyRelu, a < 0 ? a * s : a)
OPENATC_ASCENDC_SCALAR(ShiftLeft, a << s)
OPENATC_ASCENDC_SCALAR(ShiftRight, a >> s)

OPENATC_ASCENDC_UNARY(Exp, ::expf(static_cast<float>(a)))
OPENATC_ASCENDC_UNARY(Ln, ::logf(static_cast<float>(a)))
OPENATC_ASCENDC_UNARY(Abs, a < 0 ? -a : a)
OPENATC_ASCENDC_UNARY(Reciprocal, 1.0f / static_cast<float>(a))
OPENATC_ASCENDC_UNARY(Sqrt, ::sqrtf(static_cast<float>(a)))
OPENATC_ASCENDC_UNARY(Rsqrt, 1.0f / ::sqrtf(static_cast<float>(a)))
OPENATC_ASCENDC_UNARY(Relu, a < 0 ? decltype(a)(0) : a)

/** dst[i] = src[i] * scalar + dst[i] for the first `count` elements (U: the scalar's type). */
template <typename T, typename U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalar, const int32_t &count) {
  openatc::ascendc::CheckCount("Axpy", count);
  if (count == 0) return;
  openatc::ascendc::CheckOperand("Axpy", "dst", dst, count);
  openatc::ascendc::CheckOperand("Axpy", "src", src, count);
  const float s = static_cast<float>(scalar);
  for (int32_t i = 0; i < count; ++i) {
    dst.Raw()[i] = static_cast<T>(static_cast<float>(src.Raw()[i]) * s + static_cast<float>(dst.Raw()[i]));
  }
}

/** Strides of the repeat-form Copy (UB -> UB), in DataBlocks. */
struct CopyRepeatParams {
  CopyRepeatParams() = default;
  CopyRepeatParams(uint16_t dst_stride, uint16_t src_stride, uint16_t dst_repeat, uint16_t src_repeat)
      : dstStride(dst_stride), srcStride(src_stride), dstRepeatSize(dst_repeat), srcRepeatSize(src_repeat) {}
  uint16_t dstStride = 1, srcStride = 1, dstRepeatSize = 8, srcRepeatSize = 8;
};

/** UB -> UB copy through the vector unit, repeat form. */
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, uint8_t repeatTime,
                 const CopyRepeatParams &p) {
  openatc::ascendc::UnaryRepeat<T, isSetMask>(
      "Copy", dst, src, openatc::ascendc::LeadingMask(mask), repeatTime,
      UnaryRepeatParams(p.dstStride, p.srcStride, static_cast<uint8_t>(p.dstRepeatSize),
                        static_cast<uint8_t>(p.srcRepeatSize)),
      [](auto a) { return a; });
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], uint8_t repeatTime,
                 const CopyRepeatParams &p) {
  openatc::ascendc::UnaryRepeat<T, isSetMask>(
      "Copy", dst, src, openatc::ascendc::RepeatMask{mask[0], mask[1]}, repeatTime,
      UnaryRepeatParams(p.dstStride, p.srcStride, static_cast<uint8_t>(p.dstRepeatSize),
                        static_cast<uint8_t>(p.srcRepeatSize)),
      [](auto a) { return a; });
}

/** dst[i] = scalar for the first `count` elements. */
template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const typename openatc::ascendc::NonDeduced<T>::type &scalar,
                      const int32_t &count) {
  openatc::ascendc::CheckCount("Duplicate", count);
  if (count == 0) return;
  openatc::ascendc::CheckOperand("Duplicate", "dst", dst, count);
  for (int32_t i = 0; i < count; ++i) dst.Raw()[i] = scalar;
}

/** Repeat form of Duplicate. */
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const typename openatc::ascendc::NonDeduced<T>::type &scalar,
                      uint64_t mask, uint8_t repeatTime, uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  openatc::ascendc::CheckOperand("Duplicate", "dst", dst, 0);
  openatc::ascendc::ForEachRepeat<T, isSetMask>(
      openatc::ascendc::LeadingMask(mask), repeatTime, [&](uint32_t r, uint32_t i) {
        openatc::ascendc::At("Duplicate", "dst", dst,
                             openatc::ascendc::RepeatIndex<T>(r, i, dstBlockStride, dstRepeatStride)) = scalar;
      });
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_VEC_H_
