// AnnotatedArgsOp at compile time (internal to the compiler): DeclareLaunchArgs per node of a
// static graph, its launches serialised into the node attribute `_annotated_launches` (kBytes)
// and its workspace sizes into `_annotated_workspaces` (ListInt). Format (little-endian):
//   u32 version (1), u32 launch count, then per launch: u32 name length, name, u64 binary length,
//   binary, u32 block_dim, u32 slot count, per slot: u32 ge::AddrType, i32 index, u64 value.
#ifndef OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_
#define OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_

#include <map>
#include <string>

#include "compile_ops.h"

namespace openatc::compiler {

inline constexpr const char *kAnnotatedLaunchesAttr = "_annotated_launches";
inline constexpr const char *kAnnotatedWorkspacesAttr = "_annotated_workspaces";

/// Calls DeclareLaunchArgs on every node of an AnnotatedArgsOp type (static graphs only: the
/// plan gives the logical addresses) and stores the records on the node. Throws openatc::Error
/// for a graph with run-time shapes or a failing callback.
void DeclareAnnotatedLaunches(ir::Graph &graph, const std::map<std::string, OpTypeInfo> &types, bool static_plan);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_ANNOTATED_LAUNCHES_H_
