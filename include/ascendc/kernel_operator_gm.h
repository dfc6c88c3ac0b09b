/**
 * @file kernel_operator_gm.h
 * Global memory in the Ascend C host library: the checker hook of openatc/gm_check.h, the
 * checked byte movers every GM access goes through (DataCopy, DataCopyPad, GlobalTensor's
 * GetValue/SetValue, atomic stores), and GlobalTensor<T>.
 *
 * Checker: the runtime hands one over through the export openatc_host_kernel_set_gm_checker
 * (stored per shared object, hidden); until it does, the weak libascendcl export
 * openatc_rt_gm_checker() is asked on each access (absent symbol or null = no checks). Each
 * access is reported before it is made; `stop` makes the call throw KernelError without touching
 * memory, otherwise only the first `ok` bytes are moved (reads zero-fill the rest).
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_GM_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_GM_H_

#include "kernel_operator_base.h"
#include "openatc/gm_check.h"

extern "C" const openatc_gm_checker *openatc_rt_gm_checker(void) __attribute__((weak));

namespace openatc {
namespace ascendc {

struct GmCheckerSlot {
  const openatc_gm_checker *checker = nullptr;
  bool set = false;
};

/** The checker handed to this shared object (hidden: one per .so). */
__attribute__((visibility("hidden"))) inline GmCheckerSlot &CheckerSlot() {
  static GmCheckerSlot slot;
  return slot;
}

/** The checker in force for this access, or null. */
inline const openatc_gm_checker *CurrentChecker() {
  GmCheckerSlot &slot = CheckerSlot();
  if (__atomic_load_n(&slot.set, __ATOMIC_ACQUIRE)) return slot.checker;
  if (&openatc_rt_gm_checker != nullptr) return openatc_rt_gm_checker();
  return nullptr;
}

/** Reports [addr, addr+size) to the checker; returns the bytes that may be accessed. Throws on a
 *  violation in fail mode and on a checker of another ABI version. */
inline uint64_t GmAllow(const void *addr, uint64_t size, bool is_write, const char *api) {
  const openatc_gm_checker *checker = CurrentChecker();
  if (checker == nullptr || size == 0) return size;
  if (checker->abi_version != OPENATC_GM_CHECK_ABI_VERSION || checker->check == nullptr) {
    Fail(api, "the runtime's global-memory checker has ABI version " + Num(checker->abi_version) +
                  ", this kernel was built for " + Num(OPENATC_GM_CHECK_ABI_VERSION) + "; rebuild the kernel");
  }
  int stop = 0;
  const uint64_t ok = checker->check(addr, size, is_write ? 1 : 0, api, &stop);
  if (ok >= size) return size;
  if (stop != 0) {
    Fail(api, std::string(is_write ? "write" : "read") + " of " + Num(size) + " bytes of global memory, only " +
                  Num(ok) + " of them inside the buffer holding the address (reported above)");
  }
  return ok;
}

/** Reads `size` GM bytes at `gm` into `dst` (checked). */
inline void GmRead(void *dst, const void *gm, uint64_t size, const char *api) {
  const uint64_t ok = GmAllow(gm, size, false, api);
  if (ok > 0) memcpy(dst, gm, ok);
  if (ok < size) memset(static_cast<unsigned char *>(dst) + ok, 0, size - ok);
}

/** a (op) b for the atomic store modes. */
template <typename T>
inline T AtomicCombine(AtomicOp op, T old_value, T value) {
  if (op == AtomicOp::kAdd) return static_cast<T>(old_value + value);
  if (op == AtomicOp::kMax) return value > old_value ? value : old_value;
  return value < old_value ? value : old_value;
}

