// The memo of compressed deliverables (deliverable_memo.h).
#include "deliverable_memo.h"

#include <xxhash.h>

#include <cstring>
#include <list>
#include <mutex>

namespace openatc::om::detail {
namespace {

struct Entry {
  ir::Bytes raw;
  XXH128_hash_t frame_hash{};
  size_t frame_size = 0;
  std::shared_ptr<const std::vector<uint8_t>> frame;  // null when only read: the writer cannot use it
  int level = -1;                                     // the level `frame` was written at
};

std::mutex memo_mutex;
std::list<Entry> &Memo() {  // most recently used first
  static auto *memo = new std::list<Entry>();  // never destroyed: readers may run during exit
  return *memo;
}

// Moves `it` to the front, or adds `e` there (dropping the least recently used beyond the bound).
void Keep(std::list<Entry>::iterator it, Entry e) {
  auto &memo = Memo();
  if (it != memo.end()) {
    memo.splice(memo.begin(), memo, it);
    return;
  }
  memo.push_front(std::move(e));
  if (memo.size() > kDeliverableMemoEntries) memo.pop_back();
}

std::list<Entry>::iterator FindFrame(XXH128_hash_t h, size_t frame_size) {
  auto &memo = Memo();
  for (auto it = memo.begin(); it != memo.end(); ++it)
    if (it->frame_size == frame_size && XXH128_isEqual(it->frame_hash, h)) return it;
  return memo.end();
}

}  // namespace

std::optional<std::shared_ptr<const std::vector<uint8_t>>> MemoFrame(const uint8_t *raw, size_t raw_size, int level) {
  if (raw_size < kDeliverableMemoMinBytes) return std::nullopt;
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto &memo = Memo();
  for (auto it = memo.begin(); it != memo.end(); ++it) {
    if (it->frame == nullptr || it->level != level || it->raw.size != raw_size ||
        std::memcmp(it->raw.data, raw, raw_size) != 0)
      continue;
    Keep(it, {});
    return memo.front().frame;
  }
  return std::nullopt;
}

std::optional<ir::Bytes> MemoRaw(const uint8_t *frame, size_t frame_size) {
  const XXH128_hash_t h = XXH3_128bits(frame, frame_size);
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto it = FindFrame(h, frame_size);
  if (it == Memo().end()) return std::nullopt;
  Keep(it, {});
  return Memo().front().raw;
}

void MemoRememberWritten(const ir::Bytes &raw, std::shared_ptr<const std::vector<uint8_t>> frame, int level) {
  if (raw.size < kDeliverableMemoMinBytes || frame == nullptr) return;
  const XXH128_hash_t h = XXH3_128bits(frame->data(), frame->size());
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto it = FindFrame(h, frame->size());
  if (it != Memo().end() && it->frame == nullptr) {  // known from a read: now the writer can use it
    it->frame = frame;
    it->level = level;
  }
  Keep(it, Entry{raw, h, frame->size(), std::move(frame), level});
}

void MemoRememberRead(const ir::Bytes &raw, const uint8_t *frame, size_t frame_size) {
  if (raw.size < kDeliverableMemoMinBytes) return;
  const XXH128_hash_t h = XXH3_128bits(frame, frame_size);
  std::lock_guard<std::mutex> lock(memo_mutex);
  Keep(FindFrame(h, frame_size), Entry{raw, h, frame_size, nullptr, -1});
}

}  // namespace openatc::om::detail
