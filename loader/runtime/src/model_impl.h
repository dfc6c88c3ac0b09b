// The state of a loaded model (internal to the runtime).
#ifndef OPENATC_RUNTIME_MODEL_IMPL_H_
#define OPENATC_RUNTIME_MODEL_IMPL_H_

#include <map>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "openatc/common/reduced_float.h"
#include "graph/custom_op.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/frame.h"
#include "openatc/gert/legacy_infer.h"
#include "openatc/opp/deliverable.h"
#include "openatc/weight_packing.h"
#include "annotated.h"
#include "endpoint_index.h"
#include "exec_services.h"
#include "native_ops.h"
#include "shape_value_cache.h"
#include "sink.h"
#include "openatc/runtime/model.h"

namespace openatc::runtime {

struct NodeRuntime {
  std::unique_ptr<gert_impl::NodeInfo> info;   ///< custom ops only
  std::shared_ptr<ge::BaseCustomOp> op;        ///< the per-model op object of the node's type
  ge::EagerExecuteOp *execute = nullptr;
  ge::ShapeInferOp *infer = nullptr;           ///< called per run in dynamic models
  bool has_legacy_infer = false;               ///< no ShapeInferOp, but IMPL_OP hooks (legacy_infer.h)
  gert_impl::LegacyInferHooks legacy_infer;    ///< those hooks, called per run in dynamic models
  ge::ArgsUpdater *updater = nullptr;          ///< patches recorded args when addresses change
  std::string origin;                          ///< deliverable name for messages
  /// Its deliverable launches no kernels (OpenAtcDeliverableLaunchesNoKernels): the run registers
  /// no buffers for the global-memory checks around this node.
  bool launches_no_kernels = false;
  /// Its deliverable's Execute sizes the outputs itself (OpenAtcDeliverableExecuteSizesOutputs):
  /// a dynamic model's run infers no shapes before this node's Execute.
  bool execute_sizes_outputs = false;
  /// Its deliverable lists the node's type in OpenAtcDeliverablePureOps (shape_value_cache.h).
  bool declared_pure = false;
  /// Its deliverable's OpenAtcDeliverableKernelTrace (null: absent), called around the node's
  /// Execute when a NodeObserver watches.
  const char *(*kernel_trace)() = nullptr;
  std::unique_ptr<AnnotatedNode> annotated;    ///< launched from declarations, no Execute
  /// WeightPackingOp::PrepareNode's state (openatc/weight_packing.h), handed to every Execute.
  std::shared_ptr<void> state;
  /// Dynamic models (PrepareForShapes, prepare_nodes.h): the node's WeightPackingOp (null: none)
  /// and the states PrepareNode made for the last kShapeStates distinct input signatures (per
  /// input: dtype, rank, dims), oldest first (shapes that alternate, as in a Loop body, keep theirs).
  openatc::WeightPackingOp *packing = nullptr;
  struct ShapeState {
    std::vector<int64_t> shapes;
    std::shared_ptr<void> state;
  };
  static constexpr size_t kShapeStates = 4;
  std::vector<ShapeState> prepared;
  /// Labels of the outputs the op allocated in an earlier run (ExecServices::set_label_cache):
  /// per output index, the bytes and the label, rebuilt only when the bytes change.
  std::vector<std::pair<size_t, std::string>> output_labels;
  /// The services of the node's eager runs (executor.cc RunNode), made at its first run and
  /// reset after each, so that a run allocates none per node.
  std::unique_ptr<ExecServices> eager_services;
  /// The node's openatc_output_dtype (precision.h), read once at load: float32 outputs are
  /// rounded to it after each run of the node (kNone: not reduced).
  ReducedFloat reduced_to = ReducedFloat::kNone;
};

/// How a run treats a node (executor.cc RunNodes), decided at load from its type.
enum class NodeKind : uint8_t {
  kOutput,    ///< NetOutput: nothing to run
  kData,      ///< a model input
  kConst,     ///< Const / Constant: its weight
  kNative,    ///< run by the runtime (openatc/ir/control_flow.h)
  kIdentity,  ///< Identity: forwards a sequence or optional itself, else as kOp
  kOp,        ///< a custom or built-in operator
};

struct LoadedModel::Impl {
  std::string path;
  om::Model model;
  gert_impl::CustomOpRegistry own_registry;      ///< per-model (embedded deliverables)
  gert_impl::CustomOpRegistry *registry = nullptr;  ///< own_registry, or an external one
  std::vector<opp::Deliverable> deliverables;
  std::vector<NodeRuntime> nodes;        ///< parallel to model.graph.nodes
  /// Made at load (prepare_nodes.cc): the graph's endpoints numbered; consumers of each endpoint
  /// (by that number), graph outputs counting one each; the model input slot of each Data node.
  EndpointIndex endpoints;
  std::vector<size_t> uses;
  std::vector<NodeKind> kinds;  ///< per node
  std::map<int32_t, size_t> input_slot;
  /// Per Const / Constant node (empty for others): how the global-memory checks name its weight.
  std::vector<std::string> const_labels;
  /// Per node, per output: how the global-memory checks name its tensor in the memory plan's arena
  /// (empty when the output has no planned slot or the model no arena). Made at load, so that a
  /// run builds no label text for planned tensors.
  std::vector<std::vector<std::string>> planned_labels;
  std::vector<IoDesc> inputs, outputs;
  /// True when some tensor's shape is known only at run time (a -1 dim): then every ShapeInferOp
  /// node re-infers its outputs from the real inputs before Execute (GE's dynamic-shape path).
  bool dynamic = false;
  /// Dynamic models: the shape arithmetic whose outputs runs reuse (shape_value_cache.h).
  ShapeValueCache shape_values;
  /// Where the run-time outputs' memory (a model without a static plan) is kept between runs.
  std::shared_ptr<BufferPool> pool = std::make_shared<BufferPool>();
  /// The value slots runs reuse (executor.cc RunSlots; opaque here), made at the first run.
  std::shared_ptr<void> run_slots;
  /// The static memory plan's arena (null when the OM has no plan).
  std::unique_ptr<HostBuffer> arena;
  size_t arena_bytes = 0;
  ExecutionMode mode = ExecutionMode::kAuto;
  NodeObserver *observer = nullptr;  ///< set_node_observer
  SinkState sink;
  std::mutex run_mu;  ///< one Run at a time per model
  aclrtStream stream = nullptr;
  /// Dynamic gears (gears.cc): one loaded static variant per om::Model::gears entry.
  std::vector<std::unique_ptr<LoadedModel>> gear_models;
  size_t default_gear = 0;
  size_t current_gear = 0;
  /// Subgraphs of the native control-flow nodes (subgraphs.cc), each loaded as a model on this
  /// model's registry, by (node index, attr name); `subgraph_impls` are their states.
  std::map<std::pair<size_t, std::string>, std::unique_ptr<LoadedModel>> subgraphs;
  std::map<std::pair<size_t, std::string>, LoadedModel::Impl *> subgraph_impls;
};

/// Runs a loaded (sub)graph on values of any kind (executor.cc): a subgraph's Data node of a
/// sequence or optional kind takes such a value; outputs come back as values.
std::vector<RtValue> RunValues(LoadedModel::Impl &im, const std::vector<RtValue> &inputs);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_MODEL_IMPL_H_
