// Run-time output memory kept between runs, planned per repeated run (buffer_pool.h).
#include "buffer_pool.h"

#include <cstdlib>
#include <new>

#include "openatc/common/lifetime_packing.h"

#if defined(__SANITIZE_ADDRESS__)
#define OPENATC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPENATC_ASAN 1
#endif
#endif
#ifdef OPENATC_ASAN
#include <sanitizer/asan_interface.h>
#define OPENATC_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define OPENATC_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define OPENATC_POISON(p, n) ((void)(p), (void)(n))
#define OPENATC_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace openatc::runtime {
namespace {
constexpr size_t kAlign = 64;
// A run with more Takes than this is not planned (the packing is quadratic in them).
constexpr size_t kMaxPlannedTakes = 16384;

void FreeSlab(uint8_t *base, size_t bytes) {
  if (base == nullptr) return;
  OPENATC_UNPOISON(base, bytes);
  std::free(base);
}
}  // namespace

BufferPool::~BufferPool() {
  FreeKept();
  FreeSlab(slab_.base, slab_.bytes);
  for (const Slab &s : retired_) FreeSlab(s.base, s.bytes);
}

void BufferPool::BeginRun() {
  std::lock_guard<std::mutex> lock(mu_);
  in_run_ = true;
  run_bytes_.clear();
  run_events_.clear();
  run_blocks_.clear();
  run_out_ = 0;
  run_index_.clear();
  indexed_ = false;
  cursor_ = 0;
  following_ = !plan_events_.empty();
}

void BufferPool::EndRun() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_run_) return;
  in_run_ = false;
  if (following_ && cursor_ == plan_events_.size() && run_out_ == 0) {
    FreeKept();  // the plan held: the heap blocks of earlier runs are not needed
  } else {
    Replan();
  }
  run_index_.clear();
}

// The slab stops being planned from: freed, or retired until its slices still out come back.
void BufferPool::DropSlab() {
  if (slab_.out > 0) {
    retired_.push_back(slab_);
  } else {
    FreeSlab(slab_.base, slab_.bytes);
  }
  slab_ = Slab{};
}

// Plans from this run's record: each Take's lifetime runs from its event to its Give's; a Take
// still out has no Give and gets the heap next time.
void BufferPool::Replan() {
  plan_bytes_.clear();
  plan_offsets_.clear();
  plan_events_.clear();
  if (run_bytes_.empty() || run_bytes_.size() > kMaxPlannedTakes) {
    DropSlab();
    return;
  }
  std::vector<LifetimeBlock> blocks(run_bytes_.size());
  for (size_t e = 0; e < run_events_.size(); ++e) {
    LifetimeBlock &b = blocks[run_events_[e].take];
    if (run_events_[e].give) {
      b.last = static_cast<int64_t>(e);
    } else {
      b.bytes = static_cast<int64_t>(run_bytes_[run_events_[e].take]);
      b.first = b.last = static_cast<int64_t>(e);
    }
  }
  for (size_t t = 0; t < run_blocks_.size(); ++t)
    if (run_blocks_[t] != nullptr) blocks[t].bytes = 0;  // outlives the run
  const size_t need = static_cast<size_t>(PackLifetimes(blocks));
  // The slab: kept when nothing is cut from it and the plan fits in it without leaving most of it
  // unused, else replaced.
  if (slab_.out > 0 || slab_.bytes < need || need < slab_.bytes / 2) {
    DropSlab();
    if (need > 0) {
      slab_.base = static_cast<uint8_t *>(std::aligned_alloc(kAlign, need));
      if (slab_.base == nullptr) return;  // no plan: the heap serves every Take
      slab_.bytes = need;
      OPENATC_POISON(slab_.base, need);
    }
  }
  plan_bytes_ = std::move(run_bytes_);
  plan_events_ = std::move(run_events_);
  run_bytes_ = {};
  run_events_ = {};
  for (const LifetimeBlock &b : blocks) plan_offsets_.push_back(b.offset);
}

