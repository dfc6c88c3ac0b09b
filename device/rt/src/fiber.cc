// Fibers and their stacks (fiber.h).
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "openatc/rt/runtime.h"

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
constexpr size_t kCachedStacks = 256;                 // guarded stacks kept for reuse; more are unmapped

size_t Page() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

/** kChunkStacks unguarded stacks in one mapping; slot i is a gap page then the stack. */
struct StackChunk {
  unsigned char *map = nullptr;
  size_t map_size = 0;
  std::vector<unsigned char *> free;  // bases of the free slots (capacity kChunkStacks: Put never allocates)
};

namespace {

struct Cache {
  std::mutex mutex;
  std::vector<FiberStack> free;     // cached guarded stacks
  std::vector<StackChunk *> chunks;  // every chunk mapped now
  size_t live = 0;                   // stacks handed out
  size_t guarded = 0;                // guarded stacks mapped (handed out or cached)
  size_t limit = 0;                  // SetLimit; 0 = none
};
Cache &StackCache() {
  static Cache *c = [] {
    Cache *n = new Cache();  // never destroyed: fibers may end during exit
    n->free.reserve(kCachedStacks);
    return n;
  }();
  return *c;
}

void *MapAnonymous(size_t bytes) {
  void *m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  return m;
}

FiberStack MapGuarded() {
  const size_t page = Page();
  FiberStack s;
  s.map_size = FiberStackPool::kStackBytes + page;
  s.map = static_cast<unsigned char *>(MapAnonymous(s.map_size));
  // Without a mapping left for the guard (vm.max_map_count) the stack goes unguarded and the
  // canary reports an overflow when the fiber ends.
  const bool guarded = mprotect(s.map, page, PROT_NONE) == 0;
  s.base = guarded ? s.map + page : s.map;
  s.size = guarded ? FiberStackPool::kStackBytes : s.map_size;
  return s;
}

/** Under c.mutex: a slot of a chunk with one free, mapping a new chunk when none has. */
FiberStack CarveFromChunk(Cache &c) {
  StackChunk *chunk = nullptr;
  for (auto it = c.chunks.rbegin(); it != c.chunks.rend() && chunk == nullptr; ++it) {
    if (!(*it)->free.empty()) chunk = *it;
  }
  if (chunk == nullptr) {
    const size_t slot = FiberStackPool::kStackBytes + Page();
    auto fresh = std::make_unique<StackChunk>();
    fresh->free.reserve(FiberStackPool::kChunkStacks);
    c.chunks.reserve(c.chunks.size() + 1);
    fresh->map_size = slot * FiberStackPool::kChunkStacks;
    fresh->map = static_cast<unsigned char *>(MapAnonymous(fresh->map_size));
    for (size_t i = FiberStackPool::kChunkStacks; i-- > 0;) fresh->free.push_back(fresh->map + i * slot + Page());
    chunk = fresh.release();
    c.chunks.push_back(chunk);
  }
  FiberStack s;
  s.chunk = chunk;
  s.base = chunk->free.back();
  s.size = FiberStackPool::kStackBytes;
  chunk->free.pop_back();
  return s;
}

/** Under c.mutex: a stack of a chunk back; the chunk is unmapped once all its slots are free. */
void ReturnToChunk(Cache &c, const FiberStack &stack) {
  StackChunk *chunk = stack.chunk;
  chunk->free.push_back(stack.base);
  if (chunk->free.size() != FiberStackPool::kChunkStacks) return;
  c.chunks.erase(std::find(c.chunks.begin(), c.chunks.end(), chunk));
  munmap(chunk->map, chunk->map_size);
  delete chunk;
}

}  // namespace

FiberStack FiberStackPool::Get() {
  Cache &c = StackCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.limit != 0 && c.live >= c.limit) throw std::bad_alloc();
  FiberStack s;
  if (!c.free.empty()) {
    s = c.free.back();
    c.free.pop_back();
  } else if (c.guarded < kGuardedStacks) {
    s = MapGuarded();
    ++c.guarded;
  } else {
    s = CarveFromChunk(c);
  }
  std::memcpy(s.base, &kCanary, sizeof kCanary);
  ++c.live;
  return s;
}

bool FiberStackPool::Put(const FiberStack &stack) {
  uint64_t word = 0;
  std::memcpy(&word, stack.base, sizeof word);
  const bool intact = word == kCanary;
  Cache &c = StackCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  --c.live;
  if (stack.chunk != nullptr) {
    ReturnToChunk(c, stack);
  } else if (intact && c.free.size() < kCachedStacks) {
    c.free.push_back(stack);
  } else {
    munmap(stack.map, stack.map_size);
    --c.guarded;
  }
  return intact;
}

void FiberStackPool::SetLimit(size_t max_live) {
  Cache &c = StackCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.limit = max_live;
}

void SetFiberStackLimit(size_t max_stacks) { FiberStackPool::SetLimit(max_stacks); }

size_t FiberStackPool::Live() {
  Cache &c = StackCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.live;
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
