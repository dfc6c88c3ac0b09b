/**
 * @file openatc/ir/framework_ops.h
 * Which nodes are the graph's own plumbing rather than operators: the op types with built-in
 * meaning of openatc/ir/graph.h (Data, Const, Constant, NetOutput) and the ONNX operators the runtime
 * runs itself (control flow, sequences, optionals: openatc/ir/control_flow.h). Every other node runs
 * an operator (custom or built-in), gets a plan and an op object. The one home of that rule for the
 * compiler, the OM reader and the runtime.
 */
#ifndef OPENATC_IR_FRAMEWORK_OPS_H_
#define OPENATC_IR_FRAMEWORK_OPS_H_

#include <string>

#include "openatc/ir/control_flow.h"
#include "openatc/ir/graph.h"

namespace openatc::ir {

inline bool IsFrameworkOp(const std::string &type) {
  return type == kData || type == kConst || type == kConstant || type == kNetOutput ||
         IsNativeOp(type);
}

}  // namespace openatc::ir

#endif  // OPENATC_IR_FRAMEWORK_OPS_H_
