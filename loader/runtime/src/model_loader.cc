// LoadedModel::Load: target check, embedded deliverables, op objects, Deserialize.
#include <algorithm>

#include "model_impl.h"
#include "prepare_nodes.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/target.h"
#include "openatc/ir/framework_ops.h"
#include "openatc/opp/call_guard.h"
#include "openatc/opp/capabilities.h"
#include "openatc/rt/runtime.h"

namespace openatc::runtime {
namespace {
IoDesc Describe(const std::string &name, const ir::TensorDesc &d) {
  IoDesc io;
  io.name = name;
  io.dtype = d.dtype;
  io.format = d.format;
  io.shape = d.shape;
  io.value_kind = d.value_kind;
  io.bytes = d.value_kind == ir::ValueKind::kTensor ? static_cast<size_t>(TensorByteSize(d.dtype, d.shape).value_or(0)) : 0;
  return io;
}

// The one load-time target check, for omrun, aclmdlLoad* and ge::Session alike: whether this
// runtime can run the OM's target here (openatc/common/target.h), then the device backend it
// needs. A host OM, or an Ascend chip emulated on the host (its kernels are host code: with or
// without OPENATC_EMULATION, never through CANN), runs when built for this CPU's arch (else OA2101,
// naming both) on the host backend. An Ascend OM (kAscendCann) selects CANN's libascendcl.so:
// custom-op code still runs on this CPU, every aclrt* call goes to CANN. A backend that cannot be
// selected (CANN absent, another backend active in this process) is OA2110 with the device's reason.
void CheckTarget(const om::Model &m, const std::string &path) {
  const openatc::Target &t = m.target;
  const bool on_host = t.kind == TargetKind::kHost || t.kind == TargetKind::kAscendEmulated;
  if (on_host && t.arch != HostCpuArch()) {
    throw Error(ErrorCategory::kNotOm, "OA2101",
                "the OM was built for " + DescribeTarget(t) + ", but this runtime runs " + DescribeTarget(HostTarget()),
                t.kind == TargetKind::kHost ? "Rebuild it with atc --soc_version host on this machine"
                                            : "Rebuild it with atc --soc_version " + t.soc_version +
                                                  " and OPENATC_EMULATION set, on this machine")
        .WithFile(path);
  }
  std::string why;
  if (rt::SelectBackend(on_host ? HostTarget() : t, &why) != ACL_SUCCESS) {
    throw Error(ErrorCategory::kNotOm, "OA2110", why).WithFile(path);
  }
}
// The compiler's memory plan (NodePlan::output_offsets, Graph::arena_bytes; bounds checked by the
// OM reader) and the arena it needs. A model without a plan runs with per-run allocations.
void SetUpArena(LoadedModel::Impl &im) {
  const ir::Graph &g = im.model.graph;
  if (g.arena_bytes < 0) return;
  im.arena_bytes = static_cast<size_t>(g.arena_bytes);
  if (im.arena_bytes > 0) im.arena = std::make_unique<HostBuffer>(im.arena_bytes);
}

}  // namespace

size_t LoadedModel::arena_bytes() const { return impl_->arena_bytes; }
size_t LoadedModel::shape_nodes() const { return impl_->shape_values.marked_count(); }
size_t LoadedModel::shape_node_reuses() const { return impl_->shape_values.reused(); }
void LoadedModel::set_execution_mode(ExecutionMode mode) {
  std::lock_guard<std::mutex> lock(impl_->run_mu);
  impl_->mode = mode;
  impl_->sink = SinkState{};
  for (auto &gear : impl_->gear_models) gear->set_execution_mode(mode);  // the variants run
}

void LoadedModel::set_node_observer(NodeObserver *observer) {
  std::lock_guard<std::mutex> lock(impl_->run_mu);
  impl_->observer = observer;
}

LoadedModel::LoadedModel() : impl_(std::make_unique<Impl>()) {}

LoadedModel::~LoadedModel() {
  if (impl_ && impl_->stream != nullptr) aclrtDestroyStream(impl_->stream);
}

const std::vector<IoDesc> &LoadedModel::inputs() const { return impl_->inputs; }
const std::vector<IoDesc> &LoadedModel::outputs() const { return impl_->outputs; }
bool LoadedModel::has_value_io() const {
  for (const auto *list : {&impl_->inputs, &impl_->outputs})
    for (const IoDesc &d : *list)
      if (d.value_kind != ir::ValueKind::kTensor) return true;
  return false;
}
const om::Model &LoadedModel::model() const { return impl_->model; }

std::unique_ptr<LoadedModel> LoadedModel::Load(om::Model model, const std::string &path) {
  return LoadImpl(std::move(model), path, nullptr);
}

std::unique_ptr<LoadedModel> LoadedModel::LoadWithRegistry(om::Model model, const std::string &path,
                                                           gert_impl::CustomOpRegistry &registry) {
  return LoadImpl(std::move(model), path, &registry);
}

namespace {

// GE: every used op type is deserialized, on one object per op type.
std::map<std::string, std::shared_ptr<ge::BaseCustomOp>> DeserializeOps(LoadedModel::Impl &im, bool external) {
  std::map<std::string, std::shared_ptr<ge::BaseCustomOp>> objects;
  for (const auto &art : im.model.artifacts) {
    std::string why;
    auto op = im.registry->GetOrCreate(art.op_type, &why);
    if (!op && art.deliverable < 0 && !art.has_payload && (art.capabilities & opp::kAnnotatedArgs)) {
      objects[art.op_type] = nullptr;  // a Python op: its nodes run from their declared launches only
      continue;
    }
    if (!op) {
      throw Error(ErrorCategory::kCorruptOm, "OA2102",
                  "no embedded deliverable provides op type '" + art.op_type + "' (" + why + ")",
                  "Rebuild the OM with atc");
    }
    if (art.has_payload && !external) {
      auto *portable = dynamic_cast<ge::PortableOp *>(op.get());
      if (portable == nullptr) {
        throw Error(ErrorCategory::kCorruptOm, "OA2103",
                    "the OM has a compile artifact for op type '" + art.op_type +
                        "', but its embedded deliverable's class is not a PortableOp",
                    "Rebuild the OM with atc");
      }
      std::vector<uint8_t> buffer(art.payload.data, art.payload.data + art.payload.size);
      opp::GuardedCall({"", art.op_type, "Deserialize", im.registry->Origin(art.op_type)},
                       [&] { return portable->Deserialize(buffer); });
    }
    objects[art.op_type] = op;
  }
  return objects;
}

// Each custom node's runtime: its op object and capabilities, declared launches, node info.
void BindNode(LoadedModel::Impl &im, size_t i, const std::map<std::string, std::shared_ptr<ge::BaseCustomOp>> &objects) {
  const ir::Node &node = im.model.graph.nodes[i];
  auto it = objects.find(node.type);
  if (it == objects.end()) {
    throw Error(ErrorCategory::kCorruptOm, "OA2104", "the OM has no artifact entry for this node's op type",
                "Rebuild the OM with atc")
        .WithNode(node.name, node.type);
  }
  NodeRuntime &nr = im.nodes[i];
  nr.op = it->second;
  if (nr.op == nullptr) {  // no op object (see DeserializeOps): the declared launches are all there is
    nr.annotated = LoadAnnotated(node, im.path);
    if (nr.annotated == nullptr) {
      throw Error(ErrorCategory::kCorruptOm, "OA2105",
                  "the op type has no deliverable in the OM and the OM holds no declared launches for this node",
                  "Rebuild the OM with atc")
          .WithNode(node.name, node.type);
    }
    nr.info = gert_impl::BuildNodeInfo(node);
    return;
  }
  nr.origin = im.registry->Origin(node.type);
  for (const opp::Deliverable &d : im.deliverables) {
    if (d.path != nr.origin) continue;
    nr.launches_no_kernels = d.launches_no_kernels;
    nr.execute_sizes_outputs = d.execute_sizes_outputs;
    nr.declared_pure = std::find(d.pure_ops.begin(), d.pure_ops.end(), node.type) != d.pure_ops.end();
    nr.kernel_trace = d.kernel_trace;
  }
  nr.execute = dynamic_cast<ge::EagerExecuteOp *>(nr.op.get());
  nr.infer = dynamic_cast<ge::ShapeInferOp *>(nr.op.get());
  if (nr.infer == nullptr) nr.has_legacy_infer = gert_impl::FindLegacyInferHooks(node.type, &nr.legacy_infer);
  nr.updater = dynamic_cast<ge::ArgsUpdater *>(nr.op.get());
  // GE's strategy: an ArgsUpdater op runs its Execute; otherwise declared launches replace it.
  if (nr.updater == nullptr) nr.annotated = LoadAnnotated(node, im.path);
  if (nr.execute == nullptr && nr.annotated == nullptr) {
    throw Error(ErrorCategory::kCustomOp, "OA2105",
                "the op is not an EagerExecuteOp and the OM holds no declared launches for it",
                "Rebuild the OM with atc (AnnotatedArgsOp needs a static graph), or implement Execute")
        .WithNode(node.name, node.type);
  }
  nr.info = gert_impl::BuildNodeInfo(node);
}

// Model inputs and outputs as callers see them; `dynamic` when any shape is known only at run time.
void DescribeIo(LoadedModel::Impl &im) {
  const ir::Graph &g = im.model.graph;
  for (const auto &node : g.nodes) {
    for (const auto &d : node.output_descs)
      for (int64_t dim : d.shape)
        if (dim < 0) im.dynamic = true;
  }
  for (int32_t idx : g.inputs) {
    const ir::Node &data = g.nodes[static_cast<size_t>(idx)];
    im.inputs.push_back(Describe(data.name, data.output_descs.at(0)));
  }
  for (const auto &e : g.outputs) {
    const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
    std::string name = p.name + ":" + std::to_string(e.index);
    im.outputs.push_back(Describe(name, p.output_descs.at(static_cast<size_t>(e.index))));
  }
}

// Dynamic models: which nodes' outputs runs may reuse (shape_value_cache.h). Pure: the node's own
// deliverable declares its type pure, and it runs its Execute as is (no declared launches, no
// ArgsUpdater, no rounding of its outputs).
void MarkShapeValues(LoadedModel::Impl &im) {
  std::vector<bool> pure(im.nodes.size(), false);
  for (size_t i = 0; i < im.nodes.size(); ++i) {
    const NodeRuntime &nr = im.nodes[i];
    pure[i] = nr.declared_pure && nr.execute != nullptr && nr.annotated == nullptr && nr.updater == nullptr &&
              nr.reduced_to == ReducedFloat::kNone;
  }
  im.shape_values.Mark(im.model.graph, pure);
}

}  // namespace

// The load boundary: errors get the OM file attached here, once.
std::unique_ptr<LoadedModel> LoadedModel::LoadImpl(om::Model model, const std::string &path,
                                                   gert_impl::CustomOpRegistry *external) {
  CheckTarget(model, path);
  std::unique_ptr<LoadedModel> lm(new LoadedModel());
  Impl &im = *lm->impl_;
  im.path = path;
  im.model = std::move(model);
  im.registry = external ? external : &im.own_registry;
  try {
    if (external == nullptr) {
      for (const auto &d : im.model.deliverables)
        im.deliverables.push_back(opp::LoadEmbedded(d.data, path + ":" + d.file_name, im.own_registry));
    }
    const auto objects = DeserializeOps(im, external != nullptr);
    im.nodes.resize(im.model.graph.nodes.size());
    for (size_t i = 0; i < im.nodes.size(); ++i)
      if (!ir::IsFrameworkOp(im.model.graph.nodes[i].type)) BindNode(im, i, objects);
    SetUpArena(im);
    DescribeIo(im);
    PrepareNodes(im);
    if (im.dynamic) MarkShapeValues(im);
    lm->LoadGears(external);
    lm->LoadSubgraphs();
  } catch (Error &e) {
    e.WithFile(path);
    throw;
  }
  if (aclrtCreateStream(&im.stream) != ACL_SUCCESS) {
    throw Error(ErrorCategory::kInternal, "OA2106", std::string("cannot create a stream: ") + aclGetRecentErrMsg());
  }
  return lm;
}

std::unique_ptr<LoadedModel> LoadModelFile(const std::string &path) {
  om::Model m = om::ReadFile(path);
  return LoadedModel::Load(std::move(m), path);
}

}  // namespace openatc::runtime
