// Greedy placement of blocks with lifetimes (openatc/common/lifetime_packing.h).
#include "openatc/common/lifetime_packing.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace openatc {

int64_t PackLifetimes(std::vector<LifetimeBlock> &blocks) {
  std::vector<size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return blocks[a].bytes > blocks[b].bytes; });
  std::vector<size_t> placed;
  std::vector<std::pair<int64_t, int64_t>> busy;  // [offset, end) of placed blocks alive with the current one
  int64_t arena = 0;
  for (size_t k : order) {
    LifetimeBlock &b = blocks[k];
    b.offset = -1;
    if (b.bytes <= 0) continue;
    busy.clear();
    for (size_t p : placed)
      if (blocks[p].first <= b.last && b.first <= blocks[p].last) busy.emplace_back(blocks[p].offset, blocks[p].offset + blocks[p].bytes);
    std::sort(busy.begin(), busy.end());
    // The lowest gap of at least b.bytes between the busy ranges, sorted by their start.
    int64_t at = 0;
    for (const auto &[start, end] : busy) {
      if (start - at >= b.bytes) break;
      at = std::max(at, end);
    }
    b.offset = at;
    placed.push_back(k);
    arena = std::max(arena, at + b.bytes);
  }
  return arena;
}

}  // namespace openatc
