// Compile-time constant folding of built-in ops (internal to the compiler; the public entry
// points FoldOptions, BuiltinFoldOptions and RemoveDeadNodes are declared in compiler.h).
#ifndef OPENATC_COMPILER_CONSTANT_FOLDING_H_
#define OPENATC_COMPILER_CONSTANT_FOLDING_H_

#include "openatc/compiler/compiler.h"

namespace openatc::compiler {

/// Called by InferShapes right after `node`'s descriptors are inferred (topological order, so
/// its producers are final). Folds the node into a Const when `options` allows its type and
///  (a) every connected input is a Const with data, or
///  (b) it is `Shape` or `Size` and its input's shape is fully static (run on a zero-filled buffer),
/// the op is deterministic and single-output, and its output fits the size guard
/// (<= options.small_bytes, or <= the bytes of the Const inputs it reads). Folding runs the op's
/// own EagerExecuteOp::Execute on the host; any failure leaves the node unchanged (logged at debug
/// level: the run reports it). On success the node becomes type Const with only the attr `value`,
/// no inputs, no control inputs, and output 0 = the computed tensor. Returns true when folded.
bool TryFoldNode(const ir::Graph &graph, ir::Node &node, const FoldOptions &options);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_CONSTANT_FOLDING_H_
