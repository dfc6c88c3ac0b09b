// BufferPool: the run-time output memory of one loaded model (internal to the runtime). A model
// without a static memory plan (a -1 dim in an input: per-run shapes) allocates every op output
// when the op asks for it (ExecServices::MallocOutputTensor) and gives it back after its last
// consumer. Freeing that memory to the C library and taking it again on the next run costs fresh
// pages (glibc trims the heap top and unmaps large blocks): ppocr-v4-det took some 4,000 page
// faults a run, half its run time on a 2-core VM.
//
// So the pool plans, as ONNX Runtime's memory patterns do: the executor brackets each run with
// BeginRun / EndRun; the pool records the run's Take and Give order and sizes, and at EndRun packs
// those lifetimes into one block (openatc/common/lifetime_packing.h), the size of what the run had
// out at once plus packing slack. While the next run repeats the order (same shapes), every Take
// is a planned slice of that block: no malloc, no page fault. At the first Take or Give that
// differs (other shapes, a data-dependent size) the rest of the run takes heap blocks, and EndRun
// plans again from that run (reusing the block when the new plan fits in it). Heap blocks are kept
// by exact size, at most the high-water mark of bytes taken at once, until a run repeats its plan.
// A block still out at EndRun (kept by a caller past the run) is never planned over: its block of
// memory is retired and freed when its last block comes back. Free memory, planned or kept, is
// poisoned under AddressSanitizer: a read of a released output is still reported.
#ifndef OPENATC_RUNTIME_BUFFER_POOL_H_
#define OPENATC_RUNTIME_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace openatc::runtime {

class BufferPool {
 public:
  BufferPool() = default;
  ~BufferPool();
  BufferPool(const BufferPool &) = delete;
  BufferPool &operator=(const BufferPool &) = delete;

  /// A run of the model starts / ends (the executor's; runs of one model never overlap).
  void BeginRun();
  void EndRun();

  /// A 64-byte-aligned block of `bytes` (a multiple of 64): a planned slice, a kept block of
  /// exactly that size, or a new one. Its contents are unspecified. Throws std::bad_alloc.
  uint8_t *Take(size_t bytes);
  /// Returns a block Take gave out (with the same `bytes`); null is ignored.
  void Give(uint8_t *block, size_t bytes);

  struct Stats {
    size_t planned_bytes = 0;  ///< the planned block's size (0: no plan)
    size_t kept_bytes = 0;     ///< heap blocks kept for reuse
    size_t heap_takes = 0;     ///< Takes served from the heap (kept or new) since the pool was made
  };
  Stats stats() const;

 private:
  struct Event {
    uint32_t take;  ///< index of the Take in its run
    bool give;      ///< false: the Take, true: its Give
    bool operator==(const Event &o) const { return take == o.take && give == o.give; }
  };
  // A block of memory that planned slices are cut from, with the slices still out.
  struct Slab {
    uint8_t *base = nullptr;
    size_t bytes = 0;
    size_t out = 0;
  };

  uint8_t *TakeHeap(size_t bytes);
  void GiveHeap(uint8_t *block, size_t bytes);
  bool GiveToSlab(uint8_t *block, size_t bytes);
  void Replan();
  void DropSlab();
  void FreeKept();
  int64_t FindTake(const uint8_t *block);

  mutable std::mutex mu_;
  // Heap blocks kept between Takes, by size.
  std::unordered_map<size_t, std::vector<uint8_t *>> kept_;
  size_t kept_bytes_ = 0;
  size_t taken_bytes_ = 0;  ///< heap bytes given out and not yet returned
  size_t peak_taken_ = 0;
  size_t heap_takes_ = 0;
  // This run, as recorded.
  bool in_run_ = false;
  std::vector<size_t> run_bytes_;  ///< size of each Take
  std::vector<Event> run_events_;
  std::vector<uint8_t *> run_blocks_;  ///< each Take's block, null once given back
  size_t run_out_ = 0;                 ///< Takes of this run not given back
  // Block -> its Take, for Gives the plan did not foresee: made at the first one, kept after.
  std::unordered_map<const uint8_t *, uint32_t> run_index_;
  bool indexed_ = false;
  // The plan of the last recorded run, and how far this run has followed it.
  std::vector<size_t> plan_bytes_;
  std::vector<int64_t> plan_offsets_;  ///< -1: that Take's block outlived its run, from the heap
  std::vector<Event> plan_events_;
  size_t cursor_ = 0;
  bool following_ = false;
  Slab slab_;
  std::vector<Slab> retired_;  ///< replaced slabs with slices still out
};

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_BUFFER_POOL_H_
