// Per-node state made once at load (model_impl.h NodeRuntime::state, reduced_to, the labels of
// weights and planned tensors): what the executor would otherwise build on every run.
// WeightPackingOp nodes of a static model get PrepareNode with their constant inputs and the OM's
// packed copies (openatc/weight_packing.h). In a dynamic model they get it at run time instead,
// once per distinct set of input shapes (PrepareForShapes): a run whose shapes equal one of the
// node's last kShapeStates prepared ones prepares nothing.
#include "prepare_nodes.h"

#include <algorithm>

#include "openatc/common/dtype.h"
#include "openatc/gert/node_frame.h"
#include "openatc/ir/control_flow.h"
#include "openatc/opp/call_guard.h"
#include "openatc/weight_packing.h"

namespace openatc::runtime {
namespace {

// `run`: the frame of a dynamic model's run, whose input shapes and dtypes replace the compiled
// descriptors (the data stays what load gives: constants only); nullptr at load.
void Prepare(LoadedModel::Impl &im, size_t i, openatc::WeightPackingOp &op, const gert_impl::Frame *run) {
  const ir::Graph &g = im.model.graph;
  const ir::Node &node = g.nodes[i];
  NodeRuntime &nr = im.nodes[i];
  gert_impl::NodeFrame nf(node, [&](size_t a) { return gert_impl::ConstAnchorData(g, node, a); }, gert::kOnHost);
  if (run != nullptr) {
    for (size_t k = 0; k < nf.frame.inputs.size() && k < run->inputs.size(); ++k) {
      if (run->inputs[k] == nullptr) continue;
      nf.frame.inputs[k]->GetShape() = run->inputs[k]->GetShape();
      nf.frame.inputs[k]->SetDataType(run->inputs[k]->GetDataType());
    }
  }
  gert_impl::Services services;  // nothing to allocate at load
  nf.frame.services = &services;
  // The OM names anchors; the op sees flattened input indices.
  const std::vector<size_t> &anchors = nf.info().input_anchor;
  std::vector<openatc::PackedWeightView> views;
  for (const ir::PackedWeight &pw : node.packed_weights) {
    for (size_t k = 0; k < anchors.size(); ++k) {
      if (anchors[k] != static_cast<size_t>(pw.input)) continue;
      openatc::PackedWeightView v;
      v.input = static_cast<int32_t>(k);
      v.isa = pw.isa.c_str();
      v.layout = pw.layout.c_str();
      v.data = pw.data.data;
      v.size = pw.data.size;
      views.push_back(v);
    }
  }
  auto ctx = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&nf.frame);
  nr.state.reset();  // load: the node's state; run time: PrepareForShapes takes it from here
  opp::GuardedCall({node.name, node.type, "PrepareNode", nr.origin},
                   [&] { return op.PrepareNode(ctx.get(), views.data(), views.size(), &nr.state); });
}

// The input signature PrepareForShapes compares: per input, presence, dtype, rank and dims.
bool SameShapes(const std::vector<int64_t> &sig, const gert_impl::Frame &f) {
  size_t at = 0;
  auto next = [&](int64_t v) { return at < sig.size() && sig[at++] == v; };
  if (!next(static_cast<int64_t>(f.inputs.size()))) return false;
  for (const gert::Tensor *t : f.inputs) {
    if (t == nullptr) {
      if (!next(-1)) return false;
      continue;
    }
    const gert::Shape &s = t->GetStorageShape();
    if (!next(static_cast<int64_t>(t->GetDataType())) || !next(static_cast<int64_t>(s.GetDimNum()))) return false;
    for (size_t d = 0; d < s.GetDimNum(); ++d)
      if (!next(s.GetDim(d))) return false;
  }
  return at == sig.size();
}

void StoreShapes(std::vector<int64_t> *sig, const gert_impl::Frame &f) {
  sig->clear();
  sig->push_back(static_cast<int64_t>(f.inputs.size()));
  for (const gert::Tensor *t : f.inputs) {
    if (t == nullptr) {
      sig->push_back(-1);
      continue;
    }
    const gert::Shape &s = t->GetStorageShape();
    sig->push_back(static_cast<int64_t>(t->GetDataType()));
    sig->push_back(static_cast<int64_t>(s.GetDimNum()));
    for (size_t d = 0; d < s.GetDimNum(); ++d) sig->push_back(s.GetDim(d));
  }
}

}  // namespace

