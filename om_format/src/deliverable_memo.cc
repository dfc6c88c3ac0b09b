// The memo of compressed deliverables (deliverable_memo.h).
#include "deliverable_memo.h"

#include <cstring>
#include <list>
#include <mutex>

namespace openatc::om::detail {
namespace {

struct Entry {
  ir::Bytes raw;
  FrameKey key;
  std::shared_ptr<const std::vector<uint8_t>> frame;  // null when only read: the writer cannot use it
  int level = -1;                                     // the level `frame` was written at
};

std::mutex memo_mutex;
std::list<Entry> &Memo() {  // most recently used first
  static auto *memo = new std::list<Entry>();  // never destroyed: readers may run during exit
  return *memo;
}

// Makes `it` the most recently used.
void Touch(std::list<Entry>::iterator it) { Memo().splice(Memo().begin(), Memo(), it); }

// Adds `e` in front, dropping the least recently used beyond the bound.
void Add(Entry e) {
  auto &memo = Memo();
  memo.push_front(std::move(e));
  if (memo.size() > kDeliverableMemoEntries) memo.pop_back();
}

std::list<Entry>::iterator FindFrame(const FrameKey &key) {
  auto &memo = Memo();
  for (auto it = memo.begin(); it != memo.end(); ++it)
    if (it->key.size == key.size && XXH128_isEqual(it->key.hash, key.hash)) return it;
  return memo.end();
}

}  // namespace

FrameKey KeyOfFrame(const uint8_t *frame, size_t frame_size) { return {XXH3_128bits(frame, frame_size), frame_size}; }

std::optional<std::shared_ptr<const std::vector<uint8_t>>> MemoFrame(const uint8_t *raw, size_t raw_size, int level) {
  if (raw_size < kDeliverableMemoMinBytes) return std::nullopt;
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto &memo = Memo();
  for (auto it = memo.begin(); it != memo.end(); ++it) {
    if (it->frame == nullptr || it->level != level || it->raw.size != raw_size ||
        std::memcmp(it->raw.data, raw, raw_size) != 0)
      continue;
    Touch(it);
    return memo.front().frame;
  }
  return std::nullopt;
}

std::optional<ir::Bytes> MemoRaw(const FrameKey &key) {
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto it = FindFrame(key);
  if (it == Memo().end()) return std::nullopt;
  Touch(it);
  return Memo().front().raw;
}

void MemoRememberWritten(const ir::Bytes &raw, std::shared_ptr<const std::vector<uint8_t>> frame, int level) {
  if (raw.size < kDeliverableMemoMinBytes || frame == nullptr) return;
  const FrameKey key = KeyOfFrame(frame->data(), frame->size());
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto it = FindFrame(key);
  if (it == Memo().end()) {
    Add(Entry{raw, key, std::move(frame), level});
    return;
  }
  if (it->frame == nullptr) {  // known from a read: now the writer can use it
    it->frame = std::move(frame);
    it->level = level;
  }
  Touch(it);
}

void MemoRememberRead(const ir::Bytes &raw, const FrameKey &key) {
  if (raw.size < kDeliverableMemoMinBytes) return;
  std::lock_guard<std::mutex> lock(memo_mutex);
  auto it = FindFrame(key);
  if (it == Memo().end())
    Add(Entry{raw, key, nullptr, -1});
  else
    Touch(it);
}

}  // namespace openatc::om::detail
