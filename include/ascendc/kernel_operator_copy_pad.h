/**
 * @file kernel_operator_copy_pad.h
 * DataCopyPad of the Ascend C host library (included by kernel_operator_copy.h): byte-exact
 * bursts between GM and UB. GM -> UB: burst i reads blockLen bytes at GM byte
 * i * (blockLen + srcStride) and lands at a 32-byte aligned UB slot of
 * AlignUp32(leftPadding + blockLen + rightPadding) bytes, slots dstStride blocks apart; with
 * isPad the slot's bytes outside the data hold paddingValue, else the value of the last
 * SetPadValue, else (no pads) the tail repeats the burst's first element. UB -> GM: burst i reads UB slots of AlignUp32(blockLen) bytes,
 * srcStride blocks apart, and writes exactly blockLen bytes at GM byte i * (blockLen + dstStride).
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_PAD_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_PAD_H_

#include "kernel_operator_copy.h"

namespace openatc {
namespace ascendc {

template <typename T>
inline void CheckPadBurst(uint32_t block_len, uint32_t left, uint32_t right) {
  if (block_len % sizeof(T) != 0) {
    Fail("DataCopyPad", "blockLen " + Num(block_len) + " bytes is not a whole number of " + TypeName<T>() +
                            " elements");
  }
  if (left * sizeof(T) > kBlockBytes || right * sizeof(T) > kBlockBytes) {
    Fail("DataCopyPad", "leftPadding " + Num(left) + " / rightPadding " + Num(right) + " elements exceed 32 bytes");
  }
}

/** Fills slot elements [from, to) with `value`. */
template <typename T>
inline void FillElements(T *slot, uint64_t from, uint64_t to, T value) {
  for (uint64_t k = from; k < to; ++k) slot[k] = value;
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

/** The padding value DataCopyPad uses when isPad is false (per block, until the next call). */
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "padding value size");
  openatc::ascendc::Core().pad_bits = 0;
  memcpy(&openatc::ascendc::Core().pad_bits, &value, sizeof(T));
  openatc::ascendc::Core().pad_set = true;
}

/** GM -> UB, byte-exact bursts with padding. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                        const DataCopyPadExtParams<T> &pad) {
  using namespace openatc::ascendc;
  CheckPadBurst<T>(p.blockLen, pad.leftPadding, pad.rightPadding);
  const uint64_t left = pad.leftPadding, data = p.blockLen / sizeof(T);
  const uint64_t slot_bytes = AlignUp32((left + pad.rightPadding) * sizeof(T) + p.blockLen);
  const uint64_t slot_step = slot_bytes + p.dstStride * 32ull;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  CheckOperand("DataCopyPad", "dst", dst, ((p.blockCount - 1) * slot_step + slot_bytes) / sizeof(T));
  const unsigned char *gm = reinterpret_cast<const unsigned char *>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    T *slot = dst.Raw() + i * slot_step / sizeof(T);
    GmRead(slot + left, gm + i * (static_cast<uint64_t>(p.blockLen) + p.srcStride), p.blockLen, "DataCopyPad");
    const uint64_t slot_elems = slot_bytes / sizeof(T);
    if (pad.isPad || Core().pad_set) {
      T value = pad.paddingValue;
      if (!pad.isPad) memcpy(&value, &Core().pad_bits, sizeof(T));
      FillElements(slot, 0, left, value);
      FillElements(slot, left + data, slot_elems, value);
    } else if (left == 0 && pad.rightPadding == 0) {
      FillElements(slot, data, slot_elems, slot[0]);
    }
  }
}

/** UB -> GM, byte-exact bursts. */
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p) {
  using namespace openatc::ascendc;
  CheckPadBurst<T>(p.blockLen, 0, 0);
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t slot_step = AlignUp32(p.blockLen) + p.srcStride * 32ull;
  CheckOperand("DataCopyPad", "src", src, ((p.blockCount - 1) * slot_step + p.blockLen) / sizeof(T));
  unsigned char *gm = reinterpret_cast<unsigned char *>(dst.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    T *at = reinterpret_cast<T *>(gm + i * (static_cast<uint64_t>(p.blockLen) + p.dstStride));
    GmWrite(at, src.Raw() + i * slot_step / sizeof(T), p.blockLen / sizeof(T), "DataCopyPad");
  }
}

/** The older spelling: DataCopyParams whose blockLen and GM stride are bytes. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                        const DataCopyPadParams &pad) {
  T value;
  memcpy(&value, &pad.paddingValue, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
              DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride));
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_PAD_H_
