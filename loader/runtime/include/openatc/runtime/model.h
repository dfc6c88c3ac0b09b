/**
 * @file openatc/runtime/model.h
 * A loaded OM ready to run on the host (docs/architecture.md "Data flow", run side). Loading pulls
 * the op creators from the OM's embedded deliverables into a per-model registry (no environment
 * needed), creates one op object per op type and calls Deserialize with its artifact, as GE does
 * for an offline model (docs/custom-op-lifecycle.md §10). Run executes the graph in the OM's
 * topological order, calling EagerExecuteOp::Execute per node on the model's stream.
 *
 * Threading: one Run at a time per LoadedModel (the op objects are shared by their nodes, and
 * GE samples' ops are not thread-safe); different models may run concurrently.
 */
#ifndef OPENATC_RUNTIME_MODEL_H_
#define OPENATC_RUNTIME_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "openatc/common/host_tensor.h"
#include "openatc/common/host_value.h"
#include "openatc/om/model.h"

namespace openatc::gert_impl {
class CustomOpRegistry;
}

namespace openatc::runtime {

/// A model input or output: name (Data node name / producing node "name:index"), dtype, shape
/// (-1 for a dim known only at run time) and byte size (0 when the shape is not static).
/// `value_kind` is what the value is (ONNX model I/O may be a sequence or an optional): for the
/// non-tensor kinds `dtype` and `shape` describe the elements and `bytes` is 0.
struct IoDesc {
  std::string name;
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;
  std::vector<int64_t> shape;
  size_t bytes = 0;
  ir::ValueKind value_kind = ir::ValueKind::kTensor;
};

/// How a static model runs. kAuto: GE's static-model behaviour (record each node's launches on the
/// first run, replay them afterwards; nodes that launched nothing call Execute every run). kEager:
/// call Execute on every node on every run (the dynamic path; for comparison and debugging).
/// Models with run-time shapes always run eagerly.
enum class ExecutionMode { kAuto, kEager };

/// A tensor as a run produced it; `data` is valid only during the NodeObserver call that shows it.
struct TensorView {
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;
  std::vector<int64_t> shape;
  const void *data = nullptr;  ///< null for an output the op left unallocated (nothing reads it)
  size_t bytes = 0;
};

/// Watches a run node by node (omrun --profile and --dump, loader/omrun/src/). Called on the
/// running thread for op nodes only (not Data, Const, NetOutput), in execution order. Must not
/// throw.
class NodeObserver {
 public:
  virtual ~NodeObserver() = default;
  /// Node `index` of model().graph.nodes is about to run.
  virtual void Started(size_t index) = 0;
  /// It ran and its stream is drained: its inputs (in input order, unconnected optional inputs
  /// left out) and outputs (by output index).
  virtual void Finished(size_t index, const std::vector<TensorView> &inputs, const std::vector<TensorView> &outputs) = 0;
  /// Before Finished, when the node's deliverable reports the kernel implementations it ran
  /// (OpenAtcDeliverableKernelTrace, include/graph/custom_op_pull_registry.h); "" when it ran none.
  virtual void Kernel(size_t /*index*/, const std::string & /*implementations*/) {}
};

class LoadedModel {
 public:
  /// Loads `model` (as read by om::ReadFile). `path` names the file in errors. Errors:
  /// kNotOm for an OM built for another target (naming both), kCorruptOm for an unusable embedded
  /// deliverable or a missing artifact, kCustomOp when Deserialize fails.
  static std::unique_ptr<LoadedModel> Load(om::Model model, const std::string &path);
  /// Loads `model` with the op objects of `registry` instead of the OM's embedded deliverables,
  /// and without calling Deserialize: used by `atc --check_portable` to run the graph through the
  /// objects that compiled it. `registry` must outlive the model.
  static std::unique_ptr<LoadedModel> LoadWithRegistry(om::Model model, const std::string &path,
                                                       gert_impl::CustomOpRegistry &registry);
  ~LoadedModel();

  const std::vector<IoDesc> &inputs() const;
  const std::vector<IoDesc> &outputs() const;
  const om::Model &model() const;
  /// Bytes of the static memory plan's arena (0 when the model has no plan: run-time shapes).
  size_t arena_bytes() const;
  /// Models with run-time shapes: the nodes of their shape arithmetic (Shape, Size and the pure
  /// ops computing on their outputs), whose outputs a run reuses while the shapes they read are
  /// those of the run that kept them (loader/runtime/src/shape_value_cache.h); and how many node runs
  /// reused outputs so, since load.
  size_t shape_nodes() const;
  size_t shape_node_reuses() const;
  /// Switches the execution mode; drops any recording (the next run records again).
  void set_execution_mode(ExecutionMode mode);
  /// Installs `observer` for later runs (nullptr removes it). It must outlive those runs.
  void set_node_observer(NodeObserver *observer);

