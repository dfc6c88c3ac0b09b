// Cooperative launches (coop_launch.h, openatc/block_sync.h). Each block runs on a fiber of its
// own; a worker thread runs the fibers it started (a fiber never moves to another thread, so the
// thread-local addresses a kernel computed before SyncAll stay right after it) and, while its
// fibers wait in the barrier, starts the launch's next block. The barrier opens when every
// block of the launch arrived. It cannot complete once every block either waits or ended
// ("stalled": some block returned without reaching it, or failed): the waiting blocks are then
// resumed with OPENATC_BLOCK_SYNC_ABANDONED, end by throwing, and the launch fails naming the
// block and "SyncAll reached by k of N blocks". Nothing hangs and every fiber ends: a block that
// gets no fiber stack (fiber.h: no memory) fails like a block that threw, and the workers'
// bookkeeping allocates nothing once the launch runs (its queues are reserved up front, failure
// texts are written after the last fiber ended), so running short of memory cannot strand a fiber.
#include "coop_launch.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "fiber.h"
#include "gm_launch.h"
#include "openatc/block_sync.h"
#include "thread_pool.h"

namespace openatc {
namespace rt {
namespace {

struct CoopLaunch;

struct CoopBlock {
  CoopBlock(CoopLaunch *l, uint32_t i, unsigned w, const FiberStack &stack);
  CoopLaunch *launch;
  uint32_t index;
  unsigned owner;      // the worker that started it and alone resumes it
  Fiber fiber;
  GmBlockContext gm;   // the checker's context while this fiber is switched out
  int rc = OPENATC_BLOCK_SYNC_OK;  // what the pending sync_all returns
  bool abandoned = false;          // resumed out of a barrier that cannot complete
  std::exception_ptr error;
};

struct Worker {
  std::vector<CoopBlock *> ready;  // this worker's fibers released from a barrier (capacity: every block)
  size_t head = 0;                 // ready[head..] are still to run
  unsigned live = 0;               // its fibers that have not ended
};

/** Why the lowest failing block failed; the text is made once every fiber ended. */
enum class Failure { kNone, kThrew, kNoStack, kOverflow };

struct CoopLaunch {
  const FunctionView *fn = nullptr;
  const void *args = nullptr;
  size_t args_size = 0;
  uint32_t n = 0;
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<Worker> workers;
  uint32_t next = 0;                 // the next block to start
  std::vector<CoopBlock *> waiting;  // in the open barrier
  uint32_t ended = 0;
  uint32_t lowest_returned = UINT32_MAX;  // lowest block that returned normally
  uint32_t lowest_failed = UINT32_MAX;    // lowest block that failed (not abandoned)
  Failure failure_kind = Failure::kNone;  // how it failed
  std::exception_ptr failure;             // its exception (kThrew)
  bool stalled = false;
  uint32_t stalled_at = 0;  // blocks in the barrier when it stalled
};

thread_local CoopBlock *t_running = nullptr;

void RunBlock(void *arg) {
  CoopBlock *b = static_cast<CoopBlock *>(arg);
  const CoopLaunch &l = *b->launch;
  try {
    GmBlockScope scope(l.fn->name, b->index, l.n);  // what the GM checker names (gm_checker.cc)
    l.fn->set_block(b->index, l.n);
    try {
      l.fn->entry(l.args, l.args_size);
    } catch (...) {
      if (!BlockViolation().empty()) throw GmViolationError(BlockViolation());
      throw;
    }
    if (!BlockViolation().empty()) throw GmViolationError(BlockViolation());
  } catch (...) {
    b->error = std::current_exception();
  }
}

CoopBlock::CoopBlock(CoopLaunch *l, uint32_t i, unsigned w, const FiberStack &stack)
    : launch(l), index(i), owner(w), fiber(stack, &RunBlock, this) {}

/** Under l.mutex: when every block waits or ended and some wait, the barrier cannot complete. */
void CheckStall(CoopLaunch &l) {
  if (l.stalled || l.waiting.empty() || l.waiting.size() + l.ended != l.n) return;
  l.stalled = true;
  l.stalled_at = static_cast<uint32_t>(l.waiting.size());
  for (CoopBlock *b : l.waiting) {
    b->rc = OPENATC_BLOCK_SYNC_ABANDONED;
    b->abandoned = true;
    l.workers[b->owner].ready.push_back(b);
  }
  l.waiting.clear();
  l.wake.notify_all();
}

/** Under l.mutex: block `index` failed as `kind`; the lowest failing block is the one reported. */
void RecordFailure(CoopLaunch &l, uint32_t index, Failure kind, const std::exception_ptr &error) {
  if (index >= l.lowest_failed) return;
  l.lowest_failed = index;
  l.failure_kind = kind;
  l.failure = error;
}

int SyncAll() {
  CoopBlock *b = t_running;
  if (b == nullptr) return OPENATC_BLOCK_SYNC_NOT_COOPERATIVE;
  CoopLaunch &l = *b->launch;
  {
    std::lock_guard<std::mutex> lock(l.mutex);
    if (l.stalled) return OPENATC_BLOCK_SYNC_ABANDONED;
    if (l.waiting.size() + 1 == l.n) {  // the last to arrive opens the barrier
      for (CoopBlock *w : l.waiting) {
        w->rc = OPENATC_BLOCK_SYNC_OK;
        l.workers[w->owner].ready.push_back(w);
      }
      l.waiting.clear();
      l.wake.notify_all();
      return OPENATC_BLOCK_SYNC_OK;
    }
    l.waiting.push_back(b);
    CheckStall(l);
  }
  b->fiber.Yield();  // resumed by this thread's worker once released
  std::lock_guard<std::mutex> lock(l.mutex);
  return b->rc;
}

const openatc_block_sync kBlockSync = {OPENATC_BLOCK_SYNC_ABI_VERSION, 0u, &SyncAll};

/** Runs `b` until it waits or ends, with its own checker context and t_running. */
void Slice(CoopBlock *b) {
  CoopBlock *outer = t_running;
  t_running = b;
  SwapGmBlockContext(b->gm);
  b->fiber.Resume();
  SwapGmBlockContext(b->gm);
  t_running = outer;
}

/** Under l.mutex: the accounting of a block whose fiber ended. */
void Ended(CoopLaunch &l, CoopBlock *b) {
  ++l.ended;
  if (b->error && !b->abandoned) {
    RecordFailure(l, b->index, Failure::kThrew, b->error);
  } else if (!b->error) {
    l.lowest_returned = std::min(l.lowest_returned, b->index);
  }
  CheckStall(l);
}

CoopBlock *Start(CoopLaunch &l, uint32_t index, unsigned w) {
  try {
    return new CoopBlock(&l, index, w, FiberStackPool::Get());
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

void WorkerLoop(CoopLaunch &l, unsigned w) {
  Worker &me = l.workers[w];
  std::unique_lock<std::mutex> lock(l.mutex);
  for (;;) {
    CoopBlock *b = nullptr;
    if (me.head < me.ready.size()) {
      b = me.ready[me.head++];
      if (me.head == me.ready.size()) {
        me.ready.clear();
        me.head = 0;
      }
    } else if (l.next < l.n && !l.stalled) {
      const uint32_t index = l.next++;
      lock.unlock();
      b = Start(l, index, w);
      lock.lock();
      if (b == nullptr) {  // no stack: this block fails, the others may stall on it
        ++l.ended;
        RecordFailure(l, index, Failure::kNoStack, nullptr);
        CheckStall(l);
        continue;
      }
      ++me.live;
    } else if (me.live == 0) {
      return;
    } else {
      l.wake.wait(lock);
      continue;
    }
    lock.unlock();
    Slice(b);
    if (!b->fiber.finished()) {
      lock.lock();
      continue;
    }
    const FiberStack stack = b->fiber.stack();
    const bool intact = FiberStackPool::Put(stack);
    lock.lock();
    if (!intact) {
      RecordFailure(l, b->index, Failure::kOverflow, nullptr);
      ++l.ended;
      CheckStall(l);
    } else {
      Ended(l, b);
    }
    --me.live;
    delete b;
  }
}

std::string WhatOf(const std::exception_ptr &e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception &x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

/** The exception of the launch's lowest failing block. */
std::exception_ptr FailureOf(const CoopLaunch &l) {
  const std::string block = "kernel '" + l.fn->name + "': block " + std::to_string(l.lowest_failed);
  switch (l.failure_kind) {
    case Failure::kNoStack:
      return std::make_exception_ptr(BarrierError(block + " of " + std::to_string(l.n) +
                                                  " got no fiber stack (out of memory or memory mappings)"));
    case Failure::kOverflow:
      return std::make_exception_ptr(
          BarrierError(block + " overflowed its " + std::to_string(FiberStackPool::kStackBytes / 1024) +
                       " KiB fiber stack"));
    default:
      return l.failure;
  }
}

}  // namespace

void RunCooperative(const FunctionView &fn, uint32_t num_blocks, const void *args, size_t args_size) {
  CoopLaunch l;
  l.fn = &fn;
  l.args = args;
  l.args_size = args_size;
  l.n = num_blocks;
  const unsigned workers = std::max(1u, std::min<unsigned>(ThreadPool::Instance().ThreadCount(), num_blocks));
  l.workers.resize(workers);
  l.waiting.reserve(num_blocks);
  for (Worker &w : l.workers) w.ready.reserve(num_blocks);
  ThreadPool::Instance().ParallelFor(workers, [&](uint32_t w) { WorkerLoop(l, w); });
  const std::string reached = "SyncAll reached by " + std::to_string(l.stalled_at) + " of " + std::to_string(l.n) +
                              " blocks";
  if (l.failure_kind != Failure::kNone) {
    const std::exception_ptr failure = FailureOf(l);
    if (!l.stalled) std::rethrow_exception(failure);
    try {
      std::rethrow_exception(failure);
    } catch (const GmViolationError &) {
      throw;
    } catch (...) {
    }
    throw BarrierError("kernel '" + fn.name + "': block " + std::to_string(l.lowest_failed) +
                       " failed while other blocks waited in SyncAll (" + reached + "): " + WhatOf(failure));
  }
  if (l.stalled) {
    throw BarrierError("kernel '" + fn.name + "': block " + std::to_string(l.lowest_returned) +
                       " returned without reaching the SyncAll the other blocks wait in (" + reached + ")");
  }
}

}  // namespace rt
}  // namespace openatc

/** The barrier of openatc/block_sync.h, for code linked with libascendcl. */
extern "C" __attribute__((visibility("default"))) const openatc_block_sync *openatc_rt_block_sync(void) {
  return &openatc::rt::kBlockSync;
}
