// The global-memory buffer registry (openatc/rt/gm_registry.h): a map ordered by base with an
// innermost lookup under a shared lock (lookups run on every checked access, from block threads).
#include "openatc/rt/gm_registry.h"

#include <limits>
#include <mutex>

namespace openatc {
namespace rt {

uint64_t GmRegistry::Add(const void *base, uint64_t size, std::string label) {
  if (base == nullptr || size == 0) return 0;
  const uintptr_t b = reinterpret_cast<uintptr_t>(base);
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const uint64_t id = next_id_++;
  const Key key{b, ~size, id};
  entries_.emplace(key, Entry{size, std::move(label)});
  by_id_.emplace(id, key);
  if (size > max_size_) max_size_ = size;
  return id;
}

void GmRegistry::Remove(uint64_t id) {
  if (id == 0) return;
  std::unique_lock<std::shared_mutex> lock(mutex_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return;
  entries_.erase(it->second);
  by_id_.erase(it);
}

// Walks down from the last entry whose base is <= addr; the first entry holding addr is the
// innermost (entries of one base come smallest first on the way down). Entries more than the
// largest registered size below addr cannot hold it, so the walk stops there.
const std::pair<const GmRegistry::Key, GmRegistry::Entry> *GmRegistry::FindLocked(uintptr_t addr) const {
  auto it = entries_.upper_bound(Key{addr, std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()});
  while (it != entries_.begin()) {
    --it;
    const uintptr_t base = std::get<0>(it->first);
    if (addr - base >= max_size_) return nullptr;
    if (addr - base < it->second.size) return &*it;
  }
  return nullptr;
}

bool GmRegistry::Find(const void *addr, GmBuffer *out) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const auto *e = FindLocked(reinterpret_cast<uintptr_t>(addr));
  if (e == nullptr) return false;
  if (out != nullptr) *out = GmBuffer{std::get<0>(e->first), e->second.size, e->second.label};
  return true;
}

bool GmRegistry::Preceding(const void *addr, GmBuffer *out) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = entries_.upper_bound(
      Key{reinterpret_cast<uintptr_t>(addr), std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()});
  if (it == entries_.begin()) return false;
  --it;
  if (out != nullptr) *out = GmBuffer{std::get<0>(it->first), it->second.size, it->second.label};
  return true;
}

bool GmRegistry::Covers(const void *base, uint64_t size) const {
  const uintptr_t b = reinterpret_cast<uintptr_t>(base);
  std::shared_lock<std::shared_mutex> lock(mutex_);
  // Only buffers at or below `base` can cover it; any of them that holds base and reaches the end.
  auto it = entries_.upper_bound(Key{b, std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()});
  while (it != entries_.begin()) {
    --it;
    const uint64_t from_base = b - std::get<0>(it->first);
    if (from_base >= max_size_) return false;
    if (from_base < it->second.size && size <= it->second.size - from_base) return true;
  }
  return false;
}

uint64_t GmRegistry::InBounds(const void *addr, uint64_t size, GmBuffer *holder) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const auto *e = FindLocked(a);
  if (e == nullptr) return 0;
  const uint64_t left = e->second.size - (a - std::get<0>(e->first));
  if (holder != nullptr) *holder = GmBuffer{std::get<0>(e->first), e->second.size, e->second.label};
  return size < left ? size : left;
}

size_t GmRegistry::count() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return entries_.size();
}

GmRegistry &GmRegistry::Process() {
  static GmRegistry *r = new GmRegistry();  // never destroyed: kernels may run during static teardown
  return *r;
}

}  // namespace rt
}  // namespace openatc
