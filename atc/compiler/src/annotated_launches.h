// AnnotatedArgsOp at compile time (internal to the compiler): DeclareLaunchArgs per node of a
// static graph; its launches (kernel binary copied, name, block_dim, argument slots) and
// workspace sizes go into the node's NodePlan, which the OM stores as typed tables.
#ifndef OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_
#define OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_

#include <map>
#include <string>

#include "compile_ops.h"

namespace openatc::compiler {

/// Calls DeclareLaunchArgs on every node of an AnnotatedArgsOp type (static graphs only: the
/// plan gives the logical addresses) and stores them in the node's NodePlan. Throws openatc::Error
/// for a graph with run-time shapes or a failing callback.
void DeclareAnnotatedLaunches(ir::Graph &graph, const std::map<std::string, OpTypeInfo> &types, bool static_plan);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_
