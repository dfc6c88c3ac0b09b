// PrepareNodes: per-node state made once at load (prepare_nodes.cc).
#ifndef OPENATC_RUNTIME_PREPARE_NODES_H_
#define OPENATC_RUNTIME_PREPARE_NODES_H_

#include "model_impl.h"

namespace openatc::runtime {

/// After BindNode and DescribeIo: fills Impl::kinds, endpoints, uses and input_slot,
/// NodeRuntime::reduced_to and, for WeightPackingOp nodes
/// of a static model, NodeRuntime::state. Throws openatc::Error (OA1401 form) when PrepareNode fails.
void PrepareNodes(LoadedModel::Impl &im);

/// Dynamic models, per run of WeightPackingOp node i (after InferAtRunTime): PrepareNode on the
/// run's input shapes (constant inputs with data, as at load) unless one of the node's last
/// NodeRuntime::kShapeStates preparations was for the same input dtypes and shapes; sets
/// frame.node_state to the state for those shapes. Nothing for
/// other nodes. Throws openatc::Error when PrepareNode fails.
void PrepareForShapes(LoadedModel::Impl &im, size_t i, gert_impl::Frame &frame);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_PREPARE_NODES_H_
