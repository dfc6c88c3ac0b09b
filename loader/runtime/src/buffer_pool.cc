// Run-time output memory kept between runs (buffer_pool.h).
#include "buffer_pool.h"

#include <cstdlib>
#include <new>

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

BufferPool::~BufferPool() {
  for (auto &[bytes, blocks] : kept_) {
    for (uint8_t *b : blocks) {
      OPENATC_UNPOISON(b, bytes);
      std::free(b);
    }
  }
}

uint8_t *BufferPool::Take(size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
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
  }
  auto *b = static_cast<uint8_t *>(std::aligned_alloc(64, bytes));
  if (b == nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    taken_bytes_ -= bytes;
    throw std::bad_alloc();
  }
  return b;
}

void BufferPool::Give(uint8_t *block, size_t bytes) {
  if (block == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    taken_bytes_ -= bytes;
    if (kept_bytes_ + bytes <= peak_taken_) {
      kept_[bytes].push_back(block);
      kept_bytes_ += bytes;
      OPENATC_POISON(block, bytes);
      return;
    }
  }
  std::free(block);
}

size_t BufferPool::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_bytes_;
}

}  // namespace openatc::runtime
