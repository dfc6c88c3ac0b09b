/**
 * @file kernel_operator_reduce.h
 * Reductions, comparison and selection of the Ascend C host library (count forms).
 *  - ReduceSum(dst, src, work, count): dst[0] = the sum, in the chip's order: within each
 *    256-byte repeat a pairwise tree (neighbours first, the repeat padded with zeros), then the
 *    repeat results added in order; every addition rounded to T.
 *  - ReduceSum(dst, src, work, mask | mask[2], repeatTime, srcRepStride), the repeat form: each
 *    repeat's active elements (masked-off ones as zeros; blocks contiguous, repeats srcRepStride
 *    DataBlocks apart) summed by the same tree, then the repeat results by a pairwise tree too
 *    (neighbours first, padded with zeros); dst[0] = the total. Not in counter mask mode.
 *  - ReduceMax / ReduceMin(dst, src, work, count, calIndex): dst[0] = the value; with calIndex,
 *    dst[1] holds the index (first on ties) as the bit pattern of T.
 *  - Compare / Compares(dst, src0, src1 | scalar, CMPMODE, count): bit i of dst's bytes is the
 *    result for element i; count * sizeof(T) must be a multiple of 256 bytes.
 *  - Select(dst, mask, src0, src1 | scalar, SELMODE, count): mask bit 1 takes src0, 0 takes src1;
 *    with VSEL_CMPMASK_SPR the mask's first repeat of bits (256 bytes of T) serves every repeat.
 * The work tensor must be a UB tensor; its size is not checked.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_H_

#include <vector>

#include "kernel_operator_vec.h"

namespace openatc {
namespace ascendc {

/** Sum of one repeat's `n` elements (n <= per) by the pairwise tree, each step rounded to T. */
template <typename T>
inline T RepeatTreeSum(const T *x, uint32_t n) {
  constexpr uint32_t per = ElemsPerRepeat<T>();
  T buf[per];
  for (uint32_t i = 0; i < per; ++i) buf[i] = i < n ? x[i] : T(0);
  for (uint32_t width = per / 2; width >= 1; width /= 2) {
    for (uint32_t k = 0; k < width; ++k) {
      buf[k] = static_cast<T>(static_cast<Calc<T>>(buf[2 * k]) + static_cast<Calc<T>>(buf[2 * k + 1]));
    }
  }
  return buf[0];
}

/** Pairwise tree over `sums` (neighbours first, padded with zeros), each step rounded to T. */
template <typename T>
inline T TreeOfSums(std::vector<T> sums) {
  if (sums.empty()) return T(0);
  while (sums.size() > 1) {
    std::vector<T> next((sums.size() + 1) / 2);
    for (size_t k = 0; k < next.size(); ++k) {
      const Calc<T> b = 2 * k + 1 < sums.size() ? static_cast<Calc<T>>(sums[2 * k + 1]) : Calc<T>(0);
      next[k] = static_cast<T>(static_cast<Calc<T>>(sums[2 * k]) + b);
    }
    sums.swap(next);
  }
  return sums[0];
}

/** The repeat form of ReduceSum (see the file comment). */
template <typename T, bool isSetMask>
inline void ReduceSumRepeat(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                            const AscendC::LocalTensor<T> &work, RepeatMask mask, int32_t repeat_time,
                            int32_t src_rep) {
  const char *api = "ReduceSum";
  CheckCount(api, repeat_time);
  if (src_rep < 0) Fail(api, "srcRepStride " + Num(src_rep) + " is negative");
  if (!isSetMask && Core().mask_counter) {
    Fail(api, "the counter mask mode (SetMaskCount) is not supported by the repeat form on the host; use SetMaskNorm");
  }
  if (!isSetMask) mask = RepeatMask{Core().mask_lo, Core().mask_hi};
  CheckOperand(api, "dst", dst, 1);
  CheckOperand(api, "src", src, 0);
  CheckOperand(api, "sharedTmpBuffer", work, 0);
  if (repeat_time == 0) return;
  constexpr uint32_t per = ElemsPerRepeat<T>();
  std::vector<T> sums;
  for (int32_t r = 0; r < repeat_time; ++r) {
    T values[per];
    for (uint32_t i = 0; i < per; ++i) {
      values[i] = mask.Active(i) ? At(api, "src", src, RepeatIndex<T>(static_cast<uint32_t>(r), i, 1, src_rep)) : T(0);
    }
    sums.push_back(RepeatTreeSum(values, per));
  }
  dst.Raw()[0] = TreeOfSums(sums);
}

