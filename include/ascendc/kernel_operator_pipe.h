/**
 * @file kernel_operator_pipe.h
 * Buffer management of the Ascend C host library: TPipe carves the block's UB
 * (kernel_operator_tensor.h) into the buffers of TQue/TQueBind (producer -> consumer FIFOs of
 * at most `depth` tensors) and TBuf (scratch). The chip's rules are checked and a violation
 * throws KernelError naming the call: UB capacity, more than 64 buffers, AllocTensor with every
 * buffer in use, EnQue past depth, DeQue of an empty queue, FreeTensor of a buffer that is free
 * or still queued, InitBuffer outside the Unified Buffer positions.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_PIPE_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_PIPE_H_

#include "kernel_operator_tensor.h"

namespace openatc {
namespace ascendc {

/** Buffers one TPipe may hand out, as on the chip. */
constexpr uint32_t kMaxPipeBuffers = 64;

constexpr bool IsUbPosition(AscendC::TPosition pos) {
  return pos == AscendC::TPosition::VECIN || pos == AscendC::TPosition::VECOUT ||
         pos == AscendC::TPosition::VECCALC;
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

class TPipe;

/** A queue of `depth` tensors over buffers from TPipe::InitBuffer, moving data from `src` to `dst`. */
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() = default;
  TQueBind(const TQueBind &) = delete;
  TQueBind &operator=(const TQueBind &) = delete;

  /** A free buffer (in round-robin order) as a tensor of its whole length. */
  template <typename T>
  LocalTensor<T> AllocTensor() {
    if (num_ == 0) Fail("TQue::AllocTensor", "the queue has no buffers; call TPipe::InitBuffer first");
    for (uint32_t k = 0; k < num_; ++k) {
      const uint32_t i = (next_ + k) % num_;
      if (state_[i] != kFree) continue;
      state_[i] = kAllocated;
      next_ = (i + 1) % num_;
      return LocalTensor<T>(reinterpret_cast<T *>(base_ + static_cast<uint64_t>(i) * len_),
                            static_cast<uint32_t>(len_ / sizeof(T)), src);
    }
    Fail("TQue::AllocTensor", "all " + openatc::ascendc::Num(num_) +
                                  " buffers of the queue are in use; FreeTensor one before allocating");
  }
  /** Appends a tensor from AllocTensor to the queue. */
  template <typename T>
  bool EnQue(const LocalTensor<T> &tensor) {
    const uint32_t i = BufferOf("TQue::EnQue", tensor.Raw());
    if (state_[i] != kAllocated) {
      Fail("TQue::EnQue", "buffer " + openatc::ascendc::Num(i) + " is " + StateName(state_[i]) +
                              ", not allocated by AllocTensor");
    }
    if (count_ == kCapacity) {
      Fail("TQue::EnQue", "the queue is full (depth " + openatc::ascendc::Num(kCapacity) + "); DeQue a tensor first");
    }
    fifo_[(head_ + count_) % kCapacity] = Entry{tensor.Raw(), tensor.GetLength()};
    ++count_;
    state_[i] = kQueued;
    return true;
  }
  /** Removes the oldest tensor from the queue. */
  template <typename T>
  LocalTensor<T> DeQue() {
    if (count_ == 0) Fail("TQue::DeQue", "the queue is empty; EnQue a tensor before DeQue");
    const Entry e = fifo_[head_];
    head_ = (head_ + 1) % kCapacity;
    --count_;
    state_[BufferOf("TQue::DeQue", e.addr)] = kDequeued;
    return LocalTensor<T>(static_cast<T *>(e.addr), static_cast<uint32_t>(e.bytes / sizeof(T)), dst);
  }
  /** Gives a buffer back (after DeQue, or an allocated one never queued). */
  template <typename T>
  void FreeTensor(const LocalTensor<T> &tensor) {
    const uint32_t i = BufferOf("TQue::FreeTensor", tensor.Raw());
    if (state_[i] == kFree || state_[i] == kQueued) {
      Fail("TQue::FreeTensor", "buffer " + openatc::ascendc::Num(i) + " is " + StateName(state_[i]));
    }
    state_[i] = kFree;
  }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(count_); }
  bool HasTensorInQue() const { return count_ > 0; }
  bool VacantInQue() const { return count_ < kCapacity; }
  bool HasIdleBuffer() const {
    for (uint32_t i = 0; i < num_; ++i) {
      if (state_[i] == kFree) return true;
    }
    return false;
  }
  void FreeAllEvent() {}

 private:
  friend class TPipe;
  enum State : uint8_t { kFree, kAllocated, kQueued, kDequeued };
  struct Entry {
    void *addr;
    uint32_t bytes;
  };
  static constexpr uint32_t kCapacity = depth > 0 ? static_cast<uint32_t>(depth) : 1u;

  static const char *StateName(uint8_t s) {
    return s == kFree ? "free (already freed or never allocated)"
                      : s == kQueued ? "still in the queue (DeQue it first)" : "allocated";
  }
  [[noreturn]] static void Fail(const char *api, const std::string &problem) { openatc::ascendc::Fail(api, problem); }
  uint32_t BufferOf(const char *api, const void *addr) const {
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t b = reinterpret_cast<uintptr_t>(base_);
    if (num_ == 0 || a < b || a >= b + static_cast<uint64_t>(num_) * len_) {
      Fail(api, "the tensor is not a buffer of this queue");
    }
    return static_cast<uint32_t>((a - b) / len_);
  }
  void Bind(unsigned char *base, uint32_t num, uint32_t len) {
    base_ = base;
    num_ = num;
    len_ = len;
    next_ = head_ = count_ = 0;
    for (uint32_t i = 0; i < openatc::ascendc::kMaxPipeBuffers; ++i) state_[i] = kFree;
  }

  unsigned char *base_ = nullptr;
  uint32_t num_ = 0;
  uint32_t len_ = 0;
  uint32_t next_ = 0;
  uint8_t state_[openatc::ascendc::kMaxPipeBuffers] = {};
  Entry fifo_[kCapacity] = {};
  uint32_t head_ = 0;
  uint32_t count_ = 0;
};

