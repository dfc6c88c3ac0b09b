/**
 * @file openatc/ir/control_flow.h
 * The ONNX operators the runtime executes itself rather than through an op object: control flow
 * (If, Loop, Scan, SequenceMap: they run subgraphs) and the sequence and optional operators (their
 * values are not dense tensors, openatc::ir::ValueKind). The compiler infers their outputs from
 * their subgraphs and ONNX semantics (atc/compiler/src/control_flow_shapes.cc), the OM stores
 * their subgraphs as Graph attrs, the runtime runs them (loader/runtime/src/native_ops.cc).
 *
 * Subgraph convention (every front end that produces these nodes follows it): a subgraph's
 * `inputs` are its formal inputs (ONNX GraphProto inputs, in order) followed by one Data node per
 * outer-scope value the subgraph (or a subgraph nested in it) reads. The owning node lists those
 * outer values as extra inputs after its ONNX inputs, and attr kCapturesAttr (Int) counts them;
 * every subgraph of the node captures the same list, in the same order.
 */
#ifndef OPENATC_IR_CONTROL_FLOW_H_
#define OPENATC_IR_CONTROL_FLOW_H_

#include <cstdint>
#include <set>
#include <string>

#include "openatc/ir/graph.h"

namespace openatc::ir {

/// Int attr: how many of the node's last inputs are captured outer-scope values.
inline constexpr const char *kCapturesAttr = "openatc_captures";

/// Deepest subgraph nesting the compiler writes and the OM reader accepts (the main graph is 0).
inline constexpr int kMaxSubgraphDepth = 16;

inline bool IsNativeOp(const std::string &type) {
  static const std::set<std::string> kTypes = {
      "If", "Loop", "Scan", "SequenceMap",
      "SequenceConstruct", "SequenceAt", "SequenceInsert", "SequenceErase", "SequenceLength", "SequenceEmpty",
      "SplitToSequence", "ConcatFromSequence",
      "Optional", "OptionalHasElement", "OptionalGetElement"};
  return kTypes.count(type) != 0;
}

/// Number of captured inputs of `node` (0 when it has none).
inline size_t CapturedInputs(const Node &node) {
  auto it = node.attrs.find(kCapturesAttr);
  return it == node.attrs.end() || it->second.kind != AttrKind::kInt || it->second.i < 0
             ? 0
             : static_cast<size_t>(it->second.i);
}

/// Whether any attr of `node` holds a subgraph.
inline bool HasSubgraphs(const Node &node) {
  for (const auto &[name, a] : node.attrs)
    if (a.kind == AttrKind::kGraph || a.kind == AttrKind::kListGraph) return true;
  return false;
}

/// Calls fn(attr name, graph) for every subgraph attr of `node` (attr-name order).
template <typename NodeT, typename Fn>
void ForEachSubgraph(NodeT &node, Fn &&fn) {
  for (auto &[name, a] : node.attrs) {
    if (a.kind == AttrKind::kGraph && a.g) fn(name, *a.g);
    if (a.kind == AttrKind::kListGraph)
      for (auto &sub : a.list_g)
        if (sub) fn(name, *sub);
  }
}

}  // namespace openatc::ir

#endif  // OPENATC_IR_CONTROL_FLOW_H_
