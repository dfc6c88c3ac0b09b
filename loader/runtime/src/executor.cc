// LoadedModel::Run: nodes run in the OM's topological order. Dynamic models (and kEager) call
// every custom op's Execute on every run (docs/custom-op-lifecycle.md §10, dynamic shapes; in
// dynamic models after its InferShape unless its deliverable sizes outputs in Execute), their
// WeightPackingOp nodes prepared once per distinct input shapes (prepare_nodes.h); static
// models record each node's launches on the first run and replay them afterwards (sink.h). An
// output's buffer is released after its last consumer ran. While a node runs, its input and output
// tensors are registered for the global-memory checks (openatc/rt/gm_registry.h) under their
// names, unless a registered buffer already holds them (an aclrtMalloc'd caller buffer, memory the
// run allocated): planned tensors share arena bytes across lifetimes, so a planned tensor is
// registered only while a node that reads or writes it runs.
#include <cstring>
#include <map>

#include "exec_services.h"
#include "openatc/rt/gm_registry.h"
#include "openatc/rt/runtime.h"
#include "model_impl.h"
#include "prepare_nodes.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/reduced_float.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/opp/call_guard.h"
#include "openatc/ir/control_flow.h"

namespace openatc::runtime {
namespace {

struct Value {
  gert::Tensor tensor;                  // what consumers see
  std::shared_ptr<HostBuffer> storage;  // keeps the bytes alive (null for weights)
  size_t pending = 0;                   // consumers not yet run
  std::shared_ptr<const RtValue> aggregate;  // a sequence or optional (then `tensor` is unused)
  bool live = false;                    // produced in this run and not yet released
  bool weight_bound = false;            // a Const's slot: `tensor` describes its weight (set once)
};

// The value slots a model's runs reuse (Impl::run_slots): made at the first run, handed to each
// run and back, so that a run builds no slot and binds each weight's tensor once.
struct RunSlots {
  std::vector<Value> values;
};

bool ShapeMatches(const std::vector<int64_t> &want, const std::vector<int64_t> &got) {
  if (want.size() == 1 && want[0] == -2) return true;
  if (want.size() != got.size()) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] >= 0 && want[i] != got[i]) return false;
  return true;
}

// The bounds atc recorded from --input_shape "lo~hi" (Data node attr "_input_shape_range", one
// [lo, hi] per dim, hi -1 = unbounded; atc/driver/src/input_ranges.h); "" when `got` is inside
// them, else the range as text ("[1~4,3]") for the error.
std::string OutsideRange(const ir::Node &data, const std::vector<int64_t> &got) {
  auto it = data.attrs.find("_input_shape_range");
  if (it == data.attrs.end() || it->second.kind != ir::AttrKind::kListListInt) return "";
  const auto &ranges = it->second.list_list_i;
  bool inside = ranges.size() == got.size();
  std::string text;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (ranges[i].size() != 2) return "";
    const int64_t lo = ranges[i][0], hi = ranges[i][1];
    text += (i ? "," : "") + (lo == hi ? std::to_string(lo) : std::to_string(lo) + "~" + std::to_string(hi));
    if (i < got.size()) inside = inside && got[i] >= lo && (hi < 0 || got[i] <= hi);
  }
  return inside ? std::string() : "[" + text + "]";
}

// True when the bound result buffer holds exactly what the tensor describes (the op wrote into
// it with the compiled shape), so it can be returned without a copy.
bool BoundResultValid(const gert::Tensor &t, const HostTensor &h) {
  return t.GetAddr() == h.data.data() && gert_impl::FromGertShape(t.GetStorageShape()) == h.shape &&
         t.GetDataType() == h.dtype;
}

HostTensor ToHost(const gert::Tensor &t) {
  HostTensor h;
  h.dtype = t.GetDataType();
  h.shape = gert_impl::FromGertShape(t.GetStorageShape());
  size_t bytes = static_cast<size_t>(TensorByteSize(h.dtype, h.shape).value_or(0));
  if (bytes > t.GetSize()) bytes = t.GetSize();
  h.data.resize(bytes);
  if (bytes) std::memcpy(h.data.data(), t.GetAddr(), bytes);
  return h;
}

// GE's dynamic-shape path: InferDataType and InferShape (of the ShapeInferOp, else the legacy
// IMPL_OP hooks) on the real input shapes, so output descriptors carry this run's shapes before
// Execute.
void InferAtRunTime(const ir::Node &node, const NodeRuntime &nr, gert_impl::Frame &frame) {
  auto dt = gert_impl::ContextAccess::Make<gert::InferDataTypeContext>(&frame);
  auto sh = gert_impl::ContextAccess::Make<gert::InferShapeContext>(&frame);
  if (nr.infer != nullptr) {
    opp::GuardedCall({node.name, node.type, "InferDataType", nr.origin}, [&] { return nr.infer->InferDataType(dt.get()); });
    opp::GuardedCall({node.name, node.type, "InferShape", nr.origin}, [&] { return nr.infer->InferShape(sh.get()); });
  } else {  // legacy IMPL_OP hooks (legacy_infer.h)
    const gert_impl::LegacyInferHooks &h = nr.legacy_infer;
    if (h.infer_datatype != nullptr) {
      opp::GuardedCall({node.name, node.type, "IMPL_OP InferDataType", nr.origin},
                       [&] { return h.infer_datatype(dt.get()); });
    } else {
      gert_impl::InferDataTypesFromPrototype(frame, h.dtype_same_as_first_input);
    }
    if (h.infer_shape != nullptr) {
      opp::GuardedCall({node.name, node.type, "IMPL_OP InferShape", nr.origin}, [&] { return h.infer_shape(sh.get()); });
    }
  }
  for (gert::Tensor *t : frame.outputs) t->MutableStorageShape() = t->GetOriginShape();
}

}  // namespace

