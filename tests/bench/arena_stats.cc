// ComputeArenaStats: lifetimes, peak of live bytes and overlap check of an OM's memory plan
// (see arena_stats.h).
#include "arena_stats.h"

#include <algorithm>
#include <vector>

#include "openatc/common/dtype.h"
#include "openatc/ir/framework_ops.h"

namespace openatc::bench {
namespace {

constexpr uint64_t kAlign = 512;

struct Tensor {
  size_t node = 0, index = 0;
  uint64_t bytes = 0;
  size_t first = 0, last = 0;  // steps
  int64_t offset = -1;
};

}  // namespace

ArenaStats ComputeArenaStats(const ir::Graph &g) {
  ArenaStats s;
  const size_t n = g.nodes.size();
  // The stored order must be topological: every producer comes before its consumers.
  for (size_t i = 0; i < n && s.error.empty(); ++i) {
    for (const auto &in : g.nodes[i].inputs)
      if (in.connected() && static_cast<size_t>(in.node) >= i)
        s.error = "node '" + g.nodes[i].name + "' comes before its producer in the stored order";
    for (int32_t c : g.nodes[i].control_inputs)
      if (c >= 0 && static_cast<size_t>(c) >= i)
        s.error = "node '" + g.nodes[i].name + "' comes before its control input in the stored order";
  }
  // Graph outputs live in the caller's buffers.
  std::vector<std::vector<bool>> is_output(n);
  for (size_t i = 0; i < n; ++i) is_output[i].assign(g.nodes[i].output_descs.size(), false);
  for (const auto &o : g.outputs)
    if (o.connected() && static_cast<size_t>(o.node) < n && static_cast<size_t>(o.index) < is_output[o.node].size())
      is_output[o.node][o.index] = true;

  std::vector<Tensor> tensors;
  std::vector<std::vector<int64_t>> tensor_of(n);
  s.has_plan = true;
  for (size_t i = 0; i < n; ++i) {
    const ir::Node &node = g.nodes[i];
    tensor_of[i].assign(node.output_descs.size(), -1);
    if (ir::IsFrameworkOp(node.type)) continue;
    const std::vector<int64_t> &offsets = node.plan.output_offsets;
    const bool node_planned = offsets.size() == node.output_descs.size();
    if (!node_planned) s.has_plan = false;
    for (size_t k = 0; k < node.output_descs.size(); ++k) {
      const int64_t count = ShapeElementCount(node.output_descs[k].shape);
      const size_t esize = DataTypeSize(node.output_descs[k].dtype);
      const int64_t offset = node_planned ? offsets[k] : -1;
      if (count >= 0 && esize > 0 && !is_output[i][k]) ++s.candidates;
      if (count < 0 || esize == 0) {
        if (s.unknown++ == 0) s.first_unknown = node.name + " (" + node.type + ")";
      }
      if (offset < 0) continue;
      if (count < 0 || esize == 0) {
        if (s.error.empty()) s.error = "node '" + node.name + "' has an offset for an output of unknown size";
        continue;
      }
      tensor_of[i][k] = static_cast<int64_t>(tensors.size());
      tensors.push_back({i, k, static_cast<uint64_t>(count) * esize, i, i, offset});
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (const auto &in : g.nodes[i].inputs) {
      if (!in.connected() || static_cast<size_t>(in.node) >= n) continue;
      const auto &outs = tensor_of[static_cast<size_t>(in.node)];
      if (static_cast<size_t>(in.index) >= outs.size() || outs[static_cast<size_t>(in.index)] < 0) continue;
      Tensor &t = tensors[static_cast<size_t>(outs[static_cast<size_t>(in.index)])];
      t.last = std::max(t.last, i);
    }
  s.planned = tensors.size();
  // Live bytes per step: +bytes at `first`, -bytes after `last`.
  std::vector<int64_t> delta(n + 1, 0), delta_aligned(n + 1, 0);
  for (const Tensor &t : tensors) {
    s.sum_bytes += t.bytes;
    s.arena_end = std::max<uint64_t>(s.arena_end, static_cast<uint64_t>(t.offset) + t.bytes);
    const uint64_t aligned = std::max(kAlign, (t.bytes + kAlign - 1) / kAlign * kAlign);
    s.arena_end_aligned = std::max<uint64_t>(s.arena_end_aligned, static_cast<uint64_t>(t.offset) + aligned);
    delta[t.first] += static_cast<int64_t>(t.bytes);
    delta[t.last + 1] -= static_cast<int64_t>(t.bytes);
    delta_aligned[t.first] += static_cast<int64_t>(aligned);
    delta_aligned[t.last + 1] -= static_cast<int64_t>(aligned);
  }
  int64_t live = 0, live_aligned = 0;
  for (size_t i = 0; i < n; ++i) {
    live += delta[i];
    live_aligned += delta_aligned[i];
    s.peak_live = std::max(s.peak_live, static_cast<uint64_t>(live));
    s.peak_live_aligned = std::max(s.peak_live_aligned, static_cast<uint64_t>(live_aligned));
  }
  // No two tensors alive at the same step may share a byte.
  for (size_t a = 0; a < tensors.size() && s.error.empty(); ++a)
    for (size_t b = a + 1; b < tensors.size(); ++b) {
      const Tensor &x = tensors[a], &y = tensors[b];
      const bool together = x.first <= y.last && y.first <= x.last;
      const uint64_t xo = static_cast<uint64_t>(x.offset), yo = static_cast<uint64_t>(y.offset);
      const bool share = x.bytes > 0 && y.bytes > 0 && xo < yo + y.bytes && yo < xo + x.bytes;
      if (together && share) {
        s.error = "outputs of '" + g.nodes[x.node].name + "' and '" + g.nodes[y.node].name +
                  "' are alive at the same time but overlap in the arena";
        break;
      }
    }
  return s;
}

}  // namespace openatc::bench
