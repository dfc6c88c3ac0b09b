// Output descriptors of the ONNX operators the runtime runs itself (openatc/ir/control_flow.h).
#ifndef OPENATC_COMPILER_CONTROL_FLOW_SHAPES_H_
#define OPENATC_COMPILER_CONTROL_FLOW_SHAPES_H_

#include "openatc/ir/graph.h"

namespace openatc::compiler {

/// Sets `node`'s output descs from its input descs (already taken from the producers), by ONNX
/// semantics; for If/Loop/Scan/SequenceMap first gives each subgraph's Data nodes their descs
/// and runs shape inference on the subgraph. Dims that differ between iterations or branches are
/// -1 (resolved at run time). Throws OA1107 for a node whose inputs do not fit its subgraph.
void InferNativeNode(ir::Node &node);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_CONTROL_FLOW_SHAPES_H_
