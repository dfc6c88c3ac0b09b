/**
 * @file kernel_operator_reduce_repeat.h
 * Per-repeat reductions of the Ascend C host library, in both spellings the devkit has had:
 * WholeReduceSum / WholeReduceMax / WholeReduceMin(dst, src, mask | mask[2], repeatTime,
 * dstRepStride, srcBlkStride, srcRepStride[, ReduceOrder]) and the same calls as
 * ReduceRepeat<ReduceType::SUM | MAX | MIN>(...).
 *  - Each repeat r reads its active elements (the mask as in the other repeat-form calls,
 *    kernel_operator_vec.h; the source addressed with srcBlkStride / srcRepStride in DataBlocks)
 *    and gives one result.
 *  - SUM: the pairwise tree of ReduceSum over the repeat's 256 bytes, masked-off elements as zeros.
 *  - MAX / MIN: the extreme value and its position inside the repeat (first on ties), the
 *    position written as the bit pattern of T; ReduceOrder says what is written and in which
 *    order (ORDER_VALUE_INDEX, the default: value then index).
 *  - Result r is written at dst[r * dstRepStride * w], w = 2 for a value-index pair, else 1
 *    (dstRepStride counts results). A repeat whose mask selects nothing writes nothing.
 * With isSetMask = false the mask register is used; its counter mode (SetMaskCount) is refused.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_REPEAT_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_REPEAT_H_

#include "kernel_operator_reduce.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM, MAX, MIN };
enum class ReduceOrder { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

}  // namespace AscendC

namespace openatc {
namespace ascendc {

struct RepeatStrides {
  int32_t dst_rep, src_blk, src_rep;
};

/** The index `i` of a repeat as the bit pattern of T. */
template <typename T>
inline T IndexBits(uint32_t i) {
  using Bits = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
  static_assert(sizeof(Bits) == sizeof(T), "value-index pairs need 16- or 32-bit elements");
  const Bits bits = static_cast<Bits>(i);
  T out;
  memcpy(static_cast<void *>(&out), &bits, sizeof(T));
  return out;
}

template <typename T>
inline void WriteExtreme(const char *api, const AscendC::LocalTensor<T> &dst, uint64_t at, T value, uint32_t index,
                         AscendC::ReduceOrder order) {
  switch (order) {
    case AscendC::ReduceOrder::ORDER_VALUE_INDEX:
      At(api, "dst", dst, at) = value;
      At(api, "dst", dst, at + 1) = IndexBits<T>(index);
      break;
    case AscendC::ReduceOrder::ORDER_INDEX_VALUE:
      At(api, "dst", dst, at) = IndexBits<T>(index);
      At(api, "dst", dst, at + 1) = value;
      break;
    case AscendC::ReduceOrder::ORDER_ONLY_VALUE:
      At(api, "dst", dst, at) = value;
      break;
    default:
      At(api, "dst", dst, at) = IndexBits<T>(index);
      break;
  }
}

/** One reduction per repeat (see the file comment). */
template <typename T, bool isSetMask>
inline void ReduceEachRepeat(const char *api, AscendC::ReduceType type, const AscendC::LocalTensor<T> &dst,
                             const AscendC::LocalTensor<T> &src, RepeatMask mask, int32_t repeat_time,
                             RepeatStrides s, AscendC::ReduceOrder order) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "per-repeat reductions take 16- or 32-bit elements");
  CheckCount(api, repeat_time);
  if (s.dst_rep < 0 || s.src_blk < 0 || s.src_rep < 0) Fail(api, "a stride is negative");
  if (!isSetMask && Core().mask_counter) {
    Fail(api, "the counter mask mode (SetMaskCount) is not supported here on the host; use SetMaskNorm");
  }
  if (!isSetMask) mask = RepeatMask{Core().mask_lo, Core().mask_hi};
  CheckOperand(api, "dst", dst, 0);
  CheckOperand(api, "src", src, 0);
  constexpr uint32_t per = ElemsPerRepeat<T>();
  const bool pair = order == AscendC::ReduceOrder::ORDER_VALUE_INDEX || order == AscendC::ReduceOrder::ORDER_INDEX_VALUE;
  const uint64_t width = type != AscendC::ReduceType::SUM && pair ? 2 : 1;
  for (int32_t r = 0; r < repeat_time; ++r) {
    T values[per];
    bool any = false;
    uint32_t best = per;
    for (uint32_t i = 0; i < per; ++i) {
      values[i] = T(0);
      if (!mask.Active(i)) continue;
      any = true;
      values[i] = At(api, "src", src, RepeatIndex<T>(static_cast<uint32_t>(r), i, s.src_blk, s.src_rep));
      const Calc<T> v = static_cast<Calc<T>>(values[i]);
      if (best == per || (type == AscendC::ReduceType::MAX ? v > static_cast<Calc<T>>(values[best])
                                                            : v < static_cast<Calc<T>>(values[best]))) {
        best = i;
      }
    }
    if (!any) continue;
    const uint64_t at = static_cast<uint64_t>(r) * static_cast<uint64_t>(s.dst_rep) * width;
    if (type == AscendC::ReduceType::SUM) {
      At(api, "dst", dst, at) = RepeatTreeSum(values, per);
    } else {
      WriteExtreme(api, dst, at, values[best], best, order);
    }
  }
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

/** ReduceRepeat<type>: one SUM / MAX / MIN result per repeat; leading-count mask. */
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(type != ReduceType::NONE, "ReduceRepeat needs ReduceType::SUM, MAX or MIN");
  if (mask < 0) openatc::ascendc::Fail("ReduceRepeat", "mask " + openatc::ascendc::Num(mask) + " is negative");
  openatc::ascendc::ReduceEachRepeat<T, isSetMask>("ReduceRepeat", type, dst, src,
                                                   openatc::ascendc::LeadingMask(static_cast<uint64_t>(mask)),
                                                   repeatTime, {dstRepStride, srcBlkStride, srcRepStride}, order);
}

/** ReduceRepeat<type> with a 128-bit element bitmap per repeat (mask[0] the low 64 elements). */
template <ReduceType type, typename T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(type != ReduceType::NONE, "ReduceRepeat needs ReduceType::SUM, MAX or MIN");
  openatc::ascendc::ReduceEachRepeat<T, isSetMask>("ReduceRepeat", type, dst, src,
                                                   openatc::ascendc::RepeatMask{mask[0], mask[1]}, repeatTime,
                                                   {dstRepStride, srcBlkStride, srcRepStride}, order);
}

/* The older names. M: int32_t (leading count) or uint64_t[2] (bitmap). */
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const M &mask, const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {
  ReduceRepeat<ReduceType::SUM, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const M &mask, const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  ReduceRepeat<ReduceType::MAX, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                              order);
}
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const M &mask, const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  ReduceRepeat<ReduceType::MIN, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                              order);
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_REPEAT_H_