namespace {

using Key = std::pair<int32_t, int32_t>;

// One run's values, one slot per endpoint of the graph (endpoint_index.h), in the model's kept
// slots (RunSlots), taken for the run and given back released.
class ValueTable {
 public:
  explicit ValueTable(LoadedModel::Impl &im) : index_(im.endpoints), kept_(Slots(im)) {
    slots_.swap(kept_.values);
    if (slots_.size() != index_.size()) slots_ = std::vector<Value>(index_.size());
  }
  ~ValueTable() {
    for (Value &v : slots_)
      if (v.live) erase(&v);
    slots_.swap(kept_.values);
  }
  ValueTable(const ValueTable &) = delete;
  ValueTable &operator=(const ValueTable &) = delete;
  // The live value of endpoint `k`, or null.
  Value *find(const Key &k) {
    const size_t s = index_.Of(k.first, k.second);
    return s == EndpointIndex::kNone || !slots_[s].live ? nullptr : &slots_[s];
  }
  const Value *find(const Key &k) const { return const_cast<ValueTable *>(this)->find(k); }
  Value &at(const Key &k) {
    if (Value *v = find(k)) return *v;
    throw std::out_of_range("no value for output " + std::to_string(k.second) + " of node " + std::to_string(k.first));
  }
  // The value of endpoint `k`, made live (empty) when it was not.
  Value &operator[](const Key &k) {
    const size_t s = index_.Of(k.first, k.second);
    if (s == EndpointIndex::kNone)
      throw std::out_of_range("the graph has no output " + std::to_string(k.second) + " of node " + std::to_string(k.first));
    slots_[s].live = true;
    return slots_[s];
  }
  // Releases the value (and the memory it keeps alive). Its tensor is left as it was: an endpoint
  // is produced once a run, and its producer sets the whole tensor.
  void erase(Value *v) {
    v->storage.reset();
    v->aggregate.reset();
    v->pending = 0;
    v->live = false;
  }

 private:
  static RunSlots &Slots(LoadedModel::Impl &im) {
    if (!im.run_slots) im.run_slots = std::make_shared<RunSlots>();
    return *static_cast<RunSlots *>(im.run_slots.get());
  }

  const EndpointIndex &index_;
  RunSlots &kept_;
  std::vector<Value> slots_;
};

// One model input as the executor reads it.
struct InView {
  const void *data;
  size_t size;
  ge::DataType dtype;
  std::vector<int64_t> shape;
  const RtValue *aggregate = nullptr;  ///< a sequence or optional fed to a subgraph (RunValues)
};

// Input then output addresses of a frame (what recorded launches depend on).
std::vector<const void *> Addresses(const gert_impl::Frame &f) {
  std::vector<const void *> a;
  for (const gert::Tensor *t : f.inputs) a.push_back(t ? t->GetAddr() : nullptr);
  for (const gert::Tensor *t : f.outputs) a.push_back(t->GetAddr());
  return a;
}

void CallExecute(const ir::Node &node, const NodeRuntime &nr, gert_impl::Frame &frame, void *stream) {
  auto ctx = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&frame);
  opp::GuardedCall({node.name, node.type, "Execute", nr.origin}, [&] { return nr.execute->Execute(ctx.get()); });
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
    throw Error(ErrorCategory::kCustomOp, "OA2203", std::string("a kernel launched by Execute failed: ") + aclGetRecentErrMsg())
        .WithNode(node.name, node.type);
  }
}

// The node's services for runs that call its Execute (NodeRuntime::eager_services), made at its
// first such run.
ExecServices *EagerServices(LoadedModel::Impl &im, NodeRuntime &nr) {
  if (!nr.eager_services) {
    nr.eager_services = std::make_unique<ExecServices>(im.stream, im.pool, !nr.launches_no_kernels);
    nr.eager_services->set_label_cache(&nr.output_labels);
  }
  return nr.eager_services.get();
}

// Executes (or replays) one custom node with the frame prepared by the caller. Returns the
// services that own its outputs' memory (null for replayed nodes: their memory is planned): the
// node's own, kept between runs (EagerServices, reset by the caller once the outputs are taken),
// or new ones handed over in `made` (a recording run, whose services a sunk node keeps).
ExecServices *RunNode(LoadedModel::Impl &im, size_t i, gert_impl::Frame &frame, bool sink,
                      std::unique_ptr<ExecServices> &made) {
  const ir::Node &node = im.model.graph.nodes[i];
  NodeRuntime &nr = im.nodes[i];
  if (nr.annotated != nullptr) {
    for (size_t k = 0; k < frame.outputs.size(); ++k) {
      if (frame.outputs[k]->GetAddr() == nullptr) {
        throw Error(ErrorCategory::kCustomOp, "OA2207", "output " + std::to_string(k) + " has no planned memory",
                    "Declared launches need a static model")
            .WithNode(node.name, node.type);
      }
    }
    try {
      LaunchAnnotated(*nr.annotated, frame, im.stream);
    } catch (Error &e) {
      e.WithNode(node.name, node.type);
      throw;
    }
    return nullptr;  // outputs are the planned / bound memory
  }
  if (!sink) {
    ExecServices *services = EagerServices(im, nr);
    frame.services = services;
    if (im.dynamic && !nr.execute_sizes_outputs && (nr.infer != nullptr || nr.has_legacy_infer))
      InferAtRunTime(node, nr, frame);
    if (im.dynamic) PrepareForShapes(im, i, frame);
    CallExecute(node, nr, frame, im.stream);
    return services;
  }
  SinkRecord &rec = im.sink.records[i];
  const std::vector<const void *> addrs = Addresses(frame);
  if (rec.sunk) {
    const bool changed = addrs != rec.addrs;
    if (!changed || (rec.patchable && nr.updater != nullptr)) {
      if (changed) {
        frame.services = rec.services.get();
        auto ctx = gert_impl::ContextAccess::Make<gert::UpdateArgsContext>(&frame);
        opp::GuardedCall({node.name, node.type, "UpdateHostArgs", nr.origin},
                         [&] { return nr.updater->UpdateHostArgs(ctx.get()); });
        rec.services->SyncArgsToDevice();
        rec.addrs = addrs;
      }
      try {
        ReplayLaunches(rec, im.stream);
      } catch (Error &e) {
        e.WithNode(node.name, node.type);
        throw;
      }
      if (aclrtSynchronizeStream(im.stream) != ACL_SUCCESS) {
        throw Error(ErrorCategory::kCustomOp, "OA2203", std::string("a replayed kernel failed: ") + aclGetRecentErrMsg())
            .WithNode(node.name, node.type);
      }
      return nullptr;
    }
    rec = SinkRecord{};  // addresses moved and nothing can patch them: record again
  }
  if (rec.captured) {  // a host-side node: Execute every run
    ExecServices *services = EagerServices(im, nr);
    frame.services = services;
    CallExecute(node, nr, frame, im.stream);
    return services;
  }
  made = std::make_unique<ExecServices>(im.stream, im.pool, !nr.launches_no_kernels);
  ExecServices *services = made.get();
  frame.services = services;
  std::vector<rt::LaunchRecord> launches;
  rt::SetLaunchObserver(im.stream, [&launches](const rt::LaunchRecord &r) { launches.push_back(r); });
  try {
    CallExecute(node, nr, frame, im.stream);
  } catch (...) {
    rt::ClearLaunchObserver(im.stream);
    throw;
  }
  rt::ClearLaunchObserver(im.stream);
  rec.captured = true;
  bool all_prebound = true;
  for (size_t k = 0; k < frame.outputs.size(); ++k) all_prebound = all_prebound && services->used_prebound(k);
  if (launches.empty() || !all_prebound) return services;  // stays eager
  rec.sunk = true;
  rec.patchable = true;
  for (const auto &l : launches) rec.patchable = rec.patchable && !l.host_args_copied && services->args_blocks() > 0;
  rec.launches = std::move(launches);
  rec.addrs = addrs;
  rec.services = std::move(made);
  return nullptr;
}

