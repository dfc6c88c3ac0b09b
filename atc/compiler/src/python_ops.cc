// Python custom ops in the compiler: which fold at compile time, which reach the OM as declared
// launches, and no other left for the OM.
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

bool IsPythonLaunchOp(const std::string &op_type) { return python_host::AnnotatedOpTypes().count(op_type) != 0; }

void CheckNoPythonNodes(const ir::Graph &graph) {
  const std::set<std::string> types = python_host::PythonOpTypes();
  if (types.empty()) return;
  const std::set<std::string> launched = python_host::AnnotatedOpTypes();
  for (const auto &node : graph.nodes) {
    if (types.count(node.type) == 0 || launched.count(node.type) != 0) continue;
    throw Error(ErrorCategory::kGraph, "OA1805",
                "the node's op type is a Python custom op, and an OM never holds Python: only a HOST execute "
                "(@register_kernel(backend=OpBackend.HOST)) whose inputs are all constants runs at compile time "
                "(constant folding), and this node was not folded",
                "Feed the node constants only, give the op declare_launch_args (its launches go into the OM), "
                "or implement the op as a C++ deliverable")
        .WithNode(node.name, node.type);
  }
}

}  // namespace openatc::compiler