void PrepareNodes(LoadedModel::Impl &im) {
  const ir::Graph &g = im.model.graph;
  im.kinds.clear();
  for (const auto &node : g.nodes) {
    im.kinds.push_back(node.type == ir::kNetOutput                             ? NodeKind::kOutput
                       : node.type == ir::kData                                ? NodeKind::kData
                       : node.type == ir::kConst || node.type == ir::kConstant ? NodeKind::kConst
                       : ir::IsNativeOp(node.type)                             ? NodeKind::kNative
                       : node.type == "Identity"                               ? NodeKind::kIdentity
                                                                               : NodeKind::kOp);
  }
  im.endpoints.Build(g);
  im.uses.assign(im.endpoints.size(), 0);
  auto use = [&](const ir::Endpoint &e) {
    const size_t slot = im.endpoints.Of(e.node, e.index);
    if (slot != EndpointIndex::kNone) ++im.uses[slot];
  };
  for (const auto &node : g.nodes)
    for (const auto &in : node.inputs)
      if (in.connected()) use(in);
  for (const auto &o : g.outputs) use(o);  // outputs are read at the end
  for (size_t k = 0; k < g.inputs.size(); ++k) im.input_slot[g.inputs[k]] = k;
  im.const_labels.assign(g.nodes.size(), std::string());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node &node = g.nodes[i];
    if (node.type != ir::kConst && node.type != ir::kConstant) continue;
    auto v = node.attrs.find("value");
    if (v == node.attrs.end() || !v->second.t) continue;
    im.const_labels[i] = "weight '" + node.name + "' of model " + im.path + " (" +
                         std::to_string(v->second.t->data.size) + " bytes)";
  }
  im.planned_labels.assign(g.nodes.size(), {});
  for (size_t i = 0; im.arena != nullptr && i < g.nodes.size(); ++i) {
    const ir::Node &node = g.nodes[i];
    const auto &plan = node.plan.output_offsets;
    im.planned_labels[i].resize(std::min(plan.size(), node.output_descs.size()));
    for (size_t k = 0; k < im.planned_labels[i].size(); ++k) {
      if (plan[k] < 0) continue;
      const auto &d = node.output_descs[k];
      im.planned_labels[i][k] = "tensor '" + node.name + ":" + std::to_string(k) + "' of model " + im.path + " (" +
                                std::to_string(TensorByteSize(d.dtype, d.shape).value_or(0)) + " bytes, planned)";
    }
  }
  for (size_t i = 0; i < im.nodes.size(); ++i) {
    NodeRuntime &nr = im.nodes[i];
    if (nr.op == nullptr) continue;
    const ir::Node &node = g.nodes[i];
    auto a = node.attrs.find("openatc_output_dtype");
    if (a != node.attrs.end()) nr.reduced_to = ReducedFloatFromName(a->second.s);
    auto *packing = dynamic_cast<openatc::WeightPackingOp *>(nr.op.get());
    if (packing == nullptr || nr.execute == nullptr || nr.annotated != nullptr) continue;
    // Dynamic models know their shapes per run: PrepareForShapes prepares them then.
    if (im.dynamic) nr.packing = packing;
    else Prepare(im, i, *packing, nullptr);
  }
}

void PrepareForShapes(LoadedModel::Impl &im, size_t i, gert_impl::Frame &frame) {
  NodeRuntime &nr = im.nodes[i];
  if (nr.packing == nullptr) return;
  for (const NodeRuntime::ShapeState &p : nr.prepared) {
    if (SameShapes(p.shapes, frame)) {
      frame.node_state = p.state.get();
      return;
    }
  }
  Prepare(im, i, *nr.packing, &frame);  // throws when PrepareNode fails: nothing kept
  if (nr.prepared.size() >= NodeRuntime::kShapeStates) nr.prepared.erase(nr.prepared.begin());  // the oldest
  nr.prepared.emplace_back();
  StoreShapes(&nr.prepared.back().shapes, frame);
  nr.prepared.back().state = std::move(nr.state);
  frame.node_state = nr.prepared.back().state.get();
}

}  // namespace openatc::runtime