std::vector<HostTensor> RunCore(LoadedModel::Impl &im, const std::vector<InView> &inputs,
                                           const std::vector<LoadedModel::Buffer> *direct);

}  // namespace

std::vector<HostTensor> LoadedModel::Run(const std::vector<HostTensor> &inputs) {
  if (!impl_->gear_models.empty()) return RunGear(inputs);
  std::vector<InView> views;
  for (const auto &t : inputs) views.push_back({t.data.data(), t.data.size(), t.dtype, t.shape});
  return RunCore(*impl_, views, nullptr);
}

void LoadedModel::RunWithBuffers(const std::vector<Buffer> &inputs, const std::vector<Buffer> &outputs) {
  if (!impl_->gear_models.empty()) return RunGearWithBuffers(inputs, outputs);
  Impl &im = *impl_;
  if (inputs.size() != im.inputs.size() || outputs.size() != im.outputs.size()) {
    throw Error(ErrorCategory::kInvalidInput, "OA2201",
                "the model has " + std::to_string(im.inputs.size()) + " inputs and " + std::to_string(im.outputs.size()) +
                    " outputs but " + std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()) +
                    " buffers were given",
                "Pass one buffer per model input and output, in model order");
  }
  std::vector<InView> views;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const IoDesc &d = im.inputs[k];
    if (inputs[k].data == nullptr || (d.bytes != 0 && inputs[k].size != d.bytes)) {
      throw Error(ErrorCategory::kInvalidInput, "OA2206",
                  "input " + std::to_string(k) + " ('" + d.name + "') needs a buffer of " + std::to_string(d.bytes) +
                      " bytes but got " + std::to_string(inputs[k].size) + (inputs[k].data ? "" : " at a null address"),
                  "Size the buffer as the model input (omrun --info lists them)");
    }
    views.push_back({inputs[k].data, inputs[k].size, d.dtype, d.shape});
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const IoDesc &d = im.outputs[k];
    if (outputs[k].data == nullptr || (d.bytes != 0 && outputs[k].size != d.bytes)) {
      throw Error(ErrorCategory::kInvalidInput, "OA2206",
                  "output " + std::to_string(k) + " ('" + d.name + "') needs a buffer of " + std::to_string(d.bytes) +
                      " bytes but got " + std::to_string(outputs[k].size) + (outputs[k].data ? "" : " at a null address"),
                  "Size the buffer as the model output (omrun --info lists them)");
    }
  }
  RunCore(im, views, &outputs);
}

namespace {

// One run's state and its steps, in order: BindOutputs, then per node FeedInput / BindConst /
// RunCustom, then Collect.
class Run {
 public:
  Run(LoadedModel::Impl &im, const std::vector<InView> &inputs, const std::vector<LoadedModel::Buffer> *direct)
      : im_(im), g_(im.model.graph), inputs_(inputs), direct_(direct),
        sink_(im.mode == ExecutionMode::kAuto && !im.dynamic), values_(im), results_(g_.outputs.size()) {
    if (sink_ && im.sink.records.empty()) {
      im.sink.records.resize(g_.nodes.size());
      im.sink.inputs.resize(g_.inputs.size());
      im.sink.outputs.resize(g_.outputs.size());
    }
  }

  std::vector<HostTensor> Execute() {
    BindOutputs();
    RunNodes();
    return Collect();
  }

  // Execute for a subgraph: its outputs as values (sequences and optionals included).
  std::vector<RtValue> ExecuteValues() {
    RunNodes();
    std::vector<RtValue> out;
    for (const auto &o : g_.outputs) out.push_back(ValueOf(values_.at({o.node, o.index})));
    return out;
  }

 private:
  // Consumers of endpoint `e` (graph outputs count as one each), counted at load.
  size_t Uses(const Key &e) const {
    const size_t s = im_.endpoints.Of(e.first, e.second);
    return s == EndpointIndex::kNone ? 0 : im_.uses[s];
  }

  // True when every consumer of `e` retargets its launch (an ArgsUpdater node, or an
  // AnnotatedArgsOp node launched from its declaration): it can take the caller's address.
  bool OnlyUpdaters(const Key &e) const {
    for (size_t j = 0; j < g_.nodes.size(); ++j)
      for (const auto &in : g_.nodes[j].inputs)
        if (in == ir::Endpoint{e.first, e.second} &&
            (g_.nodes[j].type == ir::kNetOutput || (im_.nodes[j].updater == nullptr && im_.nodes[j].annotated == nullptr)))
          return false;
    return true;
  }

