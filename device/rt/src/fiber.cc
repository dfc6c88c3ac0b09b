// Fibers and their stacks (fiber.h).
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define OPENATC_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPENATC_FIBER_ASAN 1
#endif
#endif
#ifdef OPENATC_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace openatc {
namespace rt {
namespace {

constexpr uint64_t kCanary = 0x6f61666962657221ull;  // "oafiber!"
constexpr size_t kCachedStacks = 256;                 // stacks kept for reuse; more are unmapped

struct Cache {
  std::mutex mutex;
  std::vector<FiberStack> free;
};
Cache &StackCache() {
  static Cache *c = new Cache();  // never destroyed: fibers may end during exit
  return *c;
}

size_t Page() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

FiberStack Map() {
  const size_t page = Page();
  FiberStack s;
  s.map_size = FiberStackPool::kStackBytes + page;
  void *m = mmap(nullptr, s.map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  s.map = static_cast<unsigned char *>(m);
  // The guard costs a memory mapping of its own; without one left (vm.max_map_count) the stack
  // goes unguarded and the canary below reports an overflow when the fiber ends.
  const bool guarded = mprotect(s.map, page, PROT_NONE) == 0;
  s.base = guarded ? s.map + page : s.map;
  s.size = guarded ? FiberStackPool::kStackBytes : s.map_size;
  std::memcpy(s.base, &kCanary, sizeof kCanary);
  return s;
}

}  // namespace

FiberStack FiberStackPool::Get() {
  Cache &c = StackCache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (!c.free.empty()) {
      FiberStack s = c.free.back();
      c.free.pop_back();
      return s;
    }
  }
  return Map();
}

bool FiberStackPool::Put(const FiberStack &stack) {
  uint64_t word = 0;
  std::memcpy(&word, stack.base, sizeof word);
  const bool intact = word == kCanary;
  if (intact) {
    Cache &c = StackCache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.free.size() < kCachedStacks) {
      c.free.push_back(stack);
      return true;
    }
  }
  munmap(stack.map, stack.map_size);
  return intact;
}

Fiber::Fiber(const FiberStack &stack, Fn fn, void *arg) : stack_(stack), fn_(fn), arg_(arg) {
  getcontext(&self_);
  self_.uc_stack.ss_sp = stack_.base;
  self_.uc_stack.ss_size = stack_.size;
  self_.uc_link = nullptr;
  const uintptr_t p = reinterpret_cast<uintptr_t>(this);
  makecontext(&self_, reinterpret_cast<void (*)()>(&Fiber::Trampoline), 2, static_cast<unsigned>(p >> 32),
              static_cast<unsigned>(p & 0xffffffffu));
}

void Fiber::Trampoline(unsigned hi, unsigned lo) {
  Fiber *f = reinterpret_cast<Fiber *>((static_cast<uintptr_t>(hi) << 32) | lo);
#ifdef OPENATC_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &f->caller_bottom_, &f->caller_size_);
#endif
  f->fn_(f->arg_);  // the function catches everything: no exception leaves a fiber
  f->finished_ = true;
  f->SwitchOut(true);
}

void Fiber::Resume() {
#ifdef OPENATC_FIBER_ASAN
  void *fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, stack_.base, stack_.size);
  swapcontext(&caller_, &self_);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  swapcontext(&caller_, &self_);
#endif
}

void Fiber::Yield() { SwitchOut(false); }

void Fiber::SwitchOut(bool dying) {
#ifdef OPENATC_FIBER_ASAN
  __sanitizer_start_switch_fiber(dying ? nullptr : &fake_stack_, caller_bottom_, caller_size_);
  swapcontext(&self_, &caller_);
  __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#else
  (void)dying;
  swapcontext(&self_, &caller_);
#endif
}

}  // namespace rt
}  // namespace openatc
