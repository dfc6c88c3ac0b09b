// EndpointIndex: every (node, output) endpoint of a loaded graph numbered 0..size()-1 at load, so
// that a run keeps its values and consumer counts in flat arrays instead of ordered maps keyed by
// the pair (internal to the runtime).
#ifndef OPENATC_RUNTIME_ENDPOINT_INDEX_H_
#define OPENATC_RUNTIME_ENDPOINT_INDEX_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "openatc/ir/graph.h"

namespace openatc::runtime {

class EndpointIndex {
 public:
  static constexpr size_t kNone = SIZE_MAX;

  /// Node i gets as many slots as its declared outputs, and more when an edge or a graph output
  /// names a higher output index; Data and Const nodes get at least one.
  void Build(const ir::Graph &g) {
    std::vector<size_t> count(g.nodes.size(), 0);
    auto see = [&](const ir::Endpoint &e) {
      if (e.node >= 0 && static_cast<size_t>(e.node) < count.size() && e.index >= 0)
        count[static_cast<size_t>(e.node)] =
            std::max(count[static_cast<size_t>(e.node)], static_cast<size_t>(e.index) + 1);
    };
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      count[i] = std::max(count[i], g.nodes[i].output_descs.size());
      for (const auto &in : g.nodes[i].inputs)
        if (in.connected()) see(in);
    }
    for (const auto &o : g.outputs) see(o);
    base_.assign(g.nodes.size() + 1, 0);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const bool source = g.nodes[i].type == ir::kData || g.nodes[i].type == ir::kConst || g.nodes[i].type == ir::kConstant;
      base_[i + 1] = base_[i] + std::max(count[i], source ? size_t{1} : size_t{0});
    }
  }

  size_t size() const { return base_.empty() ? 0 : base_.back(); }

  /// The slot of output `index` of node `node`; kNone when the graph has no such endpoint.
  size_t Of(int32_t node, int32_t index) const {
    if (node < 0 || index < 0 || static_cast<size_t>(node) + 1 >= base_.size()) return kNone;
    const size_t slot = base_[static_cast<size_t>(node)] + static_cast<size_t>(index);
    return slot < base_[static_cast<size_t>(node) + 1] ? slot : kNone;
  }

 private:
  std::vector<size_t> base_;  ///< node i's slots are [base_[i], base_[i + 1])
};

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_ENDPOINT_INDEX_H_