  // Static models: graph outputs produced by custom ops are bound to the result buffers (or,
  // under sink replay, to fixed buffers recorded launches write; or to the caller's buffers).
  void BindOutputs() {
    if (im_.arena == nullptr && im_.dynamic) return;
    for (size_t r = 0; r < g_.outputs.size(); ++r) {
      const ir::Endpoint &o = g_.outputs[r];
      const Key key{o.node, o.index};
      const ir::Node &p = g_.nodes[static_cast<size_t>(o.node)];
      if (p.type == ir::kData || p.type == ir::kConst || p.type == ir::kConstant || bound_.count(key)) continue;
      const ir::TensorDesc &d = p.output_descs[static_cast<size_t>(o.index)];
      if (ShapeElementCount(d.shape) < 0) continue;
      results_[r].dtype = d.dtype;
      results_[r].shape = d.shape;
      const size_t bytes = static_cast<size_t>(TensorByteSize(d.dtype, d.shape).value_or(0));
      const NodeRuntime &producer = im_.nodes[static_cast<size_t>(o.node)];
      if (sink_ && producer.updater == nullptr && producer.annotated == nullptr) {
        // Recorded launches write here on every replay; the result is copied out at the end.
        if (!im_.sink.outputs[r]) im_.sink.outputs[r] = std::make_unique<HostBuffer>(bytes);
        fixed_out_[key] = im_.sink.outputs[r].get();
      } else if (direct_ != nullptr) {
        direct_bound_[key] = (*direct_)[r];
      } else {
        results_[r].data.assign(bytes, 0);
        bound_[key] = r;
      }
    }
  }

  void FeedInput(size_t i) {
    const ir::Node &node = g_.nodes[i];
    const int32_t ni = static_cast<int32_t>(i);
    const size_t k = im_.input_slot.at(ni);
    const IoDesc &want = im_.inputs[k];
    const InView &in = inputs_[k];
    if (in.aggregate != nullptr) {  // a sequence or optional, for the subgraph's own native nodes
      Value &v = values_[{ni, 0}];
      v.aggregate = std::make_shared<RtValue>(*in.aggregate);
      v.pending = Uses({ni, 0});
      return;
    }
    if (IsSequenceKind(want.value_kind)) {
      throw Error(ErrorCategory::kInvalidInput, "OA2202",
                  "input " + std::to_string(k) + " ('" + want.name + "') is a " + ValueKindName(want.value_kind) + " of " +
                      DataTypeShortName(want.dtype) + " tensors but a single tensor was given",
                  "Feed a sequence (LoadedModel::RunValues; omrun: a SequenceProto .pb or a folder of .npy files)");
    }
    if (in.dtype != want.dtype || !ShapeMatches(want.shape, in.shape)) {
      throw Error(ErrorCategory::kInvalidInput, "OA2202",
                  "input " + std::to_string(k) + " ('" + want.name + "') expects " + DataTypeShortName(want.dtype) +
                      " " + ShapeToString(want.shape) + " but got " + DataTypeShortName(in.dtype) + " " +
                      ShapeToString(in.shape),
                  "Feed data of the model's input dtype and shape");
    }
    const std::string range = OutsideRange(node, in.shape);
    if (!range.empty()) {
      throw Error(ErrorCategory::kInvalidInput, "OA2202",
                  "input " + std::to_string(k) + " ('" + want.name + "') got shape " + ShapeToString(in.shape) +
                      ", outside the range " + range + " the model was compiled for (--input_shape)",
                  "Feed a shape inside the range, or compile with a wider --input_shape range");
    }
    Value &v = values_[{ni, 0}];
    uint8_t *addr = nullptr;
    if (sink_ && OnlyUpdaters({ni, 0})) {
      addr = static_cast<uint8_t *>(const_cast<void *>(in.data));  // ArgsUpdater nodes retarget to it
    } else if (sink_) {
      if (!im_.sink.inputs[k]) im_.sink.inputs[k] = std::make_unique<HostBuffer>(in.size);
      addr = im_.sink.inputs[k]->data();  // recorded launches read this fixed buffer
    } else {
      v.storage = std::make_shared<HostBuffer>(in.size, HostBuffer::Fill::kNone);  // filled just below
      addr = v.storage->data();
    }
    if (addr != in.data && in.size != 0) std::memcpy(addr, in.data, in.size);
    ir::TensorDesc d = node.output_descs.at(0);
    d.shape = in.shape;
    d.origin_shape = in.shape;
    gert_impl::InitTensor(v.tensor, d, addr, in.size);
    v.pending = Uses({ni, 0});
    labels_[{ni, 0}] = "input " + std::to_string(k) + " of model " + im_.path + " (" + std::to_string(in.size) + " bytes)";
  }

  void BindConst(size_t i) {
    const ir::Node &node = g_.nodes[i];
    const int32_t ni = static_cast<int32_t>(i);
    Value &v = values_[{ni, 0}];
    if (!v.weight_bound) {  // the weight's bytes stay where load put them
      const ir::ConstTensor &c = *node.attrs.at("value").t;
      gert_impl::InitTensor(v.tensor, node.output_descs.at(0), const_cast<uint8_t *>(c.data.data), c.data.size);
      v.weight_bound = true;
    }
    v.pending = Uses({ni, 0});  // its label was made at load (Impl::const_labels)
  }

  void RunNodes() {
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const NodeKind kind = im_.kinds[i];
      if (kind == NodeKind::kOutput) continue;
      if (kind == NodeKind::kData) FeedInput(i);
      else if (kind == NodeKind::kConst) BindConst(i);
      else if (kind == NodeKind::kNative) RunNative(i);
      else if (kind == NodeKind::kIdentity && ForwardsAggregate(i)) ForwardAggregate(i);
      else if (im_.shape_values.marked(i)) RunShapeNode(i);
      else if (im_.observer == nullptr) RunCustom(i);
      else RunObserved(i);
    }
  }

