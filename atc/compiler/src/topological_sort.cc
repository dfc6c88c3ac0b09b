// Stable topological order (Kahn's algorithm, ties in file order) and index rewriting.
#include <queue>

#include "openatc/common/error.h"
#include "openatc/compiler/compiler.h"

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
}

bool IsFrameworkOp(const std::string &type) {
  return type == ir::kData || type == ir::kConst || type == ir::kConstant || type == ir::kNetOutput;
}

void ApplyInputShapes(ir::Graph &graph, const std::vector<InputShape> &shapes) {
  for (const auto &s : shapes) {
    int32_t idx = graph.FindNode(s.name);
    if (idx < 0 || graph.nodes[static_cast<size_t>(idx)].type != ir::kData) {
      std::string names;
      for (int32_t i : graph.inputs) names += (names.empty() ? "" : ", ") + graph.nodes[static_cast<size_t>(i)].name;
      throw Error(ErrorCategory::kUsage, "E10001",
                  "--input_shape names '" + s.name + "', which is not an input of the graph (inputs: " + names + ")",
                  "Use the names of the graph's Data nodes");
    }
    ir::Node &data = graph.nodes[static_cast<size_t>(idx)];
    for (auto *descs : {&data.input_descs, &data.output_descs}) {
      for (auto &d : *descs) {
        d.shape = s.dims;
        d.origin_shape = s.dims;
      }
    }
  }
}

}  // namespace openatc::compiler
