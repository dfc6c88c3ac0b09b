// The static memory plan (docs/architecture.md "Memory"): every custom-op output of a static graph
// that is not a graph output gets an offset in one arena (openatc/common/lifetime_packing.h: largest
// tensor first, at the lowest offset whose bytes are free for the tensor's whole lifetime, producer
// to last consumer in topological order), so tensors whose lifetimes do not overlap share memory.
// With reuse off (atc --disable_reuse_memory=1, GE's ge.exec.disableReuseMemory) every tensor is
// taken as alive for the whole run, so no two share bytes: a debugging aid (a kernel that writes
// out of bounds can no longer corrupt a later tensor's data) at the cost of a larger arena.
// The plan is stored on each node as NodePlan::output_offsets (-1 = not planned; the OM's typed
// NodePlan table), as GE records output offsets on a built model's OpDef (`output_i`).
#include <algorithm>
#include <limits>

#include "openatc/common/dtype.h"
#include "openatc/common/lifetime_packing.h"
#include "openatc/compiler/compiler.h"

namespace openatc::compiler {
namespace {
constexpr int64_t kAlign = 512;  // GE rounds tensor memory up to 512 bytes

}  // namespace

int64_t PlanMemory(ir::Graph &graph, bool reuse) {
  std::vector<LifetimeBlock> items;  // bytes rounded up to kAlign; lifetimes in node positions
  std::vector<std::vector<int32_t>> item_of(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node &n = graph.nodes[i];
    item_of[i].assign(n.output_descs.size(), -1);
    if (IsFrameworkOp(n.type)) continue;
    for (size_t k = 0; k < n.output_descs.size(); ++k) {
      const ir::TensorDesc &d = n.output_descs[k];
      const std::optional<uint64_t> size = TensorByteSize(d.dtype, d.shape);
      // Not a static graph (or a tensor too large to plan): no plan at all.
      if (!size || *size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - kAlign)) return -1;
      const int64_t bytes = std::max<int64_t>(kAlign, (static_cast<int64_t>(*size) + kAlign - 1) / kAlign * kAlign);
      item_of[i][k] = static_cast<int32_t>(items.size());
      items.push_back({bytes, static_cast<int64_t>(i), static_cast<int64_t>(i)});
    }
  }
  // Graph outputs are bound to the caller's buffers: not in the arena.
  for (const auto &o : graph.outputs) {
    int32_t it = item_of[static_cast<size_t>(o.node)][static_cast<size_t>(o.index)];
    if (it >= 0) items[static_cast<size_t>(it)].bytes = 0;
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const auto &in : graph.nodes[i].inputs) {
      if (!in.connected()) continue;
      int32_t it = item_of[static_cast<size_t>(in.node)][static_cast<size_t>(in.index)];
      if (it >= 0) items[static_cast<size_t>(it)].last = std::max(items[static_cast<size_t>(it)].last, static_cast<int64_t>(i));
    }
  }
  if (!reuse)
    for (LifetimeBlock &it : items) {
      it.first = 0;
      it.last = std::numeric_limits<int64_t>::max();
    }
  const int64_t arena = PackLifetimes(items);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    ir::Node &n = graph.nodes[i];
    if (IsFrameworkOp(n.type)) continue;
    n.plan.output_offsets.clear();
    for (int32_t it : item_of[i]) n.plan.output_offsets.push_back(it >= 0 ? items[static_cast<size_t>(it)].offset : -1);
  }
  graph.arena_bytes = arena;
  return arena;
}

}  // namespace openatc::compiler
