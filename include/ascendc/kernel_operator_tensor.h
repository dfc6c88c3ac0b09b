/**
 * @file kernel_operator_tensor.h
 * The Unified Buffer of the Ascend C host library: one arena of OPENATC_ASCENDC_UB_SIZE bytes per
 * block (per executing thread, 64-byte aligned, reused by the next block on that thread) and
 * LocalTensor<T>, a window {address, elements, position} into it. Tensors come only from
 * TQue/TBuf (kernel_operator_pipe.h); every index and every operand is checked against the
 * window, and vector/DMA operands against the 32-byte rule (CheckOperand).
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_TENSOR_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_TENSOR_H_

#include <stdlib.h>

#include "kernel_operator_base.h"

namespace openatc {
namespace ascendc {

/** The running thread's UB (allocated, zeroed, on first use; freed at thread exit). */
class UbArena {
 public:
  UbArena() : base_(nullptr) {}
  ~UbArena() { free(base_); }
  UbArena(const UbArena &) = delete;
  UbArena &operator=(const UbArena &) = delete;
  static constexpr uint32_t kSize = OPENATC_ASCENDC_UB_SIZE;
  static_assert(kSize % 64 == 0, "OPENATC_ASCENDC_UB_SIZE must be a multiple of 64 bytes");
  unsigned char *Base(const char *api) {
    if (base_ == nullptr) base_ = Allocate();  // after Detach
    if (base_ == nullptr) Fail(api, "cannot allocate the " + Num(kSize) + "-byte Unified Buffer on the host");
    return base_;
  }
  /** SyncAll (kernel_operator_block_sync.h): a waiting block takes its UB with it; the thread's
   *  next block gets a fresh one on first use. */
  unsigned char *Detach() {
    unsigned char *p = base_;
    base_ = nullptr;
    return p;
  }
  /** The waiting block is back: its UB is the thread's again (the one in between is freed). */
  void Attach(unsigned char *p) {
    if (p == base_) return;
    free(base_);
    base_ = p;
  }
  uint64_t OffsetOf(const void *p) const {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base_));
  }

 private:
  static unsigned char *Allocate() {
    auto *p = static_cast<unsigned char *>(aligned_alloc(64, kSize));
    if (p != nullptr) memset(p, 0, kSize);
    return p;
  }
  unsigned char *base_;
};

__attribute__((visibility("hidden"))) inline UbArena &Ub() {
  static thread_local UbArena arena;
  return arena;
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

/** A window of `size` elements of UB at a 32-byte aligned (or, for views, any) address. */
template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(T *data, uint32_t size, TPosition pos) : data_(data), size_(size), pos_(pos) {}
  /** `size` elements at byte `addr` of the block's UB (Ascend C's static-address form). */
  LocalTensor(TPosition pos, uint32_t addr, uint32_t size) : size_(size), pos_(pos) {
    if (static_cast<uint64_t>(addr) + static_cast<uint64_t>(size) * sizeof(T) > openatc::ascendc::UbArena::kSize) {
      openatc::ascendc::Fail("LocalTensor", openatc::ascendc::Num(size) + " " + openatc::ascendc::TypeName<T>() +
                                                " elements at UB byte " + openatc::ascendc::Num(addr) +
                                                " exceed the Unified Buffer of " +
                                                openatc::ascendc::Num(openatc::ascendc::UbArena::kSize) + " bytes");
    }
    data_ = reinterpret_cast<T *>(openatc::ascendc::Ub().Base("LocalTensor") + addr);
  }

  /** Elements of the window. */
  uint32_t GetSize() const { return size_; }
  /** Bytes of the window. */
  uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  /** Shrinks (never grows) the window to `size` elements. */
  void SetSize(uint32_t size) {
    if (size > size_) {
      openatc::ascendc::Fail("LocalTensor::SetSize", "cannot grow a tensor of " + openatc::ascendc::Num(size_) +
                                                         " elements to " + openatc::ascendc::Num(size));
    }
    size_ = size;
  }
  TPosition GetPosition() const { return pos_; }
  /** The view starting `offset` elements later (offset <= GetSize()). */
  LocalTensor operator[](uint32_t offset) const {
    Check("LocalTensor::operator[]", offset, size_ + 1ull);
    return LocalTensor(data_ + offset, size_ - offset, pos_);
  }
  T GetValue(uint32_t offset) const {
    Check("LocalTensor::GetValue", offset, size_);
    return data_[offset];
  }
  void SetValue(uint32_t offset, T value) const {
    Check("LocalTensor::SetValue", offset, size_);
    data_[offset] = value;
  }
  T &operator()(uint32_t offset) const {
    Check("LocalTensor::operator()", offset, size_);
    return data_[offset];
  }
  /** The same bytes seen as elements of U (the byte length is kept, rounded down). */
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U *>(data_), static_cast<uint32_t>(GetLength() / sizeof(U)), pos_);
  }
  __ubuf__ T *GetPhyAddr() const { return data_; }
  __ubuf__ T *GetPhyAddr(uint32_t offset) const { return data_ + offset; }
  /** Raw element pointer for the library's own loops (not Ascend C API). */
  T *Raw() const { return data_; }

 private:
  void Check(const char *api, uint64_t offset, uint64_t limit) const {
    if (offset >= limit) {
      openatc::ascendc::Fail(api, "offset " + openatc::ascendc::Num(offset) + " is outside the tensor's " +
                                      openatc::ascendc::Num(size_) + " " + openatc::ascendc::TypeName<T>() +
                                      " elements");
    }
  }
  T *data_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
};

}  // namespace AscendC

namespace openatc {
namespace ascendc {

/** Checks a vector/DMA operand: `need` elements inside the window, 32-byte aligned in UB.
 *  `role` names the operand ("dst", "src0", ...). */
template <typename T>
inline void CheckOperand(const char *api, const char *role, const AscendC::LocalTensor<T> &t, uint64_t need) {
  if (need > t.GetSize()) {
    Fail(api, std::string(role) + " needs " + Num(need) + " " + TypeName<T>() + " elements, the tensor has " +
                  Num(t.GetSize()));
  }
  const uint64_t offset = Ub().OffsetOf(t.Raw());
  if (t.Raw() == nullptr || offset >= UbArena::kSize) {
    Fail(api, std::string(role) + " is not a tensor in the Unified Buffer (use TQue::AllocTensor or TBuf::Get)");
  }
  if (offset % kBlockBytes != 0) {
    Fail(api, std::string(role) + " starts at UB offset " + Num(offset) + ", not a multiple of 32 bytes");
  }
}

}  // namespace ascendc
}  // namespace openatc

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_TENSOR_H_
