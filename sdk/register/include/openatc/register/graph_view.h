/**
 * @file openatc/register/graph_view.h
 * INTERNAL (not part of the public SDK): a read-only snapshot of an in-memory ge::Graph, for
 * OpenATC code that turns a graph built with the GE API into its own IR or a file (AIR writer).
 */
#ifndef OPENATC_REGISTER_GRAPH_VIEW_H_
#define OPENATC_REGISTER_GRAPH_VIEW_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "openatc/register/attr_value.h"
#include "openatc/register/op_prototype.h"

namespace openatc::reg {

struct NodeInputView {
  std::string name;     ///< slot name ("x", or "x0" for a dynamic instance)
  std::string ir_name;  ///< IR input name ("x")
  IrInputKind kind = IrInputKind::kRequired;
  int64_t src_node = -1;  ///< index into GraphView::nodes; -1 = not connected
  uint32_t src_output = 0;
  ge::TensorDesc desc;
  bool desc_set = false;  ///< update_input_desc_* was called
};

struct NodeOutputView {
  std::string name;
  std::string ir_name;
  ge::TensorDesc desc;
  bool desc_set = false;
};

struct NodeView {
  std::string name;
  std::string type;
  std::vector<NodeInputView> inputs;    ///< flattened, IR order
  std::vector<NodeOutputView> outputs;  ///< flattened, IR order
  std::vector<std::pair<std::string, AttrValue>> attrs;  ///< in the order first set (IR defaults first)
  std::vector<size_t> control_inputs;
  /// The REG_OP prototype: IR inputs / outputs (name, IrInputKind / IrOutputKind value) in
  /// declaration order, and IR attribute names in declaration order.
  std::vector<std::pair<std::string, int>> ir_inputs;
  std::vector<std::pair<std::string, int>> ir_outputs;
  std::vector<std::string> ir_attr_names;
};

struct GraphView {
  std::string name;
  std::vector<NodeView> nodes;  ///< every reachable node, producers before consumers
  std::vector<size_t> inputs;   ///< Graph::SetInputs order
  std::vector<std::pair<size_t, uint32_t>> outputs;  ///< (node, output index) in SetOutputs order
  std::vector<size_t> targets;
};

/// Snapshot of `graph`: nodes reachable from its inputs, outputs and targets through data and
/// control edges. An empty view for a default-constructed Graph. Throws std::runtime_error
/// (message also in LastSdkError()) when the edges form a cycle.
OPENATC_REG_INTERNAL_API GraphView ViewGraph(const ge::Graph &graph);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_GRAPH_VIEW_H_
