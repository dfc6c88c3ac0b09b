// Op-type resolution (internal to the compiler).
#ifndef OPENATC_COMPILER_RESOLVE_OPS_H_
#define OPENATC_COMPILER_RESOLVE_OPS_H_

#include <string>
#include <vector>

#include "openatc/ir/graph.h"
#include "openatc/opp/deliverable.h"

namespace openatc::compiler {
/// Throws one kGraph error (OA1104) listing every unregistered op type with its nodes, the
/// closest registered names, every OPP root and deliverable searched, and the registered types.
void ResolveOpTypes(const ir::Graph &graph, const opp::CompileOppSet &opp);
}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_RESOLVE_OPS_H_