uint8_t *BufferPool::Take(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_run_) return TakeHeap(bytes);
  const auto take = static_cast<uint32_t>(run_bytes_.size());
  run_bytes_.push_back(bytes);
  run_events_.push_back({take, false});
  uint8_t *block = nullptr;
  if (following_) {
    following_ = cursor_ < plan_events_.size() && plan_events_[cursor_] == Event{take, false} &&
                 plan_bytes_[take] == bytes;
    if (following_) {
      ++cursor_;
      if (plan_offsets_[take] >= 0) {
        block = slab_.base + plan_offsets_[take];
        ++slab_.out;
        OPENATC_UNPOISON(block, bytes);
      }
    }
  }
  if (block == nullptr) block = TakeHeap(bytes);
  run_blocks_.push_back(block);
  ++run_out_;
  if (indexed_) run_index_[block] = take;
  return block;
}

// The Take of this run that gave out `block` (-1: none, a block of an earlier run). The planned
// Give is checked first, so a run that follows its plan makes no index.
int64_t BufferPool::FindTake(const uint8_t *block) {
  if (following_ && cursor_ < plan_events_.size()) {
    const Event &e = plan_events_[cursor_];
    if (e.give && e.take < run_blocks_.size() && run_blocks_[e.take] == block) return e.take;
  }
  if (!indexed_) {
    for (size_t t = 0; t < run_blocks_.size(); ++t)
      if (run_blocks_[t] != nullptr) run_index_[run_blocks_[t]] = static_cast<uint32_t>(t);
    indexed_ = true;
  }
  auto it = run_index_.find(block);
  return it == run_index_.end() ? -1 : it->second;
}

void BufferPool::Give(uint8_t *block, size_t bytes) {
  if (block == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (in_run_) {
    const int64_t take = FindTake(block);
    if (take >= 0) {  // a Take of this run (else of an earlier one: not in the pattern)
      const Event give{static_cast<uint32_t>(take), true};
      run_blocks_[give.take] = nullptr;
      --run_out_;
      if (indexed_) run_index_.erase(block);
      run_events_.push_back(give);
      if (following_) {
        following_ = cursor_ < plan_events_.size() && plan_events_[cursor_] == give;
        if (following_) ++cursor_;
      }
    }
  }
  if (!GiveToSlab(block, bytes)) GiveHeap(block, bytes);
}

// True when `block` is a slice of the slab or of a retired one (then it is back).
bool BufferPool::GiveToSlab(uint8_t *block, size_t bytes) {
  auto inside = [block](const Slab &s) { return s.base != nullptr && block >= s.base && block < s.base + s.bytes; };
  if (inside(slab_)) {
    --slab_.out;
    OPENATC_POISON(block, bytes);
    return true;
  }
  for (size_t r = 0; r < retired_.size(); ++r) {
    if (!inside(retired_[r])) continue;
    if (--retired_[r].out == 0) {
      FreeSlab(retired_[r].base, retired_[r].bytes);
      retired_.erase(retired_.begin() + static_cast<std::ptrdiff_t>(r));
    } else {
      OPENATC_POISON(block, bytes);
    }
    return true;
  }
  return false;
}

uint8_t *BufferPool::TakeHeap(size_t bytes) {
  ++heap_takes_;
  taken_bytes_ += bytes;
  if (taken_bytes_ > peak_taken_) peak_taken_ = taken_bytes_;
  auto it = kept_.find(bytes);
  if (it != kept_.end() && !it->second.empty()) {
    uint8_t *b = it->second.back();
    it->second.pop_back();
    kept_bytes_ -= bytes;
    OPENATC_UNPOISON(b, bytes);
    return b;
  }
  auto *b = static_cast<uint8_t *>(std::aligned_alloc(kAlign, bytes));
  if (b == nullptr) {
    taken_bytes_ -= bytes;
    throw std::bad_alloc();
  }
  return b;
}

void BufferPool::GiveHeap(uint8_t *block, size_t bytes) {
  taken_bytes_ -= bytes;
  if (kept_bytes_ + bytes <= peak_taken_) {
    kept_[bytes].push_back(block);
    kept_bytes_ += bytes;
    OPENATC_POISON(block, bytes);
    return;
  }
  std::free(block);
}

void BufferPool::FreeKept() {
  for (auto &[bytes, blocks] : kept_) {
    for (uint8_t *b : blocks) {
      OPENATC_UNPOISON(b, bytes);
      std::free(b);
    }
  }
  kept_.clear();
  kept_bytes_ = 0;
}

BufferPool::Stats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {slab_.bytes, kept_bytes_, heap_takes_};
}

}  // namespace openatc::runtime