  // A node of the model's shape arithmetic (shape_value_cache.h): bound to its kept outputs while they
  // are current, else run, and its outputs kept.
  void RunShapeNode(size_t i) {
    ShapeValueCache &sv = im_.shape_values;
    const ir::Node &node = g_.nodes[i];
    std::vector<int64_t> read;
    if (sv.is_root(i)) {
      const Value &in = values_.at({node.inputs[0].node, node.inputs[0].index});
      if (in.aggregate) {  // not a tensor: RunCustom refuses it
        RunCustom(i);
        return;
      }
      read = ShapeValueCache::DimsOf(in.tensor);
    }
    if (const std::vector<ShapeValueCache::Output> *kept = sv.Find(i, read)) {
      BindKept(i, *kept);
      return;
    }
    if (im_.observer == nullptr) RunCustom(i);
    else RunObserved(i);
    std::vector<const gert::Tensor *> outs;
    for (size_t k = 0; k < node.output_descs.size(); ++k) {
      const Value *v = values_.find({static_cast<int32_t>(i), static_cast<int32_t>(k)});
      outs.push_back(v == nullptr ? nullptr : &v->tensor);
    }
    sv.Keep(i, read, outs);
  }

  // The node's kept outputs become its values, as if it had run (an observer sees it run).
  void BindKept(size_t i, const std::vector<ShapeValueCache::Output> &kept) {
    const int32_t ni = static_cast<int32_t>(i);
    if (im_.observer != nullptr) {
      im_.observer->Started(i);
      observing_ = i;
    }
    for (size_t k = 0; k < kept.size(); ++k) {
      const ShapeValueCache::Output &o = kept[k];
      Value &v = values_[{ni, static_cast<int32_t>(k)}];
      v.tensor.GetShape() = o.shape;
      v.tensor.MutableFormat() = o.format;
      v.tensor.SetDataType(o.dtype);
      v.tensor.MutableTensorData() = gert::TensorData(o.storage->data(), nullptr, o.bytes, o.placement);
      v.storage = o.storage;
      v.pending = Uses({ni, static_cast<int32_t>(k)});
    }
    Observe(i);
    ReleaseInputs(g_.nodes[i]);
  }

  // Releases the inputs whose last consumer was `node`.
  void ReleaseInputs(const ir::Node &node) {
    for (const auto &e : node.inputs) {
      if (!e.connected()) continue;
      Value *v = values_.find({e.node, e.index});
      if (v != nullptr && v->pending > 0 && --v->pending == 0) values_.erase(v);
    }
  }

  // ONNX Identity takes any type (opset 14+: sequences, 16+: optionals); the built-in op sees
  // tensors only, so a sequence or optional passes through here.
  bool ForwardsAggregate(size_t i) const {
    const ir::Node &node = g_.nodes[i];
    if (node.inputs.size() != 1 || !node.inputs[0].connected()) return false;
    const Value *v = values_.find({node.inputs[0].node, node.inputs[0].index});
    return v != nullptr && v->aggregate != nullptr;
  }
  void ForwardAggregate(size_t i) {
    const ir::Endpoint &e = g_.nodes[i].inputs[0];
    Value &in = values_.at({e.node, e.index});
    Value &v = values_[{static_cast<int32_t>(i), 0}];
    v.aggregate = in.aggregate;
    v.pending = Uses({static_cast<int32_t>(i), 0});
    if (in.pending > 0 && --in.pending == 0) values_.erase(&in);
  }

  // A value as native ops take it: a copy of its tensor, or its sequence / optional.
  static RtValue ValueOf(const Value &v) {
    if (v.aggregate) return *v.aggregate;
    RtValue r;
    r.tensor = ToHost(v.tensor);
    return r;
  }

  // A native node (openatc/ir/control_flow.h): its inputs as values, its subgraphs run as loaded
  // sub-models, its outputs stored in run-allocated memory.
  void RunNative(size_t i) {
    const ir::Node &node = g_.nodes[i];
    const int32_t ni = static_cast<int32_t>(i);
    std::vector<RtValue> ins;
    for (const auto &e : node.inputs) {
      if (!e.connected()) {
        RtValue absent;
        absent.present = false;
        ins.push_back(std::move(absent));
      } else {
        ins.push_back(ValueOf(values_.at({e.node, e.index})));
      }
    }
    SubgraphRunner run = [&](const std::string &attr, const std::vector<RtValue> &in) {
      auto it = im_.subgraph_impls.find({i, attr});
      if (it == im_.subgraph_impls.end())
        throw Error(ErrorCategory::kCorruptOm, "OA2111", "the node has no loaded subgraph '" + attr + "'",
                    "Rebuild the OM with atc")
            .WithNode(node.name, node.type);
      return RunValues(*it->second, in);
    };
    std::vector<RtValue> outs;
    try {
      outs = RunNativeOp(node, ins, run);
    } catch (Error &e) {
      if (e.node().empty()) e.WithNode(node.name, node.type);
      throw;
    }
    for (size_t k = 0; k < outs.size() && k < node.output_descs.size(); ++k) {
      Value &v = values_[{ni, static_cast<int32_t>(k)}];
      v.pending = Uses({ni, static_cast<int32_t>(k)});
      if (outs[k].kind != ir::ValueKind::kTensor || !outs[k].present) {
        v.aggregate = std::make_shared<RtValue>(std::move(outs[k]));
        continue;
      }
      const HostTensor &h = outs[k].tensor;
      v.storage = std::make_shared<HostBuffer>(h.data.size());
      if (!h.data.empty()) std::memcpy(v.storage->data(), h.data.data(), h.data.size());
      ir::TensorDesc d = node.output_descs[k];
      d.dtype = h.dtype;
      d.shape = d.origin_shape = h.shape;
      d.format = d.origin_format = ge::FORMAT_ND;
      gert_impl::InitTensor(v.tensor, d, v.storage->data(), h.data.size());
    }
    for (size_t k = outs.size(); k < node.output_descs.size(); ++k) {
      if (Uses({ni, static_cast<int32_t>(k)}) != 0)
        throw Error(ErrorCategory::kInvalidInput, "OA2210", "the node produced no value for output " + std::to_string(k),
                    "Feed values that fit the operator (ONNX operator spec)")
            .WithNode(node.name, node.type);
    }
    ReleaseInputs(node);
  }

