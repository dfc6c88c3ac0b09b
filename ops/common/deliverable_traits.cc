// What the built-in ops library declares to the runtime about itself
// (include/graph/custom_op_pull_registry.h): its ops compute on the host and launch no kernel, they
// size their outputs in Execute, the ops that shape arithmetic is made of are pure functions of
// their inputs and attributes, and it reports the oneDNN implementations each node ran
// (omrun --profile).
#include "graph/custom_op_pull_registry.h"

#include "common/dnnl_util.h"

extern "C" __attribute__((visibility("default"))) int32_t OpenAtcDeliverableLaunchesNoKernels() { return 1; }

// Every Execute in ops/ computes its outputs' dims and dtype and passes them to MallocOutputTensor
// (common/op_util.h AllocOutput); none reads an output descriptor.
extern "C" __attribute__((visibility("default"))) int32_t OpenAtcDeliverableExecuteSizesOutputs() { return 1; }

// Only ops whose Execute in ops/ reads nothing but its inputs and attributes (the random ops,
// Dropout and the ops with state are not listed).
extern "C" __attribute__((visibility("default"))) const char *OpenAtcDeliverablePureOps() {
  return "Shape Size Gather Unsqueeze Squeeze Concat Slice Cast Reshape Flatten Identity Expand Tile "
         "ConstantOfShape Range Add Sub Mul Div Mod Neg Abs Min Max Floor Ceil Equal Less Greater "
         "LessOrEqual GreaterOrEqual Not And Or Where ReduceProd ReduceSum ReduceMin ReduceMax";
}

// The oneDNN primitives the calling thread's op executions ran since the previous call
// (dnnl_util::TakeKernelTrace); the first call switches the record on.
extern "C" __attribute__((visibility("default"))) const char *OpenAtcDeliverableKernelTrace() {
  return openatc_ops::dnnl_util::TakeKernelTrace();
}