  /// Runs once. `inputs` in model input order; each is checked against the input's dtype and
  /// shape (kInvalidInput naming the input). Returns the outputs in model output order with the
  /// shapes the ops produced. A model with a sequence or optional input or output
  /// (has_value_io()) is refused here (kInvalidInput OA2202 / OA2210 naming it): run it with
  /// RunValues.
  std::vector<HostTensor> Run(const std::vector<HostTensor> &inputs);

  /// Whether some model input or output is not a dense tensor (IoDesc::value_kind).
  bool has_value_io() const;
  /// Runs once on values of any kind, in model input order, returning the outputs in model
  /// output order as values of their IoDesc::value_kind. Each input must be of its input's kind
  /// (a plain tensor is also taken for an optional tensor input, as a present value), its
  /// tensors (a sequence's elements) of the input's dtype, and of its shape for tensor inputs;
  /// else kInvalidInput OA2202 naming the input. A model without such I/O runs as Run; a geared
  /// model with such I/O is refused (OA2202).
  std::vector<HostValue> RunValues(const std::vector<HostValue> &inputs);

  /// Caller-owned memory for one model input or output (host memory of the host target).
  struct Buffer {
    void *data = nullptr;
    size_t size = 0;  ///< bytes
  };
  /// Runs once on caller buffers, as aclmdlExecute does: inputs and outputs in model order, each
  /// exactly the byte size of a static model's input/output (`IoDesc::bytes`), else kInvalidInput
  /// (OA2206) naming it. On a static model, ArgsUpdater nodes and AnnotatedArgsOp nodes (their
  /// declared launches) read and write the caller's buffers directly (args patched / slots refilled
  /// when the addresses change between runs); other nodes read fixed copies. Models with run-time shapes need outputs large enough for the result.
  void RunWithBuffers(const std::vector<Buffer> &inputs, const std::vector<Buffer> &outputs);

  // Dynamic gears (om::Model::gears; loader/runtime/src/gears.cc). A geared model's inputs() are
  // the user inputs with the largest gear's shapes and byte sizes (the largest of any gear) plus
  // the last input om::kGearShapeInput (int32, the values of the gear to run; all zeros = the
  // largest gear); outputs() are sized for the largest gear. Run and RunWithBuffers run the
  // gear's static variant: Run takes each user input with the gear's shape (or the largest
  // shape, whose leading bytes are used) and returns the gear's output shapes; RunWithBuffers
  // uses the leading bytes of each caller buffer, as the chip does.

  /// Number of gears (0: not a geared model).
  size_t gear_count() const;
  /// Inputs (without om::kGearShapeInput) and outputs of gear `g`'s static variant.
  const std::vector<IoDesc> &gear_inputs(size_t g) const;
  const std::vector<IoDesc> &gear_outputs(size_t g) const;
  /// The gear whose values are `values` (all zeros: the largest gear). Otherwise kInvalidInput
  /// OA2209 naming the value and every gear of the model.
  size_t FindGear(const std::vector<int64_t> &values) const;
  /// The largest gear (what runs when no gear is chosen).
  size_t default_gear() const;
  /// The gear the last run used (default_gear() before any run).
  size_t current_gear() const;

  struct Impl;  ///< opaque state (loader/runtime/src/model_impl.h)

 private:
  void LoadGears(gert_impl::CustomOpRegistry *external);
  void LoadSubgraphs();  ///< control-flow bodies (loader/runtime/src/subgraphs.cc)
  std::vector<HostTensor> RunGear(const std::vector<HostTensor> &inputs);
  void RunGearWithBuffers(const std::vector<Buffer> &inputs, const std::vector<Buffer> &outputs);
  LoadedModel();
  static std::unique_ptr<LoadedModel> LoadImpl(om::Model model, const std::string &path,
                                               gert_impl::CustomOpRegistry *external);
  std::unique_ptr<Impl> impl_;
};

/// Reads, verifies and loads an OM file.
std::unique_ptr<LoadedModel> LoadModelFile(const std::string &path);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_MODEL_H_