  // The model output index that endpoint `key` feeds (the first one), for labels.
  size_t OutputIndexOf(const Key &key) const {
    for (size_t r = 0; r < g_.outputs.size(); ++r)
      if (g_.outputs[r] == ir::Endpoint{key.first, key.second}) return r;
    return 0;
  }

  // Where output k of node i goes before the op runs: a bound result, a fixed sink buffer, the
  // caller's buffer, its planned arena slot, or nowhere (the op allocates it).
  void PlaceOutput(size_t i, size_t k, gert::Tensor &out) {
    const ir::Node &node = g_.nodes[i];
    const Key key{static_cast<int32_t>(i), static_cast<int32_t>(k)};
    void *addr = nullptr;
    size_t size = 0;
    bool planned = false;
    if (auto b = bound_.find(key); b != bound_.end()) {
      addr = results_[b->second].data.data();
      size = results_[b->second].data.size();
    } else if (auto f = fixed_out_.find(key); f != fixed_out_.end()) {
      addr = f->second->data();
      size = f->second->size();
    } else if (auto d = direct_bound_.find(key); d != direct_bound_.end()) {
      addr = d->second.data;
      size = d->second.size;
    } else if (const auto &plan = node.plan.output_offsets; k < plan.size() && plan[k] >= 0 && im_.arena != nullptr) {
      addr = im_.arena->data() + plan[k];
      size = static_cast<size_t>(TensorByteSize(node.output_descs[k].dtype, node.output_descs[k].shape).value_or(0));
      planned = true;
    }
    gert_impl::InitTensor(out, node.output_descs[k], addr, size);
    // No memory yet: the op allocates it, and ExecServices labels that buffer (every run of a
    // dynamic model takes this path: no label to build here). A planned tensor's label was made
    // at load (Impl::planned_labels).
    if (addr == nullptr || planned) return;
    labels_[key] = "output " + std::to_string(OutputIndexOf(key)) + " of model " + im_.path + " (" +
                   std::to_string(size) + " bytes)";
  }

  // Per-node scratch of RunCustom, kept for the next node (no allocation per node): released when
  // the node is done, also when it throws.
  struct NodeScratchReset {
    Run &run;
    NodeRuntime &nr;
    ~NodeScratchReset() {
      run.checked_.clear();  // unregisters this node's tensors
      if (nr.eager_services) nr.eager_services->Reset();
    }
  };

  void RunCustom(size_t i) {
    const ir::Node &node = g_.nodes[i];
    NodeRuntime &nr = im_.nodes[i];
    NodeScratchReset reset{*this, nr};
    gert_impl::Frame &frame = frame_;
    frame.node = nr.info.get();
    frame.node_state = nr.state.get();
    frame.services = nullptr;
    frame.inputs.clear();
    frame.outputs.clear();
    for (size_t anchor : nr.info->input_anchor) {
      const ir::Endpoint &e = node.inputs[anchor];
      const Value &v = values_.at({e.node, e.index});
      if (v.aggregate)
        throw Error(ErrorCategory::kInvalidInput, "OA2210", "input " + std::to_string(anchor) + " is a sequence or an optional",
                    "Only tensors reach operators; unpack the value first (SequenceAt, OptionalGetElement)")
            .WithNode(node.name, node.type);
      frame.inputs.push_back(const_cast<gert::Tensor *>(&v.tensor));
    }
    std::vector<gert::Tensor> &outs = outs_;
    outs.clear();
    outs.resize(node.output_descs.size());  // sized once: frame.outputs point into it
    for (size_t k = 0; k < outs.size(); ++k) {
      PlaceOutput(i, k, outs[k]);
      frame.outputs.push_back(&outs[k]);
    }
    if (!nr.launches_no_kernels) {
      for (size_t j = 0; j < frame.inputs.size(); ++j) {
        const ir::Endpoint &e = node.inputs[nr.info->input_anchor[j]];
        Register(checked_, *frame.inputs[j], {e.node, e.index});
      }
      for (size_t k = 0; k < outs.size(); ++k) Register(checked_, outs[k], {static_cast<int32_t>(i), static_cast<int32_t>(k)});
    }
    std::unique_ptr<ExecServices> made;
    ExecServices *owner = RunChecked(i, frame, made);
    ExecServices empty(im_.stream);
    TakeOutputs(i, outs, owner ? *owner : empty, owner == nullptr);
    RoundReducedOutputs(i);
    Observe(i);
    ReleaseInputs(node);
  }

  // A node the compiler's precision mode reduced (atc/compiler/src/passes/precision.h) stores its
  // float32 outputs in float16 / bfloat16 on the chip: its values are rounded to that type here.
  // An output that shares an input's bytes (a view: ops/common/movement.h Input0AsOutput0) is
  // rounded in a copy of its own, so that the input's other readers see it unrounded.
  void RoundReducedOutputs(size_t i) {
    const ReducedFloat to = im_.nodes[i].reduced_to;
    if (to == ReducedFloat::kNone) return;
    const ir::Node &node = g_.nodes[i];
    for (size_t k = 0; k < node.output_descs.size(); ++k) {
      Value *v = values_.find({static_cast<int32_t>(i), static_cast<int32_t>(k)});
      if (v == nullptr || v->tensor.GetDataType() != ge::DT_FLOAT) continue;
      gert::Tensor &t = v->tensor;
      if (SharesInputBytes(node, t.GetAddr())) {
        auto own = std::make_shared<HostBuffer>(t.GetSize(), HostBuffer::Fill::kNone);
        if (t.GetSize() != 0) std::memcpy(own->data(), t.GetAddr(), t.GetSize());
        t.MutableTensorData() = gert::TensorData(own->data(), nullptr, t.GetSize(), t.GetPlacement());
        v->storage = std::move(own);
      }
      RoundInPlace(static_cast<float *>(t.GetAddr()), t.GetSize() / sizeof(float), to);
    }
  }

  // True when `addr` is the data of one of the node's inputs.
  bool SharesInputBytes(const ir::Node &node, const void *addr) const {
    for (const auto &e : node.inputs) {
      if (!e.connected()) continue;
      const Value *in = values_.find({e.node, e.index});
      if (in != nullptr && !in->aggregate && in->tensor.GetAddr() == addr) return true;
    }
    return false;
  }

