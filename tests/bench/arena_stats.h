// The memory-plan figures arena_bench prints, computed from an OM's graph independently of the
// planner (atc/compiler/src/memory_plan.cc): each planned tensor's byte size and lifetime (producer
// position to last consumer position in the graph's stored order, which is the execution order),
// the peak of live bytes over that order (the lower bound of any arena that never computes in
// place), and a check that no two tensors alive at the same time share arena bytes.
#ifndef OPENATC_TESTS_BENCH_ARENA_STATS_H_
#define OPENATC_TESTS_BENCH_ARENA_STATS_H_

#include <cstdint>
#include <string>

#include "openatc/ir/graph.h"

namespace openatc::bench {

struct ArenaStats {
  bool has_plan = false;     ///< every custom-op node has NodePlan::output_offsets of the right length
  size_t planned = 0;        ///< tensors with an offset >= 0
  size_t candidates = 0;     ///< static op outputs that are not graph outputs (what should be planned)
  size_t unknown = 0;        ///< op outputs whose size is unknown at compile time (they prevent a plan)
  std::string first_unknown; ///< "name (type)" of the first node with such an output
  uint64_t arena_end = 0;    ///< max(offset + bytes) over planned tensors
  /// max(offset + bytes rounded up to 512) over planned tensors: what the planner sizes the arena
  /// to (atc/compiler/src/memory_plan.cc), so a valid plan's arena equals it.
  uint64_t arena_end_aligned = 0;
  uint64_t sum_bytes = 0;    ///< sum of the planned tensors' bytes
  uint64_t peak_live = 0;    ///< max over steps of the bytes of planned tensors alive at that step
  uint64_t peak_live_aligned = 0;  ///< the same with each tensor rounded up to 512 bytes (GE's rule)
  std::string error;         ///< "" or the first problem: order not topological, overlap of live tensors
};

/// Computes the figures for `g` (an OM graph). A tensor is alive from its producer's step to its
/// last consumer's step inclusive (a tensor nobody reads lives one step). Framework nodes (Data,
/// Const, Constant, NetOutput) produce nothing planned. `error` names the node(s) when the stored
/// order is not topological or two planned tensors alive at once overlap in the arena.
ArenaStats ComputeArenaStats(const ir::Graph &g);

}  // namespace openatc::bench

#endif  // OPENATC_TESTS_BENCH_ARENA_STATS_H_
