// Whole-graph checks of the GE IR front end: dtype/shape agreement across edges and cycle
// detection (nodes keep file order; reordering is a later pass).
#include <algorithm>

#include "internal.h"
#include "openatc/common/dtype.h"

namespace openatc::frontend::detail {
namespace {

bool FullyKnown(const std::vector<int64_t> &shape) {
  return std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
}

}  // namespace

void CheckEdgeDescs(const ir::Graph &g, const DescOrigin &origin) {
  for (size_t c = 0; c < g.nodes.size(); ++c) {
    const ir::Node &consumer = g.nodes[c];
    for (size_t slot = 0; slot < consumer.inputs.size(); ++slot) {
      const ir::Endpoint &ep = consumer.inputs[slot];
      if (!ep.connected()) continue;
      if (!origin.output_explicit[ep.node] || !origin.input_explicit[c][slot]) continue;
      const ir::Node &producer = g.nodes[ep.node];
      const ir::TensorDesc &out = producer.output_descs[ep.index];
      const ir::TensorDesc &in = consumer.input_descs[slot];
      std::string edge = "input " + std::to_string(slot) + " comes from output " +
                         std::to_string(ep.index) + " of node '" + producer.name + "' (" +
                         producer.type + ")";
      if (out.dtype != ge::DT_UNDEFINED && in.dtype != ge::DT_UNDEFINED && out.dtype != in.dtype) {
        throw GraphError(kDtypeMismatch,
                         edge + ", which is " + DataTypeName(out.dtype) +
                             ", but the input desc says " + DataTypeName(in.dtype),
                         "Make the input_desc dtype equal to the producer's output_desc dtype")
            .WithNode(consumer.name, consumer.type);
      }
      if (FullyKnown(out.shape) && FullyKnown(in.shape) && out.shape != in.shape) {
        throw GraphError(kShapeMismatch,
                         edge + ", which has shape " + ShapeToString(out.shape) +
                             ", but the input desc says " + ShapeToString(in.shape),
                         "Make the input_desc shape equal to the producer's output_desc shape")
            .WithNode(consumer.name, consumer.type);
      }
    }
  }
}

void CheckNoCycle(const ir::Graph &g) {
  const size_t n = g.nodes.size();
  // preds[v] = nodes v depends on (data and control); iterative DFS with colours.
  std::vector<std::vector<int32_t>> preds(n);
  for (size_t v = 0; v < n; ++v) {
    for (const auto &ep : g.nodes[v].inputs)
      if (ep.connected()) preds[v].push_back(ep.node);
    for (int32_t c : g.nodes[v].control_inputs) preds[v].push_back(c);
  }
  enum : uint8_t { kWhite, kGrey, kBlack };
  std::vector<uint8_t> colour(n, kWhite);
  std::vector<std::pair<int32_t, size_t>> stack;  // (node, next pred to visit)
  for (size_t root = 0; root < n; ++root) {
    if (colour[root] != kWhite) continue;
    stack.push_back({static_cast<int32_t>(root), 0});
    colour[root] = kGrey;
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      if (next < preds[v].size()) {
        int32_t p = preds[v][next++];
        if (colour[p] == kWhite) {
          colour[p] = kGrey;
          stack.push_back({p, 0});
        } else if (colour[p] == kGrey) {
          // p is on the stack and feeds v. Stack entry k+1 feeds entry k, so in data-flow
          // order the cycle is p -> v (top) -> ... -> the entry just above p -> p.
          std::string path = g.nodes[p].name;
          for (size_t k = stack.size(); k-- > 0 && stack[k].first != p;)
            path += " -> " + g.nodes[stack[k].first].name;
          path += " -> " + g.nodes[p].name;
          const ir::Node &node = g.nodes[p];
          throw GraphError(kCycle, "the node is on a cycle: " + path,
                           "Break the cycle; a GE graph must be acyclic")
              .WithNode(node.name, node.type);
        }
      } else {
        colour[v] = kBlack;
        stack.pop_back();
      }
    }
  }
}

}  // namespace openatc::frontend::detail
