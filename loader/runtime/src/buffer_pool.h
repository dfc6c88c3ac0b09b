// BufferPool: the run-time output memory of one loaded model, kept for the next run (internal to
// the runtime). A model without a static memory plan (a -1 dim in an input: per-run shapes)
// allocates every op output when the op asks for it (ExecServices::MallocOutputTensor) and frees
// it after its last consumer; run after run the sizes repeat, so the blocks are taken back here
// instead of going through malloc, free and fresh pages each time. The pool keeps no more bytes
// than were ever taken at once (its high-water mark), so what it holds between runs never exceeds
// what one run needed. Kept blocks are poisoned under AddressSanitizer: a read of a released
// output is still reported.
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

  /// A 64-byte-aligned block of `bytes` (a multiple of 64): a kept block of exactly that size,
  /// else a new one. Its contents are unspecified. Throws std::bad_alloc.
  uint8_t *Take(size_t bytes);
  /// Returns a block Take gave out (with the same `bytes`): kept while the kept bytes stay within
  /// the high-water mark of bytes taken at once, else freed.
  void Give(uint8_t *block, size_t bytes);

  size_t kept_bytes() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<size_t, std::vector<uint8_t *>> kept_;  ///< by size
  size_t kept_bytes_ = 0;
  size_t taken_bytes_ = 0;  ///< given out and not yet returned
  size_t peak_taken_ = 0;
};

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_BUFFER_POOL_H_
