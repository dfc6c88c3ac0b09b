/**
 * @file openatc/common/lifetime_packing.h
 * Offsets for blocks with known lifetimes in one arena, so that blocks alive at the same time never
 * share a byte and blocks that are not may: the compiler's static memory plan
 * (atc/compiler/src/memory_plan.cc, lifetimes in node positions) and the runtime's per-shape plan of
 * run-time outputs (loader/runtime/src/buffer_pool.cc, lifetimes in allocation events) both use it.
 */
#ifndef OPENATC_COMMON_LIFETIME_PACKING_H_
#define OPENATC_COMMON_LIFETIME_PACKING_H_

#include <cstdint>
#include <vector>

namespace openatc {

/// One block: `bytes` (0 = not placed) alive from `first` to `last`, both inclusive.
struct LifetimeBlock {
  int64_t bytes = 0;
  int64_t first = 0, last = 0;
  int64_t offset = -1;  ///< set by PackLifetimes (-1 for a block of 0 bytes)
};

/// Sets every block's offset, largest block first (ties in the given order), each at the lowest
/// offset where it overlaps no placed block alive at any of the same times; offsets stay multiples
/// of the blocks' common alignment when every size is a multiple of it. Returns the arena size
/// (the end of the highest block; 0 when nothing is placed). O(n^2) in the number of blocks.
int64_t PackLifetimes(std::vector<LifetimeBlock> &blocks);

}  // namespace openatc

#endif  // OPENATC_COMMON_LIFETIME_PACKING_H_
