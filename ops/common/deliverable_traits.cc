// What the built-in ops library declares to the runtime about itself
// (include/graph/custom_op_pull_registry.h): its ops compute on the host and launch no kernel.
#include "graph/custom_op_pull_registry.h"

extern "C" __attribute__((visibility("default"))) int32_t OpenAtcDeliverableLaunchesNoKernels() { return 1; }
