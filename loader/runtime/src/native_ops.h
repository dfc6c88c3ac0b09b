// The ONNX operators the runtime runs itself (openatc/ir/control_flow.h): control flow over
// subgraphs, sequences and optionals. Internal to the runtime; the executor (executor.cc) calls
// RunNativeOp with the node's input values and a way to run each of its subgraphs.
#ifndef OPENATC_RUNTIME_NATIVE_OPS_H_
#define OPENATC_RUNTIME_NATIVE_OPS_H_

#include <functional>
#include <string>
#include <vector>

#include "openatc/common/host_tensor.h"
#include "openatc/common/host_value.h"
#include "openatc/ir/graph.h"

namespace openatc::runtime {

/// One value of a run, of any ValueKind (openatc/common/host_value.h).
using RtValue = HostValue;

/// Runs the subgraph in attr `attr` of the node on `inputs` (formal inputs then the node's
/// captured values) and returns its outputs.
using SubgraphRunner = std::function<std::vector<RtValue>(const std::string &attr, const std::vector<RtValue> &inputs)>;

/// Executes `node` (IsNativeOp) on `inputs` (one per node input, captured values last) by the
/// ONNX operator's semantics. Throws openatc::Error kInvalidInput OA2210 for a value the op
/// cannot take at run time (a SequenceAt position out of range, a None optional read, ...).
std::vector<RtValue> RunNativeOp(const ir::Node &node, const std::vector<RtValue> &inputs, const SubgraphRunner &run);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_NATIVE_OPS_H_