  // RunCustom between the observer's calls; the inputs are shown before RunCustom releases them.
  void RunObserved(size_t i) {
    im_.observer->Started(i);
    observing_ = i;
    if (auto trace = im_.nodes[i].kernel_trace) trace();  // starts this node's record
    RunCustom(i);
  }

  static TensorView ViewOf(const gert::Tensor &t) {
    TensorView v;
    v.dtype = t.GetDataType();
    v.format = t.GetStorageFormat();
    const gert::Shape &s = t.GetStorageShape();
    for (size_t d = 0; d < s.GetDimNum(); ++d) v.shape.push_back(s.GetDim(d));
    v.data = t.GetAddr();
    v.bytes = t.GetSize();
    return v;
  }

  // Called by RunCustom once node i's outputs are values and before its inputs are released.
  void Observe(size_t i) {
    if (observing_ != i) return;
    const ir::Node &node = g_.nodes[i];
    std::vector<TensorView> ins, outs;
    for (const auto &e : node.inputs) {
      if (!e.connected()) continue;
      const Value *v = values_.find({e.node, e.index});
      if (v != nullptr) ins.push_back(ViewOf(v->tensor));
    }
    for (size_t k = 0; k < node.output_descs.size(); ++k) {
      const Value *v = values_.find({static_cast<int32_t>(i), static_cast<int32_t>(k)});
      if (v != nullptr) {
        outs.push_back(ViewOf(v->tensor));
      } else {
        TensorView none;
        none.dtype = node.output_descs[k].dtype;
        none.shape = node.output_descs[k].shape;
        outs.push_back(none);
      }
    }
    observing_ = SIZE_MAX;
    if (auto trace = im_.nodes[i].kernel_trace) {
      const char *kernels = trace();
      im_.observer->Kernel(i, kernels != nullptr ? kernels : "");
    }
    im_.observer->Finished(i, ins, outs);
  }

  // The load-time label of endpoint `key` when `addr` is its slot in the arena, else "".
  const std::string &PlannedLabel(const Key &key, const void *addr) const {
    static const std::string kNone;
    const size_t node = static_cast<size_t>(key.first), k = static_cast<size_t>(key.second);
    if (node >= im_.planned_labels.size() || k >= im_.planned_labels[node].size()) return kNone;
    const std::string &label = im_.planned_labels[node][k];  // non-empty: a slot in the arena
    if (label.empty() || addr != im_.arena->data() + g_.nodes[node].plan.output_offsets[k]) return kNone;
    return label;
  }

  // Registers tensor `t` of endpoint `key` for the node's run, unless a registered buffer holds it.
  void Register(std::vector<rt::GmRegistration> &out, const gert::Tensor &t, const Key &key) {
    const void *addr = t.GetAddr();
    if (addr == nullptr || t.GetSize() == 0 || rt::GmRegistry::Process().Covers(addr, t.GetSize())) return;
    auto l = labels_.find(key);
    static const std::string kNone;
    const size_t node = static_cast<size_t>(key.first);
    const std::string &weight = node < im_.const_labels.size() ? im_.const_labels[node] : kNone;
    const std::string &planned = PlannedLabel(key, addr);
    out.emplace_back(addr, t.GetSize(),
                     l != labels_.end() ? l->second
                     : !planned.empty() ? planned
                     : !weight.empty()  ? weight
                                        : "output " + std::to_string(key.second) + " of node '" +
                                              g_.nodes[static_cast<size_t>(key.first)].name + "'");
  }

  // RunNode; a failure caused by a global-memory violation (OPENATC_GM_CHECK=fail) is reported as
  // that violation (OA2208), naming node and op type, instead of the op's own failure.
  // An op whose Execute ignores the failed launch and returns success is reported the same way.
  ExecServices *RunChecked(size_t i, gert_impl::Frame &frame, std::unique_ptr<ExecServices> &made) {
    rt::TakeGmViolation();  // none from an earlier node
    ExecServices *owner = nullptr;
    try {
      owner = RunNode(im_, i, frame, sink_, made);
    } catch (Error &) {
      ThrowIfViolation(i);
      throw;
    }
    ThrowIfViolation(i);
    return owner;
  }

  void ThrowIfViolation(size_t i) {
    std::string v = rt::TakeGmViolation();
    if (v.empty()) return;
    const ir::Node &node = g_.nodes[i];
    throw Error(ErrorCategory::kCustomOp, "OA2208", "a kernel accessed global memory outside its buffer: " + v,
                "Fix the kernel's access or the sizes its op launches it with; OPENATC_GM_CHECK=warn reports each "
                "such access once and continues")
        .WithNode(node.name, node.type);
  }

  // The node's outputs become values its consumers read (with the memory that keeps them alive).
  void TakeOutputs(size_t i, std::vector<gert::Tensor> &outs, ExecServices &services, bool replayed) {
    const ir::Node &node = g_.nodes[i];
    const int32_t ni = static_cast<int32_t>(i);
    auto &bufs = services.output_buffers();
    auto &refs = services.ref_inputs();
    for (size_t k = 0; k < outs.size(); ++k) {
      const bool allocated = replayed || (k < bufs.size() && bufs[k] != nullptr) || services.used_prebound(k);
      const bool aliased = k < refs.size() && refs[k] >= 0;
      if (!allocated && !aliased) {
        if (Uses({ni, static_cast<int32_t>(k)}) == 0) continue;  // unused output left unallocated
        throw Error(ErrorCategory::kCustomOp, "OA2204", "Execute returned without allocating output " + std::to_string(k),
                    "Call ctx->MallocOutputTensor for every output")
            .WithNode(node.name, node.type);
      }
      Value &v = values_[{ni, static_cast<int32_t>(k)}];
      v.tensor.GetShape() = outs[k].GetShape();
      v.tensor.MutableFormat() = outs[k].GetFormat();
      v.tensor.SetDataType(outs[k].GetDataType());
      v.tensor.MutableTensorData() = gert::TensorData(outs[k].GetAddr(), nullptr, outs[k].GetSize(), outs[k].GetPlacement());
      if (aliased) {
        const ir::Endpoint &src = node.inputs[im_.nodes[i].info->input_anchor[static_cast<size_t>(refs[k])]];
        v.storage = values_.at({src.node, src.index}).storage;
      } else if (k < bufs.size()) {
        v.storage = bufs[k];
      }
      v.pending = Uses({ni, static_cast<int32_t>(k)});
    }
  }