/** gm[i] = gm[i] (op) src[i] for `count` elements, each an atomic read-modify-write. */
template <typename T>
inline void AtomicStore(T *gm, const T *src, uint64_t count, AtomicOp op) {
  using Bits = typename std::conditional<
      sizeof(T) == 1, uint8_t,
      typename std::conditional<sizeof(T) == 2, uint16_t,
                                typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type>::type>::type;
  static_assert(sizeof(Bits) == sizeof(T), "atomic element size");
  for (uint64_t i = 0; i < count; ++i) {
    Bits *word = reinterpret_cast<Bits *>(gm + i);
    Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
      T old_value;
      memcpy(&old_value, &expected, sizeof(T));
      const T next = AtomicCombine(op, old_value, src[i]);
      Bits desired;
      memcpy(&desired, &next, sizeof(T));
      if (__atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
  }
}

/** Writes `count` elements from `src` to GM at `gm` (checked), honouring SetAtomicAdd/Max/Min. */
template <typename T>
inline void GmWrite(T *gm, const T *src, uint64_t count, const char *api) {
  const uint64_t size = count * sizeof(T);
  const uint64_t ok = GmAllow(gm, size, true, api);
  const AtomicOp op = Core().atomic;
  if (op == AtomicOp::kNone) {
    if (ok > 0) memcpy(static_cast<void *>(gm), src, ok);
  } else {
    AtomicStore(gm, src, ok / sizeof(T), op);
  }
}

}  // namespace ascendc
}  // namespace openatc

/** Called by the runtime once after loading this kernel .so; null switches checks off. */
extern "C" __attribute__((weak, used, visibility("default"))) void openatc_host_kernel_set_gm_checker(
    const openatc_gm_checker *checker) {
  openatc::ascendc::GmCheckerSlot &slot = openatc::ascendc::CheckerSlot();
  slot.checker = checker;
  __atomic_store_n(&slot.set, true, __ATOMIC_RELEASE);
}

namespace AscendC {

/** A window of global memory: base address and the kernel's claimed size in elements. The
 *  size is the kernel's claim only; accesses are checked against the runtime's buffers. */
template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;
  void SetGlobalBuffer(__gm__ T *buffer, uint64_t size) {
    base_ = buffer;
    size_ = size;
  }
  void SetGlobalBuffer(__gm__ T *buffer) {
    base_ = buffer;
    size_ = 0;
  }
  /** The view starting `offset` elements later. */
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor view;
    view.base_ = base_ + offset;
    view.size_ = size_ > offset ? size_ - offset : 0;
    return view;
  }
  /** Unchecked reference (raw pointer access, as on the device). */
  T &operator()(uint64_t offset) const { return base_[offset]; }
  __gm__ T *GetPhyAddr() const { return base_; }
  __gm__ T *GetPhyAddr(uint64_t offset) const { return base_ + offset; }
  uint64_t GetSize() const { return size_; }
  T GetValue(uint64_t offset) const {
    T value;
    openatc::ascendc::GmRead(&value, base_ + offset, sizeof(T), "GlobalTensor::GetValue");
    return value;
  }
  void SetValue(uint64_t offset, T value) const {
    openatc::ascendc::GmWrite(base_ + offset, &value, 1, "GlobalTensor::SetValue");
  }

 private:
  T *base_ = nullptr;
  uint64_t size_ = 0;
};

/** Atomic store modes for the UB->GM copies that follow (per block, until disabled). */
template <typename T>
inline void SetAtomicAdd() {
  openatc::ascendc::Core().atomic = openatc::ascendc::AtomicOp::kAdd;
}
template <typename T>
inline void SetAtomicMax() {
  openatc::ascendc::Core().atomic = openatc::ascendc::AtomicOp::kMax;
}
template <typename T>
inline void SetAtomicMin() {
  openatc::ascendc::Core().atomic = openatc::ascendc::AtomicOp::kMin;
}
/** The element type of the atomic mode: the copies' own type is used on the host. */
template <typename T>
inline void SetAtomicType() {}
inline void SetAtomicNone() { openatc::ascendc::Core().atomic = openatc::ascendc::AtomicOp::kNone; }
inline void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_GM_H_