/** A queue whose tensors stay at one position (VECIN, VECOUT, ...). */
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

/** Scratch UB without queue semantics. */
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  /** The whole buffer. */
  template <typename T>
  LocalTensor<T> Get() const {
    return Get<T>(static_cast<uint32_t>(len_ / sizeof(T)));
  }
  /** The first `count` elements of the buffer. */
  template <typename T>
  LocalTensor<T> Get(uint32_t count) const {
    return GetWithOffset<T>(count, 0);
  }
  /** `count` elements starting `offset` bytes into the buffer. */
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset) const {
    if (base_ == nullptr) openatc::ascendc::Fail("TBuf::Get", "the buffer has no memory; call TPipe::InitBuffer first");
    if (static_cast<uint64_t>(offset) + static_cast<uint64_t>(count) * sizeof(T) > len_) {
      openatc::ascendc::Fail("TBuf::Get", openatc::ascendc::Num(count) + " " + openatc::ascendc::TypeName<T>() +
                                              " elements at byte " + openatc::ascendc::Num(offset) +
                                              " do not fit the buffer's " + openatc::ascendc::Num(len_) + " bytes");
    }
    return LocalTensor<T>(reinterpret_cast<T *>(base_ + offset), count, pos);
  }

 private:
  friend class TPipe;
  unsigned char *base_ = nullptr;
  uint32_t len_ = 0;
};

/** Owner of the block's Unified Buffer. Constructing one starts a block's UB at offset 0 and
 *  resets the core state (atomic mode off, full vector mask, no pending event flags). */