template <typename T>
inline void CheckReduce(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                        const AscendC::LocalTensor<T> &work, int32_t count, uint32_t dst_need) {
  CheckCount(api, count);
  CheckOperand(api, "dst", dst, dst_need);
  CheckOperand(api, "src", src, static_cast<uint64_t>(count));
  CheckOperand(api, "sharedTmpBuffer", work, 0);
}

/** Index of the first maximum (is_max) or minimum of x[0..n). */
template <typename T>
inline uint32_t ExtremeIndex(const T *x, uint32_t n, bool is_max) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < n; ++i) {
    const Calc<T> v = static_cast<Calc<T>>(x[i]), b = static_cast<Calc<T>>(x[best]);
    if (is_max ? v > b : v < b) best = i;
  }
  return best;
}

template <typename T>
inline void ReduceExtreme(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                          const AscendC::LocalTensor<T> &work, int32_t count, bool cal_index, bool is_max) {
  CheckReduce(api, dst, src, work, count, cal_index ? 2 : 1);
  if (count == 0) return;
  const uint32_t best = ExtremeIndex(src.Raw(), static_cast<uint32_t>(count), is_max);
  dst.Raw()[0] = src.Raw()[best];
  if (cal_index) {
    using Bits = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
    const Bits index = static_cast<Bits>(best);
    memcpy(static_cast<void *>(dst.Raw() + 1), &index, sizeof(T) < sizeof(Bits) ? sizeof(T) : sizeof(Bits));
  }
}

template <typename T>
inline bool CompareValues(AscendC::CMPMODE mode, T a, T b) {
  const Calc<T> x = static_cast<Calc<T>>(a), y = static_cast<Calc<T>>(b);
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return x < y;
    case AscendC::CMPMODE::GT:
      return x > y;
    case AscendC::CMPMODE::EQ:
      return x == y;
    case AscendC::CMPMODE::LE:
      return x <= y;
    case AscendC::CMPMODE::GE:
      return x >= y;
    default:
      return x != y;
  }
}

/** Checks Compare's operands and clears the result bits; returns dst's bytes. */
template <typename T, typename U>
inline uint8_t *PrepareCompare(const char *api, const AscendC::LocalTensor<U> &dst, const AscendC::LocalTensor<T> &src0,
                               uint32_t count) {
  if ((static_cast<uint64_t>(count) * sizeof(T)) % kRepeatBytes != 0) {
    Fail(api, "count " + Num(count) + " " + TypeName<T>() + " elements = " + Num(count * sizeof(T)) +
                  " bytes is not a multiple of 256 bytes");
  }
  CheckOperand(api, "dst", dst, (count / 8 + sizeof(U) - 1) / sizeof(U));
  CheckOperand(api, "src0", src0, count);
  uint8_t *bits = reinterpret_cast<uint8_t *>(dst.Raw());
  memset(bits, 0, count / 8);
  return bits;
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count) {
  openatc::ascendc::CheckReduce("ReduceSum", dst, src, sharedTmpBuffer, count, 1);
  if (count == 0) return;
  constexpr uint32_t per = openatc::ascendc::ElemsPerRepeat<T>();
  T total = T(0);
  for (uint32_t at = 0; at < static_cast<uint32_t>(count); at += per) {
    const uint32_t n = static_cast<uint32_t>(count) - at < per ? static_cast<uint32_t>(count) - at : per;
    const T part = openatc::ascendc::RepeatTreeSum(src.Raw() + at, n);
    total = static_cast<T>(static_cast<openatc::ascendc::Calc<T>>(total) + static_cast<openatc::ascendc::Calc<T>>(part));
  }
  dst.Raw()[0] = total;
}

/** Repeat form, the leading `mask` elements of each repeat. */
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const uint64_t mask, const int32_t repeatTime, const int32_t srcRepStride) {
  openatc::ascendc::ReduceSumRepeat<T, isSetMask>(dst, src, sharedTmpBuffer, openatc::ascendc::LeadingMask(mask),
                                                  repeatTime, srcRepStride);
}

/** Repeat form, a 128-bit element bitmap per repeat (mask[0] the low 64 elements). */
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride) {
  openatc::ascendc::ReduceSumRepeat<T, isSetMask>(dst, src, sharedTmpBuffer,
                                                  openatc::ascendc::RepeatMask{mask[0], mask[1]}, repeatTime,
                                                  srcRepStride);
}

template <typename T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = false) {
  openatc::ascendc::ReduceExtreme("ReduceMax", dst, src, sharedTmpBuffer, count, calIndex, true);
}