  // The graph outputs: copied into the caller's buffers (RunWithBuffers), or returned, without a
  // copy when the op wrote its bound result buffer with the compiled shape.
  std::vector<HostTensor> Collect() {
    std::vector<HostTensor> out;
    for (size_t r = 0; r < g_.outputs.size(); ++r) {
      const ir::Endpoint &o = g_.outputs[r];
      const Value &v = values_.at({o.node, o.index});
      if (v.aggregate) {
        throw Error(ErrorCategory::kInvalidInput, "OA2210",
                    "output " + std::to_string(r) + " ('" + im_.outputs[r].name + "') is a sequence or an optional",
                    "Run the model with LoadedModel::RunValues (omrun does), or return tensors from it (e.g. "
                    "ConcatFromSequence, OptionalGetElement)");
      }
      const gert::Tensor &t = v.tensor;
      if (direct_ != nullptr) {
        CopyToCallerBuffer(r, t);
        continue;
      }
      auto b = bound_.find({o.node, o.index});
      if (b != bound_.end() && b->second == r && BoundResultValid(t, results_[r])) {
        out.push_back(std::move(results_[r]));
      } else {
        out.push_back(ToHost(t));
      }
    }
    return out;
  }

  void CopyToCallerBuffer(size_t r, const gert::Tensor &t) {
    const LoadedModel::Buffer &b = (*direct_)[r];
    if (t.GetAddr() == b.data) return;  // written in place
    HostTensor h = ToHost(t);
    if (h.data.size() > b.size) {
      throw Error(ErrorCategory::kInvalidInput, "OA2206",
                  "output " + std::to_string(r) + " ('" + im_.outputs[r].name + "') has " +
                      std::to_string(h.data.size()) + " bytes but its buffer holds " + std::to_string(b.size),
                  "Give a larger output buffer");
    }
    if (!h.data.empty()) std::memcpy(b.data, h.data.data(), h.data.size());
  }

  LoadedModel::Impl &im_;
  const ir::Graph &g_;
  const std::vector<InView> &inputs_;
  const std::vector<LoadedModel::Buffer> *direct_;
  const bool sink_;
  ValueTable values_;
  std::vector<HostTensor> results_;
  std::map<Key, size_t> bound_;
  std::map<Key, HostBuffer *> fixed_out_;
  std::map<Key, LoadedModel::Buffer> direct_bound_;
  std::map<Key, std::string> labels_;  ///< how the global-memory checks name each tensor
  gert_impl::Frame frame_;                  ///< RunCustom's, reused node after node
  std::vector<gert::Tensor> outs_;          ///< RunCustom's output tensors (frame_.outputs point here)
  std::vector<rt::GmRegistration> checked_;  ///< the running node's registered tensors
  size_t observing_ = SIZE_MAX;  ///< the node RunObserved runs, until Observe shows it
};

// Brackets one run for the model's BufferPool (its per-run memory plan, buffer_pool.h). Declared
// before the Run object, so the pool hears of the run's end after the run's values are released.
class PoolRun {
 public:
  explicit PoolRun(BufferPool &pool) : pool_(pool) { pool_.BeginRun(); }
  ~PoolRun() { pool_.EndRun(); }
  PoolRun(const PoolRun &) = delete;
  PoolRun &operator=(const PoolRun &) = delete;

 private:
  BufferPool &pool_;
};

// A subgraph run (RunValues): the caller's run holds its own model's lock; a subgraph is run
// by one node at a time, so it takes only its own.
std::vector<RtValue> RunCoreValues(LoadedModel::Impl &im, const std::vector<InView> &inputs) {
  if (inputs.size() != im.inputs.size()) {
    throw Error(ErrorCategory::kCorruptOm, "OA2111",
                "a subgraph has " + std::to_string(im.inputs.size()) + " inputs but " + std::to_string(inputs.size()) +
                    " were given",
                "Rebuild the OM with atc");
  }
  std::lock_guard<std::mutex> lock(im.run_mu);
  PoolRun pool_run(*im.pool);
  return Run(im, inputs, nullptr).ExecuteValues();
}

// The run boundary: one run at a time per model; errors get the OM file attached here, once.
std::vector<HostTensor> RunCore(LoadedModel::Impl &im, const std::vector<InView> &inputs,
                                const std::vector<LoadedModel::Buffer> *direct) {
  if (inputs.size() != im.inputs.size()) {
    throw Error(ErrorCategory::kInvalidInput, "OA2201",
                "the model has " + std::to_string(im.inputs.size()) + " inputs but " + std::to_string(inputs.size()) +
                    " were given",
                "Pass one input per model input, in model input order");
  }
  std::lock_guard<std::mutex> lock(im.run_mu);
  PoolRun pool_run(*im.pool);
  try {
    return Run(im, inputs, direct).Execute();
  } catch (Error &e) {
    e.WithFile(im.path);
    throw;
  }
}

}  // namespace

std::vector<RtValue> RunValues(LoadedModel::Impl &im, const std::vector<RtValue> &inputs) {
  std::vector<InView> views;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const RtValue &v = inputs[k];
    if (v.kind != ir::ValueKind::kTensor || !v.present) {
      views.push_back({nullptr, 0, ge::DT_UNDEFINED, {}, &v});
      continue;
    }
    InView view{v.tensor.data.data(), v.tensor.data.size(), v.tensor.dtype, v.tensor.shape, nullptr};
    // ONNX lets a one-element value be declared [] or [1] (a Loop's iteration count and cond).
    if (k < im.inputs.size() && ShapeElementCount(view.shape) == 1 && ShapeElementCount(im.inputs[k].shape) == 1)
      view.shape = im.inputs[k].shape;
    views.push_back(std::move(view));
  }
  return RunCoreValues(im, views);
}

}  // namespace openatc::runtime
