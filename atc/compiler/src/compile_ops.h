// Per-node Compile and per-type Serialize (internal to the compiler).
#ifndef OPENATC_COMPILER_COMPILE_OPS_H_
#define OPENATC_COMPILER_COMPILE_OPS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "openatc/compiler/compiler.h"

namespace openatc::compiler {

struct OpTypeInfo {
  uint32_t capabilities = 0;
  std::vector<size_t> nodes;  ///< indices into graph.nodes, in topological order
  std::vector<const ir::Node *> nested;  ///< nodes of subgraphs (openatc/ir/control_flow.h), compiled after `nodes`
  std::string origin;         ///< deliverable path for messages
};

/// Custom op types used by the graph, with capabilities detected as GE does. Enforces the
/// portability rule (CompilableOp needs PortableOp; skipped when `require_portable` is false, for
/// online compiles) and that every op can run.
std::map<std::string, OpTypeInfo> CollectOpTypes(const ir::Graph &graph, bool require_portable = true);

/// Calls Compile once per node of every CompilableOp type: nodes of one type one at a time (on
/// their shared object), different types in parallel on up to `jobs` threads. The first failure
/// in node order is rethrown after all workers stop.
void CompileNodes(const ir::Graph &graph, const std::map<std::string, OpTypeInfo> &types, const CompileOptions &opts);

/// Serialize once per PortableOp type, in type-name order. An empty buffer is an error.
std::map<std::string, std::vector<uint8_t>> SerializeOps(const std::map<std::string, OpTypeInfo> &types);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_COMPILE_OPS_H_