template <typename T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = false) {
  openatc::ascendc::ReduceExtreme("ReduceMin", dst, src, sharedTmpBuffer, count, calIndex, false);
}

template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
                    uint32_t count) {
  uint8_t *bits = openatc::ascendc::PrepareCompare("Compare", dst, src0, count);
  openatc::ascendc::CheckOperand("Compare", "src1", src1, count);
  for (uint32_t i = 0; i < count; ++i) {
    if (openatc::ascendc::CompareValues(mode, src0.Raw()[i], src1.Raw()[i])) bits[i / 8] |= uint8_t(1u << (i % 8));
  }
}

/** One repeat compared into the CMPMASK register (bit i = element i of the repeat); read it with
 *  GetCmpMask. */
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, uint64_t mask,
                    const BinaryRepeatParams &p) {
  openatc::ascendc::CheckOperand("Compare", "src0", src0, 0);
  openatc::ascendc::CheckOperand("Compare", "src1", src1, 0);
  uint64_t *reg = openatc::ascendc::Core().cmp_mask;
  reg[0] = reg[1] = 0;
  openatc::ascendc::ForEachRepeat<T, isSetMask>(openatc::ascendc::LeadingMask(mask), 1, [&](uint32_t r, uint32_t i) {
    const T a = openatc::ascendc::At("Compare", "src0", src0,
                                     openatc::ascendc::RepeatIndex<T>(r, i, p.src0BlkStride, p.src0RepStride));
    const T b = openatc::ascendc::At("Compare", "src1", src1,
                                     openatc::ascendc::RepeatIndex<T>(r, i, p.src1BlkStride, p.src1RepStride));
    if (openatc::ascendc::CompareValues(mode, a, b)) reg[i / 64] |= 1ull << (i % 64);
  });
}

/** Writes the 16 bytes of the CMPMASK register to dst. */
template <typename T>
inline void GetCmpMask(const LocalTensor<T> &dst) {
  openatc::ascendc::CheckOperand("GetCmpMask", "dst", dst, (16 + sizeof(T) - 1) / sizeof(T));
  memcpy(static_cast<void *>(dst.Raw()), openatc::ascendc::Core().cmp_mask, 16);
}

template <typename T, typename U>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                     const typename openatc::ascendc::NonDeduced<T>::type scalar, CMPMODE mode, uint32_t count) {
  uint8_t *bits = openatc::ascendc::PrepareCompare("Compares", dst, src0, count);
  for (uint32_t i = 0; i < count; ++i) {
    if (openatc::ascendc::CompareValues(mode, src0.Raw()[i], scalar)) bits[i / 8] |= uint8_t(1u << (i % 8));
  }
}

template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE mode, uint32_t count) {
  if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    openatc::ascendc::Fail("Select", "a tensor src1 needs SELMODE::VSEL_TENSOR_TENSOR_MODE or VSEL_CMPMASK_SPR");
  }
  // VSEL_CMPMASK_SPR: the first repeat's worth of bits applies to every repeat.
  const uint32_t period = mode == SELMODE::VSEL_CMPMASK_SPR ? openatc::ascendc::ElemsPerRepeat<T>() : count;
  const uint32_t used = period < count ? period : count;
  openatc::ascendc::CheckOperand("Select", "dst", dst, count);
  openatc::ascendc::CheckOperand("Select", "selMask", selMask, ((used + 7) / 8 + sizeof(U) - 1) / sizeof(U));
  openatc::ascendc::CheckOperand("Select", "src0", src0, count);
  openatc::ascendc::CheckOperand("Select", "src1", src1, count);
  const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.Raw());
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t b = i % period;
    dst.Raw()[i] = ((bits[b / 8] >> (b % 8)) & 1u) ? src0.Raw()[i] : src1.Raw()[i];
  }
}

template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const typename openatc::ascendc::NonDeduced<T>::type src1, SELMODE mode, uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    openatc::ascendc::Fail("Select", "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE");
  }
  openatc::ascendc::CheckOperand("Select", "dst", dst, count);
  openatc::ascendc::CheckOperand("Select", "selMask", selMask, ((count + 7) / 8 + sizeof(U) - 1) / sizeof(U));
  openatc::ascendc::CheckOperand("Select", "src0", src0, count);
  const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.Raw());
  for (uint32_t i = 0; i < count; ++i) dst.Raw()[i] = ((bits[i / 8] >> (i % 8)) & 1u) ? src0.Raw()[i] : src1;
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_REDUCE_H_
