// Per-node state made once at load (model_impl.h NodeRuntime::state, reduced_to): what the
// executor would otherwise look up on every run. WeightPackingOp nodes of a static model get
// PrepareNode with their constant inputs and the OM's packed copies (openatc/weight_packing.h).
#include "prepare_nodes.h"

#include "openatc/gert/node_frame.h"
#include "openatc/opp/call_guard.h"
#include "openatc/weight_packing.h"

namespace openatc::runtime {
namespace {

void Prepare(LoadedModel::Impl &im, size_t i, openatc::WeightPackingOp &op) {
  const ir::Graph &g = im.model.graph;
  const ir::Node &node = g.nodes[i];
  NodeRuntime &nr = im.nodes[i];
  gert_impl::NodeFrame nf(node, [&](size_t a) { return gert_impl::ConstAnchorData(g, node, a); }, gert::kOnHost);
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
  opp::GuardedCall({node.name, node.type, "PrepareNode", nr.origin},
                   [&] { return op.PrepareNode(ctx.get(), views.data(), views.size(), &nr.state); });
}

}  // namespace

void PrepareNodes(LoadedModel::Impl &im) {
  const ir::Graph &g = im.model.graph;
  for (const auto &node : g.nodes)
    for (const auto &in : node.inputs)
      if (in.connected()) ++im.uses[{in.node, in.index}];
  for (const auto &o : g.outputs) ++im.uses[{o.node, o.index}];  // outputs are read at the end
  for (size_t k = 0; k < g.inputs.size(); ++k) im.input_slot[g.inputs[k]] = k;
  for (size_t i = 0; i < im.nodes.size(); ++i) {
    NodeRuntime &nr = im.nodes[i];
    if (nr.op == nullptr) continue;
    const ir::Node &node = g.nodes[i];
    auto a = node.attrs.find("openatc_output_dtype");
    if (a != node.attrs.end()) nr.reduced_to = ReducedFloatFromName(a->second.s);
    auto *packing = dynamic_cast<openatc::WeightPackingOp *>(nr.op.get());
    // Dynamic models infer shapes per run: nothing fixed to prepare.
    if (packing != nullptr && nr.execute != nullptr && nr.annotated == nullptr && !im.dynamic) Prepare(im, i, *packing);
  }
}

}  // namespace openatc::runtime
