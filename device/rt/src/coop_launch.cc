// Cooperative launches (coop_launch.h, openatc/block_sync.h). Each block runs on a fiber of its
// own; a worker thread runs the fibers it started (a fiber never moves to another thread, so the
// thread-local addresses a kernel computed before SyncAll stay right after it) and, while its
// fibers wait in the barrier, starts the launch's next block. The barrier opens when every
// block of the launch arrived. It cannot complete once every block either waits or ended
// ("stalled": some block returned without reaching it, or failed): the waiting blocks are then
// resumed with OPENATC_BLOCK_SYNC_ABANDONED, end by throwing, and the launch fails naming the
// block and "SyncAll reached by k of N blocks". Nothing hangs and every fiber ends.
#include "coop_launch.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
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
  std::deque<CoopBlock *> ready;  // this worker's fibers released from a barrier
  unsigned live = 0;              // its fibers that have not ended
};

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
  std::exception_ptr failure;             // its exception
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
    if (b->index < l.lowest_failed) {
      l.lowest_failed = b->index;
      l.failure = b->error;
    }
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
    if (!me.ready.empty()) {
      b = me.ready.front();
      me.ready.pop_front();
    } else if (l.next < l.n && !l.stalled) {
      const uint32_t index = l.next++;
      lock.unlock();
      b = Start(l, index, w);
      lock.lock();
      if (b == nullptr) {  // no stack: this block fails, the others may stall on it
        ++l.ended;
        if (index < l.lowest_failed) {
          l.lowest_failed = index;
          l.failure = std::make_exception_ptr(BarrierError(
              "kernel '" + l.fn->name + "': no memory for the fiber stack of block " + std::to_string(index) + " of " +
              std::to_string(l.n)));
        }
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
    if (!intact && !b->error) {
      b->error = std::make_exception_ptr(BarrierError("kernel '" + l.fn->name + "': block " + std::to_string(b->index) +
                                                      " overflowed its " +
                                                      std::to_string(FiberStackPool::kStackBytes / 1024) +
                                                      " KiB fiber stack"));
    }
    Ended(l, b);
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

}  // namespace

void RunCooperative(const FunctionView &fn, uint32_t num_blocks, const void *args, size_t args_size) {
  CoopLaunch l;
  l.fn = &fn;
  l.args = args;
  l.args_size = args_size;
  l.n = num_blocks;
  const unsigned workers = std::max(1u, std::min<unsigned>(ThreadPool::Instance().ThreadCount(), num_blocks));
  l.workers.resize(workers);
  ThreadPool::Instance().ParallelFor(workers, [&](uint32_t w) { WorkerLoop(l, w); });
  const std::string reached = "SyncAll reached by " + std::to_string(l.stalled_at) + " of " + std::to_string(l.n) +
                              " blocks";
  if (l.failure) {
    if (!l.stalled) std::rethrow_exception(l.failure);
    try {
      std::rethrow_exception(l.failure);
    } catch (const GmViolationError &) {
      throw;
    } catch (...) {
    }
    throw BarrierError("kernel '" + fn.name + "': block " + std::to_string(l.lowest_failed) +
                       " failed while other blocks waited in SyncAll (" + reached + "): " + WhatOf(l.failure));
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
