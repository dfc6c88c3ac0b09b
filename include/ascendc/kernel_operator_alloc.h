/**
 * @file kernel_operator_alloc.h
 * LocalMemAllocator<Hardware::UB> of the Ascend C host library: the bump allocator newer Ascend C
 * kernels use instead of TPipe. Tensors are carved from the block's UB (kernel_operator_tensor.h)
 * from offset 0, each at a 32-byte aligned offset; running past the Unified Buffer throws
 * KernelError. Only the UB is emulated (other Hardware values do not compile). Like TPipe, the
 * constructor resets the core state.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_ALLOC_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_ALLOC_H_

#include "kernel_operator_tensor.h"

namespace AscendC {

/** Physical memories of an AI core. */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB, "only the Unified Buffer is emulated on the host");

 public:
  LocalMemAllocator() { openatc::ascendc::ResetCore(); }
  LocalMemAllocator(const LocalMemAllocator &) = delete;
  LocalMemAllocator &operator=(const LocalMemAllocator &) = delete;

  /** `tileSize` elements of T at the next 32-byte aligned UB offset. */
  template <typename T, uint32_t tileSize>
  LocalTensor<T> Alloc() {
    return Alloc<TPosition::VECCALC, T>(tileSize);
  }
  template <TPosition pos, typename T, uint32_t tileSize>
  LocalTensor<T> Alloc() {
    return Alloc<pos, T>(tileSize);
  }
  template <typename T>
  LocalTensor<T> Alloc(uint32_t tileSize) {
    return Alloc<TPosition::VECCALC, T>(tileSize);
  }
  template <TPosition pos, typename T>
  LocalTensor<T> Alloc(uint32_t tileSize) {
    using openatc::ascendc::Num;
    const uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(T);
    if (used_ + bytes > openatc::ascendc::UbArena::kSize) {
      openatc::ascendc::Fail("LocalMemAllocator::Alloc", Num(tileSize) + " " + openatc::ascendc::TypeName<T>() +
                                                             " elements at UB offset " + Num(used_) +
                                                             " exceed the Unified Buffer of " +
                                                             Num(openatc::ascendc::UbArena::kSize) + " bytes");
    }
    T *at = reinterpret_cast<T *>(openatc::ascendc::Ub().Base("LocalMemAllocator::Alloc") + used_);
    used_ = openatc::ascendc::AlignUp32(used_ + bytes);
    return LocalTensor<T>(at, tileSize, pos);
  }
  /** The next free UB offset in bytes. */
  uint32_t GetCurAddr() const { return static_cast<uint32_t>(used_); }

 private:
  uint64_t used_ = 0;
};

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_ALLOC_H_
