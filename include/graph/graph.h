/**
 * @file graph/graph.h
 * ge::Graph, an in-memory graph built from Operators (metadef `external/graph/graph.h`):
 * `Graph("name").SetInputs({data}).SetOutputs({add2})`, as the samples' graph builders do
 * (docs/custom-op-lifecycle.md §11). Copies share the graph.
 *
 * SaveToFile / LoadFromFile write and read AIR (binary ge.proto.ModelDef, docs/ge-ir.md §1):
 * the same graph gives the same bytes on every run.
 */
#ifndef OPENATC_GRAPH_GRAPH_H_
#define OPENATC_GRAPH_GRAPH_H_

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/operator.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace ge {

class GraphImpl;

class OPENATC_SDK_API Graph {
 public:
  /// An invalid graph (IsValid() false) until given a name.
  Graph() = default;
  ~Graph() = default;
  explicit Graph(const char_t *name);
  [[deprecated("use Graph(const char_t *)")]] explicit Graph(const std::string &name) : Graph(name.c_str()) {}

  /// The graph's data inputs, in model-input order (usually Data operators).
  Graph &SetInputs(const std::vector<Operator> &inputs);
  /// Graph outputs: every output of each listed operator, in order.
  Graph &SetOutputs(const std::vector<Operator> &outputs);
  /// Graph outputs: the listed output indices of each operator.
  Graph &SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &output_indexs);
  /// Operators that must run although no output depends on them.
  Graph &SetTargets(const std::vector<Operator> &targets);

  /// True when the graph has a name (was constructed with one).
  bool IsValid() const;
  graphStatus GetName(AscendString &name) const;
  /// Number of distinct operators reachable from the inputs, outputs and targets.
  size_t GetOpCount() const;

  /// Writes the graph as an AIR file (binary ge.proto.ModelDef) atomically: nodes in topological
  /// order (producers first, in the order the inputs, outputs and targets reach them), inputs as
  /// "node:index", control inputs as "node:-1". GRAPH_FAILED with the reason logged (and kept as the
  /// SDK's last error) for an invalid graph, a cycle or an unwritable path; nothing is written then.
  graphStatus SaveToFile(const char_t *file_name) const;
  [[deprecated("use SaveToFile(const char_t *)")]] graphStatus SaveToFile(const std::string &file_name) const {
    return SaveToFile(file_name.c_str());
  }
  /// Replaces this graph with the one in an AIR file (graph[0] of the ModelDef). GRAPH_FAILED with
  /// the reason logged for an unreadable or malformed file; the graph is unchanged then.
  graphStatus LoadFromFile(const char_t *file_name);
  [[deprecated("use LoadFromFile(const char_t *)")]] graphStatus LoadFromFile(const std::string &file_name) {
    return LoadFromFile(file_name.c_str());
  }

 private:
  friend class GraphAccess;  // library-internal access
  std::shared_ptr<GraphImpl> impl_;
};

}  // namespace ge

#endif  // OPENATC_GRAPH_GRAPH_H_
