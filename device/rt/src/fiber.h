// Fibers for cooperative launches (coop_launch.cc): a stack of its own and a ucontext, run by the
// thread that resumes it until it yields back or its function returns. Stacks are 256 KiB,
// allocated on first need and reused (FiberStackPool). The first kGuardedStacks live stacks are
// mmap'd one by one with a PROT_NONE guard page below them; a guard costs a memory mapping of its
// own and vm.max_map_count (65530 by default) would not hold 65535 of them, so stacks beyond that
// are carved from chunks of kChunkStacks stacks in one mapping each, separated by a gap page and
// checked by a canary word at their lowest address instead of a guard.
// Under AddressSanitizer every switch is announced with the sanitizer's fiber calls.
#ifndef OPENATC_RT_SRC_FIBER_H_
#define OPENATC_RT_SRC_FIBER_H_

#include <ucontext.h>

#include <cstddef>
#include <cstdint>

namespace openatc {
namespace rt {

struct StackChunk;

struct FiberStack {
  unsigned char *map = nullptr;  ///< the stack's own mapping (guard page first, when there is one)
  size_t map_size = 0;
  StackChunk *chunk = nullptr;    ///< or the chunk it was carved from (then map is null)
  unsigned char *base = nullptr;  ///< lowest usable byte
  size_t size = 0;                ///< usable bytes
};

/** Process-wide cache of fiber stacks. Get throws std::bad_alloc when no stack can be had (no
 *  memory, or the cap below reached); Put never allocates. */
class FiberStackPool {
 public:
  static constexpr size_t kStackBytes = 256 * 1024;
  static constexpr size_t kGuardedStacks = 8192;  ///< live stacks with a guard page (2 mappings each)
  static constexpr size_t kChunkStacks = 256;     ///< stacks per chunk mapping past that
  static FiberStack Get();
  /** Returns a stack; false when its lowest word (a canary) was overwritten: the fiber overflowed
   *  a stack that has no guard page. */
  static bool Put(const FiberStack &stack);
  /** Caps the stacks live at once (0: no cap, the default); Get fails past it. For tests of a
   *  launch that runs out of stacks (openatc/rt/runtime.h, SetFiberStackLimit). */
  static void SetLimit(size_t max_live);
  /** Stacks handed out and not yet returned. */
  static size_t Live();
};

class Fiber {
 public:
  using Fn = void (*)(void *arg);
  /** A fiber that will run fn(arg) on `stack` when first resumed. */
  Fiber(const FiberStack &stack, Fn fn, void *arg);
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /** From the thread's own context: runs the fiber until it yields or returns. */
  void Resume();
  /** From inside the fiber: back to the Resume that ran it. */
  void Yield();
  bool finished() const { return finished_; }
  const FiberStack &stack() const { return stack_; }

 private:
  static void Trampoline(unsigned hi, unsigned lo);
  void SwitchOut(bool dying);

  FiberStack stack_;
  Fn fn_;
  void *arg_;
  bool finished_ = false;
  ucontext_t self_{};
  ucontext_t caller_{};
  void *fake_stack_ = nullptr;      // the fiber's ASan fake stack while it is switched out
  const void *caller_bottom_ = nullptr;  // the resuming thread's stack, for switching back
  size_t caller_size_ = 0;
};

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_FIBER_H_
