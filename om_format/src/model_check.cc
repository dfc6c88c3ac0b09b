// Semantic checks of an om::Model shared by the writer (a bad model is a bug: kInternal) and the
// reader (a bad model is a corrupt file: kCorruptOm): graph indices, constant tensor sizes,
// artifact and deliverable consistency, the typed plan.
#include <algorithm>
#include <functional>
#include <limits>

#include "internal.h"
#include "openatc/common/dtype.h"

namespace openatc::om::detail {
namespace {

std::string N(uint64_t v) { return std::to_string(v); }

// The typed plan (NodePlan, Graph::arena_bytes): offsets per output, every planned output
// inside the arena, workspace sizes and declared launches well formed. What a slot means at run
// time is the runtime's business; bounds are checked here so nothing above trusts raw numbers.
void CheckPlan(const ir::Graph &g, const std::function<Error(const std::string &)> &fail) {
  constexpr int64_t kMaxBytes = int64_t{1} << 48;
  if (g.arena_bytes < -1 || g.arena_bytes > kMaxBytes)
    throw fail("graph: arena size " + std::to_string(g.arena_bytes) + " is out of range");
  for (const auto &node : g.nodes) {
    const ir::NodePlan &p = node.plan;
    auto bad = [&](const std::string &msg) { return fail("plan: " + msg).WithNode(node.name, node.type); };
    if (!p.output_offsets.empty()) {
      if (g.arena_bytes < 0) throw bad("output offsets in a model without a memory plan");
      if (p.output_offsets.size() != node.output_descs.size())
        throw bad(N(p.output_offsets.size()) + " output offsets for " + N(node.output_descs.size()) + " outputs");
    }
    for (size_t k = 0; k < p.output_offsets.size(); ++k) {
      const int64_t off = p.output_offsets[k];
      if (off == -1) continue;
      std::string why;
      const std::optional<uint64_t> bytes = ConstTensorByteSize(node.output_descs[k], &why);
      if (off < 0 || !bytes || static_cast<uint64_t>(off) > static_cast<uint64_t>(g.arena_bytes) ||
          *bytes > static_cast<uint64_t>(g.arena_bytes) - static_cast<uint64_t>(off))
        throw bad("output " + N(k) + " at arena offset " + std::to_string(off) + " (" +
                  (bytes ? N(*bytes) + " bytes" : "size unknown") + ") does not fit the " +
                  std::to_string(g.arena_bytes) + "-byte arena");
    }
    for (int64_t ws : p.workspace_bytes)
      if (ws <= 0 || ws > kMaxBytes) throw bad("workspace size " + std::to_string(ws) + " is out of range");
    for (const auto &l : p.launches)
      if (l.kernel_name.empty() || l.binary.empty())
        throw bad("a declared launch has no kernel name or no kernel binary");
    for (const auto &pw : node.packed_weights)  // 1.3
      if (pw.input < 0 || static_cast<size_t>(pw.input) >= node.inputs.size() || pw.data.empty())
        throw fail("packed weight of input " + std::to_string(pw.input) + ": no such input, or no bytes")
            .WithNode(node.name, node.type);
  }
}

}  // namespace

std::optional<uint64_t> ConstTensorByteSize(const ir::TensorDesc &desc, std::string *why) {
  return TensorByteSize(desc.dtype, desc.shape, why);
}

namespace {

// Indices of edges, control edges, graph inputs and outputs; constant tensor sizes.
void CheckGraph(const ir::Graph &graph, const std::function<Error(const char *, const std::string &)> &fail) {
  const auto &nodes = graph.nodes;
  if (nodes.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw fail(kErrGraph, "graph: too many nodes (" + N(nodes.size()) + ")");
  const int64_t n = static_cast<int64_t>(nodes.size());

  // An endpoint that must name an existing output of an existing node.
  auto check_endpoint = [&](const ir::Endpoint &e, const std::string &what) -> std::string {
    if (e.node < 0 || e.node >= n)
      return what + " refers to node #" + std::to_string(e.node) + "; the graph has " + N(n) +
             " nodes";
    const auto &src = nodes[static_cast<size_t>(e.node)];
    if (e.index < 0 || static_cast<size_t>(e.index) >= src.output_descs.size())
      return what + " uses output #" + std::to_string(e.index) + " of node '" + src.name +
             "', which has " + N(src.output_descs.size()) + " outputs";
    return {};
  };

  for (const auto &node : nodes) {
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const auto &e = node.inputs[k];
      if (e.node == -1) continue;  // unconnected
      std::string err = check_endpoint(e, "input #" + N(k));
      if (!err.empty()) throw fail(kErrGraph, err).WithNode(node.name, node.type);
    }
    if (node.input_descs.size() != node.inputs.size())
      throw fail(kErrGraph, "has " + N(node.inputs.size()) + " inputs but " +
                                N(node.input_descs.size()) + " input descs")
          .WithNode(node.name, node.type);
    for (int32_t c : node.control_inputs)
      if (c < 0 || c >= n)
        throw fail(kErrGraph, "control input refers to node #" + std::to_string(c) +
                                  "; the graph has " + N(n) + " nodes")
            .WithNode(node.name, node.type);
    for (const auto &[name, attr] : node.attrs) {
      if (attr.kind == ir::AttrKind::kGraph && attr.g) CheckGraph(*attr.g, fail);
      if (attr.kind == ir::AttrKind::kListGraph)
        for (const auto &sub : attr.list_g)
          if (sub) CheckGraph(*sub, fail);
      if (attr.kind != ir::AttrKind::kTensor) continue;
      if (!attr.t)
        throw fail(kErrTensorSize, "tensor '" + name + "': attr of kind tensor has no tensor")
            .WithNode(node.name, node.type);
      std::string why;
      auto want = ConstTensorByteSize(attr.t->desc, &why);
      if (!why.empty())
        throw fail(kErrTensorSize, "tensor '" + name + "': " + why)
            .WithNode(node.name, node.type);
      if (want && *want != attr.t->data.size)
        throw fail(kErrTensorSize, "tensor '" + name + "': " + DataTypeName(attr.t->desc.dtype) +
                                       " " + ShapeToString(attr.t->desc.shape) + " needs " +
                                       N(*want) + " bytes but has " + N(attr.t->data.size))
            .WithNode(node.name, node.type);
    }
  }
  for (size_t k = 0; k < graph.inputs.size(); ++k) {
    int32_t i = graph.inputs[k];
    if (i < 0 || i >= n)
      throw fail(kErrGraph, "graph input #" + N(k) + " refers to node #" + std::to_string(i) +
                                "; the graph has " + N(n) + " nodes");
  }
  for (size_t k = 0; k < graph.outputs.size(); ++k) {
    std::string err = check_endpoint(graph.outputs[k], "graph output #" + N(k));
    if (!err.empty()) throw fail(kErrGraph, err);
  }
}

// Artifacts and deliverables: indices, payload flags, hashes, one artifact per op type.
void CheckArtifacts(const Model &model, const std::function<Error(const char *, const std::string &)> &fail) {
  std::vector<std::string> types;
  const int64_t nd = static_cast<int64_t>(model.deliverables.size());
  for (const auto &a : model.artifacts) {
    if (a.deliverable < -1 || a.deliverable >= nd)
      throw fail(kErrArtifact, "artifact of op type '" + a.op_type + "' refers to deliverable #" +
                                   std::to_string(a.deliverable) + "; there are " + N(nd));
    if (!a.has_payload && !a.payload.empty())
      throw fail(kErrArtifact, "artifact of op type '" + a.op_type +
                                   "' has a payload but has_payload is false");
    if (!a.payload.empty() && Hash64(a.payload.data, a.payload.size) != a.hash)
      throw fail(kErrArtifact, "artifact of op type '" + a.op_type +
                                   "': hash is not the XXH3-64 of its " + N(a.payload.size) +
                                   "-byte payload");
    types.push_back(a.op_type);
  }
  std::sort(types.begin(), types.end());
  auto dup = std::adjacent_find(types.begin(), types.end());
  if (dup != types.end())
    throw fail(kErrArtifact, "op type '" + *dup + "' has more than one artifact");
  for (size_t k = 0; k < model.deliverables.size(); ++k) {
    const auto &d = model.deliverables[k];
    if (!d.data.empty() && Hash64(d.data.data, d.data.size) != d.hash)
      throw fail(kErrArtifact, "deliverable #" + N(k) + " '" + d.file_name +
                                   "': hash is not the XXH3-64 of its " + N(d.data.size) +
                                   " bytes");
  }
}

// Gears (1.2): each gear graph is a sound graph with a sound plan; a geared model has >= 2 gears of
// one length, a kind, and its user inputs named.
void CheckGears(const Model &model, const std::function<Error(const char *, const std::string &)> &fail) {
  if (model.gears.empty()) {
    if (model.gear_kind != GearKind::kNone) throw fail(kErrGraph, "gears: a gear kind is set but there are no gears");
    return;
  }
  if (model.gear_kind == GearKind::kNone) throw fail(kErrGraph, "gears: the model has gears but no gear kind");
  if (model.gears.size() < 2) throw fail(kErrGraph, "gears: a geared model needs at least 2 gears");
  if (model.gear_input_order.empty()) throw fail(kErrGraph, "gears: the gears' inputs are not named");
  for (size_t k = 0; k < model.gears.size(); ++k) {
    const GearVariant &g = model.gears[k];
    if (g.values.empty() || g.values.size() != model.gears[0].values.size())
      throw fail(kErrGraph, "gear #" + N(k) + " has " + N(g.values.size()) + " values; gear #0 has " +
                                N(model.gears[0].values.size()));
    auto gear_fail = [&](const char *code, const std::string &msg) { return fail(code, "gear #" + N(k) + ": " + msg); };
    CheckGraph(g.graph, gear_fail);
    CheckPlan(g.graph, [&](const std::string &msg) { return gear_fail(kErrPlan, msg); });
  }
}

}  // namespace

void CheckModel(const Model &model, ErrorCategory category, bool reading) {
  const std::string hint = reading ? "The file is damaged; rebuild it with atc"
                                   : "This is a bug in the producer of the model";
  auto fail = [&](const char *code, const std::string &msg) { return Error(category, code, msg, hint); };
  CheckGraph(model.graph, fail);
  CheckPlan(model.graph, [&](const std::string &msg) { return fail(kErrPlan, msg); });
  CheckArtifacts(model, fail);
  CheckGears(model, fail);
}

}  // namespace openatc::om::detail