class TPipe {
 public:
  TPipe() {
    openatc::ascendc::ResetCore();
    Current() = this;
  }
  ~TPipe() {
    if (Current() == this) Current() = nullptr;
  }
  /** The block's live TPipe (GetTPipePtr). */
  __attribute__((visibility("hidden"))) static TPipe *&Current() {
    static thread_local TPipe *pipe = nullptr;
    return pipe;
  }
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  /** `num` buffers of `len` bytes (rounded up to 32) for `que`. */
  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask> &que, uint8_t num, uint32_t len) {
    static_assert(openatc::ascendc::IsUbPosition(src) && openatc::ascendc::IsUbPosition(dst),
                  "only Unified Buffer queues (VECIN, VECOUT, VECCALC) are emulated on the host");
    const uint32_t aligned = static_cast<uint32_t>(openatc::ascendc::AlignUp32(len));
    que.Bind(Carve(num, aligned), num, aligned);
    return true;
  }
  /** One buffer of `len` bytes (rounded up to 32) for `buf`. */
  template <TPosition pos>
  bool InitBuffer(TBuf<pos> &buf, uint32_t len) {
    static_assert(openatc::ascendc::IsUbPosition(pos),
                  "only Unified Buffer scratch (VECCALC, VECIN, VECOUT) is emulated on the host");
    buf.len_ = static_cast<uint32_t>(openatc::ascendc::AlignUp32(len));
    buf.base_ = Carve(1, buf.len_);
    return true;
  }
  /** Forgets every buffer; the UB is free again. */
  void Reset() {
    used_ = 0;
    buffers_ = 0;
  }
  void Destroy() { Reset(); }
  void Init() { Reset(); }

  /** Event ids for SetFlag/WaitFlag: the lowest free one of `evt` (Alloc reserves it). */
  template <HardEvent evt>
  TEventID FetchEventID() {
    return FetchEventID(evt);
  }
  TEventID FetchEventID(HardEvent evt) {
    for (int i = 0; i < openatc::ascendc::kEventIds; ++i) {
      if (!(event_used_[static_cast<int>(evt)] & (1u << i))) return static_cast<TEventID>(i);
    }
    openatc::ascendc::Fail("TPipe::FetchEventID", "all 8 event ids of this event are allocated");
  }
  template <HardEvent evt>
  TEventID AllocEventID() {
    const TEventID id = FetchEventID(evt);
    event_used_[static_cast<int>(evt)] |= static_cast<uint8_t>(1u << id);
    return id;
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    event_used_[static_cast<int>(evt)] &= static_cast<uint8_t>(~(1u << (id & 7)));
  }

 private:
  unsigned char *Carve(uint32_t num, uint32_t len) {
    using openatc::ascendc::Num;
    if (num == 0 || len == 0) {
      openatc::ascendc::Fail("TPipe::InitBuffer", "needs at least one buffer of at least one byte, got " + Num(num) +
                                                      " of " + Num(len) + " bytes");
    }
    if (buffers_ + num > openatc::ascendc::kMaxPipeBuffers) {
      openatc::ascendc::Fail("TPipe::InitBuffer", Num(buffers_ + num) + " buffers exceed the chip's " +
                                                      Num(openatc::ascendc::kMaxPipeBuffers));
    }
    const uint64_t need = static_cast<uint64_t>(num) * len;
    if (used_ + need > openatc::ascendc::UbArena::kSize) {
      openatc::ascendc::Fail("TPipe::InitBuffer", Num(num) + " x " + Num(len) + " bytes at UB offset " + Num(used_) +
                                                      " exceed the Unified Buffer of " +
                                                      Num(openatc::ascendc::UbArena::kSize) + " bytes");
    }
    unsigned char *at = openatc::ascendc::Ub().Base("TPipe::InitBuffer") + used_;
    used_ += need;
    buffers_ += num;
    return at;
  }

  uint64_t used_ = 0;
  uint32_t buffers_ = 0;
  uint8_t event_used_[static_cast<int>(HardEvent::MAX)] = {};
};

/** Resets the core state at the start of a kernel (atomic off, full mask). */
inline void InitSocState() { openatc::ascendc::ResetCore(); }

}  // namespace AscendC

/** The TPipe the running block constructed last; kernels call it unqualified. */
inline AscendC::TPipe *GetTPipePtr() {
  AscendC::TPipe *pipe = AscendC::TPipe::Current();
  if (pipe == nullptr) openatc::ascendc::Fail("GetTPipePtr", "no TPipe is alive in this block");
  return pipe;
}

namespace AscendC {
using ::GetTPipePtr;
}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_PIPE_H_
