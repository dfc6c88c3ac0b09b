// Python custom ops in the compiler (internal; README.md "Python custom ops").
#ifndef OPENATC_COMPILER_PYTHON_OPS_H_
#define OPENATC_COMPILER_PYTHON_OPS_H_

#include <string>

#include "openatc/compiler/compiler.h"

namespace openatc::compiler {

/// Adds the Python op types with a HOST execute to `fold`: their nodes with all-constant inputs
/// are folded by running the Python execute at compile time, and a failing execute stops atc.
void AddPythonFoldTypes(FoldOptions &fold);

/// True for a Python op type whose class has declare_launch_args: its nodes reach the OM as
/// declared launches (kernel bytes included) and it has no deliverable to embed.
bool IsPythonLaunchOp(const std::string &op_type);

/// An OM never holds Python: throws OA1805 naming the first node of a Python op type that is
/// still in the graph after constant folding and declares no launches (only online flows may
/// keep such nodes).
void CheckNoPythonNodes(const ir::Graph &graph);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_PYTHON_OPS_H_
