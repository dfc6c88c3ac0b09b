// PrepareNodes: per-node state made once at load (prepare_nodes.cc).
#ifndef OPENATC_RUNTIME_PREPARE_NODES_H_
#define OPENATC_RUNTIME_PREPARE_NODES_H_

#include "model_impl.h"

namespace openatc::runtime {

/// After BindNode and DescribeIo: fills Impl::uses and input_slot, NodeRuntime::reduced_to and, for WeightPackingOp nodes
/// of a static model, NodeRuntime::state. Throws openatc::Error (OA1401 form) when PrepareNode fails.
void PrepareNodes(LoadedModel::Impl &im);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_PREPARE_NODES_H_
