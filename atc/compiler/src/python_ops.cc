// Python custom ops in the compiler: which fold at compile time, and none left for the OM.
#include "python_ops.h"

#include "openatc/common/error.h"
#include "openatc/python_host/python_host.h"

namespace openatc::compiler {

void AddPythonFoldTypes(FoldOptions &fold) {
  for (const auto &type : python_host::HostExecuteOpTypes()) {
    fold.op_types.insert(type);
    fold.python_types.insert(type);
  }
}

void CheckNoPythonNodes(const ir::Graph &graph) {
  const std::set<std::string> types = python_host::PythonOpTypes();
  if (types.empty()) return;
  for (const auto &node : graph.nodes) {
    if (types.count(node.type) == 0) continue;
    throw Error(ErrorCategory::kGraph, "OA1805",
                "the node's op type is a Python custom op, and an OM never holds Python: only a HOST execute "
                "(@register_kernel(backend=OpBackend.HOST)) whose inputs are all constants runs at compile time "
                "(constant folding), and this node was not folded",
                "Feed the node constants only, or implement the op as a C++ deliverable")
        .WithNode(node.name, node.type);
  }
}

}  // namespace openatc::compiler
