// Stable topological order (Kahn's algorithm, ties in file order) and index rewriting.
#include <queue>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/compiler/compiler.h"
#include "openatc/ir/control_flow.h"

namespace openatc::compiler {

void TopologicalSort(ir::Graph &graph) {
  const size_t n = graph.nodes.size();
  std::vector<std::vector<int32_t>> consumers(n);
  std::vector<size_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const ir::Node &node = graph.nodes[i];
    for (const auto &in : node.inputs) {
      if (!in.connected()) continue;
      consumers[static_cast<size_t>(in.node)].push_back(static_cast<int32_t>(i));
      ++pending[i];
    }
    for (int32_t c : node.control_inputs) {
      consumers[static_cast<size_t>(c)].push_back(static_cast<int32_t>(i));
      ++pending[i];
    }
  }
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<int32_t>> ready;
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.push(static_cast<int32_t>(i));
  std::vector<int32_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    int32_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int32_t c : consumers[static_cast<size_t>(i)])
      if (--pending[static_cast<size_t>(c)] == 0) ready.push(c);
  }
  if (order.size() != n) {
    for (size_t i = 0; i < n; ++i) {
      if (pending[i] != 0) {
        throw Error(ErrorCategory::kGraph, "OA1004", "the graph has a cycle through this node",
                    "Remove the edge that closes the cycle")
            .WithNode(graph.nodes[i].name, graph.nodes[i].type);
      }
    }
  }
  std::vector<int32_t> new_index(n);
  for (size_t k = 0; k < n; ++k) new_index[static_cast<size_t>(order[k])] = static_cast<int32_t>(k);
  std::vector<ir::Node> sorted;
  sorted.reserve(n);
  for (int32_t old : order) sorted.push_back(std::move(graph.nodes[static_cast<size_t>(old)]));
  auto remap = [&](ir::Endpoint &e) {
    if (e.connected()) e.node = new_index[static_cast<size_t>(e.node)];
  };
  for (auto &node : sorted) {
    for (auto &in : node.inputs) remap(in);
    for (auto &c : node.control_inputs) c = new_index[static_cast<size_t>(c)];
  }
  for (auto &i : graph.inputs) i = new_index[static_cast<size_t>(i)];
  for (auto &o : graph.outputs) remap(o);
  graph.nodes = std::move(sorted);
  for (auto &node : graph.nodes)  // subgraphs keep their input order (openatc/ir/control_flow.h)
    ir::ForEachSubgraph(node, [](const std::string &, ir::Graph &sub) { TopologicalSort(sub); });
}

namespace {

// The shape the graph declares for what a Data node is fed: its input desc when that has a
// dtype, else its output desc (as shape inference reads it). nullptr when the node has no desc.
const ir::TensorDesc *DeclaredDesc(const ir::Node &data) {
  if (!data.input_descs.empty() && data.input_descs[0].dtype != ge::DT_UNDEFINED) return &data.input_descs[0];
  if (!data.output_descs.empty() && data.output_descs[0].dtype != ge::DT_UNDEFINED) return &data.output_descs[0];
  return nullptr;
}

// "name:d0,d1" as --input_shape spells it (a lo~hi range shows as -1).
std::string EntryText(const std::string &name, const std::vector<int64_t> &dims) {
  std::string t = name + ":";
  for (size_t i = 0; i < dims.size(); ++i) t += (i ? "," : "") + std::to_string(dims[i]);
  return t;
}

std::string RankText(size_t rank) { return std::to_string(rank) + (rank == 1 ? " dim" : " dims"); }

}  // namespace

void ApplyInputShapes(ir::Graph &graph, const std::vector<InputShape> &shapes) {
  // Every entry is checked before any is applied, so a wrong one is reported here, naming the
  // input, rather than later as a shape error inside some operator.
  std::string names;
  for (int32_t i : graph.inputs) names += (names.empty() ? "" : ", ") + graph.nodes[static_cast<size_t>(i)].name;
  for (const auto &s : shapes) {
    int32_t idx = graph.FindNode(s.name);
    if (idx < 0 || graph.nodes[static_cast<size_t>(idx)].type != ir::kData) {
      throw Error(ErrorCategory::kUsage, "E10001",
                  "--input_shape names '" + s.name + "', which is not an input of the graph (" +
                      (names.empty() ? std::string("the graph has no inputs") : "inputs: " + names) + ")",
                  "Use the names of the graph's inputs (Data nodes)");
    }
    const ir::Node &data = graph.nodes[static_cast<size_t>(idx)];
    const ir::TensorDesc *declared = DeclaredDesc(data);
    if (declared == nullptr) continue;  // no desc: nothing to check against (OA1106 follows)
    const std::vector<int64_t> &have = declared->shape;
    if (have.size() == 1 && have[0] == -2) continue;  // unknown rank: any rank fits
    if (have.size() != s.dims.size()) {
      throw Error(ErrorCategory::kUsage, "E10001",
                  "--input_shape entry '" + EntryText(s.name, s.dims) + "' gives " + RankText(s.dims.size()) +
                      ", but the graph declares input '" + s.name + "' with " + RankText(have.size()) + ": " +
                      ShapeToString(have),
                  "Give " + RankText(have.size()) + " for '" + s.name + "' (-1 keeps a dim unknown), e.g. \"" +
                      EntryText(s.name, have) + "\"")
          .WithNode(data.name, data.type);
    }
    // A fixed dim replacing a different fixed dim is allowed (ATC lets --input_shape change
    // e.g. the batch of a model exported with a fixed one), but said, since a graph whose
    // constants assume the old dim then fails later in the op that assumes it.
    std::string changed;
    for (size_t i = 0; i < have.size(); ++i) {
      if (have[i] >= 0 && s.dims[i] >= 0 && have[i] != s.dims[i])
        changed += (changed.empty() ? "" : ", ") + std::string("dim ") + std::to_string(i) + " " +
                   std::to_string(have[i]) + " -> " + std::to_string(s.dims[i]);
    }
    if (!changed.empty()) {
      LogWarning("node '" + data.name + "' (Data): --input_shape entry '" + EntryText(s.name, s.dims) +
                 "' changes the graph's fixed shape " + ShapeToString(have) + " (" + changed +
                 "). If an operator then fails on its shapes, check that the model supports this shape");
    }
  }
  for (const auto &s : shapes) {
    ir::Node &data = graph.nodes[static_cast<size_t>(graph.FindNode(s.name))];
    for (auto *descs : {&data.input_descs, &data.output_descs}) {
      for (auto &d : *descs) {
        d.shape = s.dims;
        d.origin_shape = s.dims;
      }
    }
  }
}

}  // namespace openatc::compiler
