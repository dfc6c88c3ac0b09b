/**
 * @file kernel_operator_copy.h
 * Data movement of the Ascend C host library: DataCopy (count form and DataCopyParams form,
 * GM -> UB, UB -> GM, UB -> UB) and DataCopyPad (byte-exact bursts, GM <-> UB). Rules checked,
 * each a KernelError naming the call: the count form moves whole 32-byte DataBlocks only
 * (count * sizeof(T) % 32 == 0; the device would silently round down), UB operands are 32-byte
 * aligned and large enough for every burst, GM addresses of DataCopy are element-aligned. Every
 * GM byte goes through the checker (kernel_operator_gm.h); UB -> GM copies honour SetAtomicAdd.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_H_

#include "kernel_operator_gm.h"
#include "kernel_operator_tensor.h"

namespace AscendC {

/** Bursts for DataCopy: lengths and gaps in 32-byte DataBlocks. */
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};

/** Bursts for DataCopyPad: blockLen in bytes; the GM-side stride in bytes, the UB side in blocks. */
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride, uint32_t reserved = 0)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride), rsv(reserved) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

/** Padding of each GM -> UB burst of DataCopyPad (paddings in elements, at most 32 bytes each). */
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
};

/** The older DataCopyPad padding (with DataCopyParams whose blockLen is in bytes). */
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

}  // namespace AscendC

namespace openatc {
namespace ascendc {

/** The count form's 32-byte rule. */
template <typename T>
inline void CheckWholeBlocks(const char *api, uint32_t count) {
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  if (bytes % kBlockBytes != 0) {
    Fail(api, std::string(api) + " of " + Num(count) + " " + TypeName<T>() + " elements = " + Num(bytes) +
                  " bytes is not a multiple of 32 bytes; copy a multiple of " + Num(kBlockBytes / sizeof(T)) + " " +
                  TypeName<T>() + " elements or use DataCopyPad");
  }
}

template <typename T>
inline void CheckGmAligned(const char *api, const T *gm) {
  if (reinterpret_cast<uintptr_t>(gm) % alignof(T) != 0) {
    Fail(api, "global address is not aligned to its " + Num(alignof(T)) + "-byte " + TypeName<T>() + " elements");
  }
}

/** UB elements the DataCopyParams bursts span (stride = the UB side's gap in blocks). */
template <typename T>
inline uint64_t BurstSpan(uint16_t count, uint64_t burst_bytes, uint64_t gap_bytes) {
  if (count == 0 || burst_bytes == 0) return 0;
  return ((count - 1) * (burst_bytes + gap_bytes) + burst_bytes + sizeof(T) - 1) / sizeof(T);
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

/** GM -> UB, `count` elements. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
  openatc::ascendc::CheckWholeBlocks<T>("DataCopy", count);
  openatc::ascendc::CheckOperand("DataCopy", "dst", dst, count);
  openatc::ascendc::CheckGmAligned("DataCopy", src.GetPhyAddr());
  openatc::ascendc::GmRead(dst.Raw(), src.GetPhyAddr(), static_cast<uint64_t>(count) * sizeof(T), "DataCopy");
}

/** UB -> GM, `count` elements. */
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
  openatc::ascendc::CheckWholeBlocks<T>("DataCopy", count);
  openatc::ascendc::CheckOperand("DataCopy", "src", src, count);
  openatc::ascendc::CheckGmAligned("DataCopy", dst.GetPhyAddr());
  openatc::ascendc::GmWrite(dst.GetPhyAddr(), src.Raw(), count, "DataCopy");
}

/** UB -> UB, `count` elements. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
  openatc::ascendc::CheckWholeBlocks<T>("DataCopy", count);
  openatc::ascendc::CheckOperand("DataCopy", "dst", dst, count);
  openatc::ascendc::CheckOperand("DataCopy", "src", src, count);
  memmove(dst.Raw(), src.Raw(), static_cast<size_t>(count) * sizeof(T));
}

/** GM -> UB bursts: blockCount bursts of blockLen blocks, gaps in blocks. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p) {
  const uint64_t burst = p.blockLen * 32ull;
  openatc::ascendc::CheckOperand("DataCopy", "dst", dst,
                                 openatc::ascendc::BurstSpan<T>(p.blockCount, burst, p.dstStride * 32ull));
  openatc::ascendc::CheckGmAligned("DataCopy", src.GetPhyAddr());
  const unsigned char *gm = reinterpret_cast<const unsigned char *>(src.GetPhyAddr());
  unsigned char *ub = reinterpret_cast<unsigned char *>(dst.Raw());
  for (uint32_t i = 0; i < p.blockCount && burst > 0; ++i) {
    openatc::ascendc::GmRead(ub + i * (burst + p.dstStride * 32ull), gm + i * (burst + p.srcStride * 32ull), burst,
                             "DataCopy");
  }
}

/** UB -> GM bursts. */
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  const uint64_t burst = p.blockLen * 32ull;
  openatc::ascendc::CheckOperand("DataCopy", "src", src,
                                 openatc::ascendc::BurstSpan<T>(p.blockCount, burst, p.srcStride * 32ull));
  openatc::ascendc::CheckGmAligned("DataCopy", dst.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount && burst > 0; ++i) {
    const uint64_t gm_at = i * (burst + p.dstStride * 32ull) / sizeof(T);
    const uint64_t ub_at = i * (burst + p.srcStride * 32ull) / sizeof(T);
    openatc::ascendc::GmWrite(dst.GetPhyAddr() + gm_at, src.Raw() + ub_at, burst / sizeof(T), "DataCopy");
  }
}

/** UB -> UB bursts. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  const uint64_t burst = p.blockLen * 32ull;
  openatc::ascendc::CheckOperand("DataCopy", "dst", dst,
                                 openatc::ascendc::BurstSpan<T>(p.blockCount, burst, p.dstStride * 32ull));
  openatc::ascendc::CheckOperand("DataCopy", "src", src,
                                 openatc::ascendc::BurstSpan<T>(p.blockCount, burst, p.srcStride * 32ull));
  unsigned char *d = reinterpret_cast<unsigned char *>(dst.Raw());
  const unsigned char *s = reinterpret_cast<const unsigned char *>(src.Raw());
  for (uint32_t i = 0; i < p.blockCount && burst > 0; ++i) {
    memmove(d + i * (burst + p.dstStride * 32ull), s + i * (burst + p.srcStride * 32ull), burst);
  }
}

}  // namespace AscendC

#include "kernel_operator_copy_pad.h"

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_COPY_H_
