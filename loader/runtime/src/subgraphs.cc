// LoadedModel::LoadSubgraphs: every subgraph of a native control-flow node (If branches, Loop,
// Scan and SequenceMap bodies; openatc/ir/control_flow.h) is loaded as a model of its own on
// this model's registry (the op objects are shared, deserialized once), after checking that it
// fits its node: the OM is untrusted, so a body whose inputs or outputs do not match the node's
// is refused here (OA2111) rather than read out of range while running.
#include "model_impl.h"
#include "openatc/common/error.h"
#include "openatc/ir/control_flow.h"

namespace openatc::runtime {
namespace {

// How many inputs and outputs the subgraph in `attr` of `node` must have (ONNX operator specs).
void CheckFits(const ir::Node &node, const std::string &attr, const ir::Graph &g) {
  const size_t captures = ir::CapturedInputs(node);
  const size_t ins = node.inputs.size(), outs = node.output_descs.size();
  size_t want_in = ins, want_out = outs;
  if (node.type == "If") want_in = captures;
  if (node.type == "Loop") want_out = outs + 1;  // cond first
  if (node.type == "Scan" && node.attrs.count("onnx_opset") && node.attrs.at("onnx_opset").i < 9) want_in = ins - 1;
  auto fail = [&](const std::string &what) {
    return Error(ErrorCategory::kCorruptOm, "OA2111", "subgraph '" + attr + "' " + what, "Rebuild the OM with atc")
        .WithNode(node.name, node.type);
  };
  if (captures > ins) throw fail("captures more values than the node has inputs");
  if (g.inputs.size() != want_in)
    throw fail("has " + std::to_string(g.inputs.size()) + " inputs where the node gives " + std::to_string(want_in));
  if (g.outputs.size() != want_out)
    throw fail("has " + std::to_string(g.outputs.size()) + " outputs where the node needs " + std::to_string(want_out));
}

// The graph attrs a native node must have.
std::vector<std::string> RequiredBodies(const std::string &type) {
  if (type == "If") return {"then_branch", "else_branch"};
  if (type == "Loop" || type == "Scan" || type == "SequenceMap") return {"body"};
  return {};
}

}  // namespace

void LoadedModel::LoadSubgraphs() {
  Impl &im = *impl_;
  const ir::Graph &graph = im.model.graph;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node &node = graph.nodes[i];
    if (!ir::IsNativeOp(node.type)) continue;
    for (const std::string &attr : RequiredBodies(node.type)) {
      auto it = node.attrs.find(attr);
      if (it == node.attrs.end() || it->second.kind != ir::AttrKind::kGraph || !it->second.g) {
        throw Error(ErrorCategory::kCorruptOm, "OA2111", "the node has no subgraph '" + attr + "'", "Rebuild the OM with atc")
            .WithNode(node.name, node.type);
      }
      CheckFits(node, attr, *it->second.g);
      om::Model sub;
      sub.format_major = im.model.format_major;
      sub.format_minor = im.model.format_minor;
      sub.producer = im.model.producer;
      sub.target = im.model.target;
      sub.graph = *it->second.g;
      sub.artifacts = im.model.artifacts;
      sub.build_options = im.model.build_options;
      auto child = LoadImpl(std::move(sub), im.path, im.registry);
      im.subgraph_impls[{i, attr}] = child->impl_.get();
      im.subgraphs[{i, attr}] = std::move(child);
    }
  }
}

}  // namespace openatc::runtime
