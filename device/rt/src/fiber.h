// Fibers for cooperative launches (coop_launch.cc): a stack of its own and a ucontext, run by the
// thread that resumes it until it yields back or its function returns. Stacks are 256 KiB, mmap'd
// with a PROT_NONE guard page below them, allocated on first need and reused (FiberStackPool).
// Under AddressSanitizer every switch is announced with the sanitizer's fiber calls.
#ifndef OPENATC_RT_SRC_FIBER_H_
#define OPENATC_RT_SRC_FIBER_H_

#include <ucontext.h>

#include <cstddef>
#include <cstdint>

namespace openatc {
namespace rt {

struct FiberStack {
  unsigned char *map = nullptr;  ///< the whole mapping (guard page first, when there is one)
  size_t map_size = 0;
  unsigned char *base = nullptr;  ///< lowest usable byte
  size_t size = 0;                ///< usable bytes
};

/** Process-wide cache of fiber stacks. Get throws std::bad_alloc when no stack can be mapped. */
class FiberStackPool {
 public:
  static constexpr size_t kStackBytes = 256 * 1024;
  static FiberStack Get();
  /** Returns a stack; false when its lowest word (a canary) was overwritten: the fiber overflowed
   *  a stack that has no guard page (the process ran out of memory mappings for guards). */
  static bool Put(const FiberStack &stack);
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
