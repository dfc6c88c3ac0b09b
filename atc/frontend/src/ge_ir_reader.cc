// ReadGeIrFile / ReadGeIrString: ModelDef graph[0] -> ir::Graph (nodes, attrs, descs, edges),
// with GE's Data renumbering, NetOutput completion and Const checks (docs/ge-ir.md §3-§4).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include "internal.h"
#include "openatc/common/dtype.h"

namespace openatc::frontend {
namespace {

using namespace detail;

struct Builder {
  const geir::GraphDef &gd;
  ir::Graph g;
  DescOrigin origin;
  std::unordered_map<std::string, int32_t> index_of;
  std::vector<int64_t> max_out;  ///< highest output index used per node, -1 if none

  explicit Builder(const geir::GraphDef &graph) : gd(graph) {}

  [[noreturn]] void Fail(Error e, int32_t node) {
    if (node >= 0) e.WithNode(g.nodes[node].name, g.nodes[node].type);
    throw e;
  }

  void AddNodes() {
    if (gd.op_size() == 0) {
      throw GraphError(kNoGraph, "graph '" + gd.name() + "' has no nodes",
                       "Add at least one Data node and the ops that consume it");
    }
    g.nodes.resize(gd.op_size());
    origin.input_explicit.resize(gd.op_size());
    origin.output_explicit.assign(gd.op_size(), false);
    max_out.assign(gd.op_size(), -1);
    for (int i = 0; i < gd.op_size(); ++i) {
      const geir::OpDef &op = gd.op(i);
      ir::Node &n = g.nodes[i];
      n.name = op.name();
      n.type = op.type();
      if (op.name().empty()) {
        throw GraphError(kBadNodeName, "node #" + std::to_string(i) + " (op " + op.type() +
                                           ") has an empty name",
                         "Give every node a unique non-empty name");
      }
      auto [it, inserted] = index_of.emplace(op.name(), i);
      if (!inserted) {
        Fail(GraphError(kBadNodeName,
                        "the node name is used twice (nodes #" + std::to_string(it->second) +
                            " and #" + std::to_string(i) + ")",
                        "Node names must be unique within a graph; rename one of them"),
             i);
      }
      if (op.type().empty()) {
        Fail(GraphError(kEmptyOpType, "the node has an empty op type",
                        "Set 'type' to the op type (e.g. \"Data\", \"AddCustom\")"),
             i);
      }
    }
  }

  void ConvertAttrsAndOutputs() {
    for (int i = 0; i < gd.op_size(); ++i) {
      const geir::OpDef &op = gd.op(i);
      ir::Node &n = g.nodes[i];
      try {
        // Sorted keys so the first error reported does not depend on map iteration order.
        std::vector<std::string> keys;
        for (const auto &kv : op.attr()) keys.push_back(kv.first);
        std::sort(keys.begin(), keys.end());
        for (const auto &k : keys) {
          ir::AttrValue v;
          if (ConvertAttr(k, op.attr().at(k), &v)) n.attrs[k] = std::move(v);
        }
        for (int o = 0; o < op.output_desc_size(); ++o)
          n.output_descs.push_back(ConvertTensorDesc(op.output_desc(o), "output_desc " +
                                                                            std::to_string(o)));
        origin.output_explicit[i] = op.output_desc_size() > 0;
        if (n.type == ir::kConst || n.type == ir::kConstant) ConvertConst(i);
      } catch (Error &e) {
        Fail(e, i);
      }
    }
  }

  /// Const/Constant: `value` must be a tensor of dtype size x element count bytes; its desc is
  /// the node's single output desc.
  void ConvertConst(int32_t i) {
    ir::Node &n = g.nodes[i];
    auto it = n.attrs.find("value");
    if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kTensor) {
      throw GraphError(kBadConst, "the constant has no tensor attr 'value'",
                       "Give it attr \"value\": {\"t\": {\"desc\": ..., \"data\": base64}}");
    }
    const ir::ConstTensor &t = *it->second.t;
    int64_t count = ShapeElementCount(t.desc.shape);
    if (count < 0) {
      throw GraphError(kBadConst,
                       "the shape " + ShapeToString(t.desc.shape) +
                           " of attr 'value' is not fully known",
                       "A constant needs a static shape");
    }
    size_t elem = DataTypeSize(t.desc.dtype);
    bool string_like = t.desc.dtype == ge::DT_STRING || t.desc.dtype == ge::DT_STRING_REF;
    if (t.desc.dtype == ge::DT_UNDEFINED || (elem == 0 && !string_like)) {
      throw GraphError(kBadConst,
                       "attr 'value' has dtype " + DataTypeName(t.desc.dtype) +
                           ", which has no whole-byte element size",
                       "Use a dtype such as DT_FLOAT, DT_INT32 or DT_INT64 for constants");
    }
    if (!string_like) {
      // count * elem cannot overflow silently: compare by division.
      bool ok = count == 0 ? t.data.size == 0
                           : (t.data.size % elem == 0 &&
                              t.data.size / elem == static_cast<uint64_t>(count));
      if (!ok) {
        throw GraphError(kBadConst,
                         "attr 'value' holds " + std::to_string(t.data.size) +
                             " bytes, but its " + DataTypeName(t.desc.dtype) + " shape " +
                             ShapeToString(t.desc.shape) + " needs " + std::to_string(count) +
                             " x " + std::to_string(elem) + " bytes",
                         "Make the data size equal to element count x element size");
      }
    }
    n.output_descs.assign(1, t.desc);
    origin.output_explicit[i] = true;
  }

  int32_t Resolve(const ParsedEdge &e, int32_t consumer, const std::string &where) {
    auto it = index_of.find(e.src);
    if (it == index_of.end()) {
      Fail(GraphError(kUnknownInput, where + " names node '" + e.src + "', which does not exist",
                      SuggestNodeHint(g, e.src)),
           consumer);
    }
    int32_t src = it->second;
    if (e.kind != ParsedEdge::kData) return src;
    bool declared = origin.output_explicit[src];
    int64_t limit = declared ? static_cast<int64_t>(g.nodes[src].output_descs.size())
                             : kMaxImplicitOutputs;
    if (e.index >= limit) {
      std::string msg = where + " uses output " + std::to_string(e.index) + " of node '" + e.src +
                        "' (" + g.nodes[src].type + "), which ";
      msg += declared ? "declares only " + std::to_string(limit) + " output(s)"
                      : "is beyond the supported " + std::to_string(limit) + " outputs";
      Fail(GraphError(kBadEdge, msg, "Use an output index below the producer's output count"),
           consumer);
    }
    max_out[src] = std::max(max_out[src], e.index);
    return src;
  }

  void ConnectInputs() {
    for (int i = 0; i < gd.op_size(); ++i) {
      const geir::OpDef &op = gd.op(i);
      ir::Node &n = g.nodes[i];
      int slot = 0;
      for (const std::string &text : op.input()) {
        std::string where = "input " + std::to_string(slot) + " ('" + text + "')";
        ParsedEdge e;
        try {
          e = ParseEdge(text, "input " + std::to_string(slot));
        } catch (Error &err) {
          Fail(err, i);
        }
        if (e.kind == ParsedEdge::kControl) {
          int32_t src = Resolve(e, i, "control input '" + text + "'");
          if (std::find(n.control_inputs.begin(), n.control_inputs.end(), src) ==
              n.control_inputs.end())
            n.control_inputs.push_back(src);
          continue;
        }
        ir::Endpoint ep;
        if (e.kind == ParsedEdge::kData) {
          ep.node = Resolve(e, i, where);
          ep.index = static_cast<int32_t>(e.index);
        }
        n.inputs.push_back(ep);
        ++slot;
      }
    }
  }

  std::vector<ir::Endpoint> ParseGraphOutputs() {
    std::vector<ir::Endpoint> outs;
    for (int k = 0; k < gd.output_size(); ++k) {
      const std::string &text = gd.output(k);
      std::string where = "graph output " + std::to_string(k) + " ('" + text + "')";
      ParsedEdge e = ParseEdge(text, "graph output " + std::to_string(k));
      if (e.kind != ParsedEdge::kData) {
        throw GraphError(kBadOutputs, where + " is not a data output",
                         "Write graph outputs as 'node:index' with index >= 0");
      }
      ir::Endpoint ep;
      ep.node = Resolve(e, -1, where);
      ep.index = static_cast<int32_t>(e.index);
      outs.push_back(ep);
    }
    return outs;
  }

  void SizeOutputsAndInputDescs() {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      ir::Node &n = g.nodes[i];
      size_t need = static_cast<size_t>(max_out[i] + 1);
      if (n.output_descs.size() < need) n.output_descs.resize(need);
    }
    for (int i = 0; i < gd.op_size(); ++i) {
      const geir::OpDef &op = gd.op(i);
      ir::Node &n = g.nodes[i];
      origin.input_explicit[i].assign(n.inputs.size(), false);
      for (size_t s = 0; s < n.inputs.size(); ++s) {
        const ir::Endpoint &ep = n.inputs[s];
        ir::TensorDesc d;
        if (static_cast<int>(s) < op.input_desc_size()) {
          try {
            d = ConvertTensorDesc(op.input_desc(s), "input_desc " + std::to_string(s));
          } catch (Error &e) {
            Fail(e, i);
          }
          origin.input_explicit[i][s] = true;
        } else if (ep.connected()) {
          d = g.nodes[ep.node].output_descs[ep.index];
        }
        // An unconnected input is an absent optional one, except a Data node's own input.
        if (!ep.connected() && n.type != ir::kData) d.valid = false;
        n.input_descs.push_back(std::move(d));
      }
    }
  }

  void NumberDataNodes() {
    std::vector<int32_t> data;
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (g.nodes[i].type == ir::kData) data.push_back(static_cast<int32_t>(i));
    std::vector<int64_t> idx(data.size(), -1);
    bool exact = true;
    std::set<int64_t> seen;
    for (size_t k = 0; k < data.size(); ++k) {
      ir::Node &n = g.nodes[data[k]];
      auto it = n.attrs.find("index");
      if (it == n.attrs.end()) {
        exact = false;
        continue;
      }
      if (it->second.kind != ir::AttrKind::kInt) {
        Fail(GraphError(kBadDataIndex, "attr 'index' of the Data node is not an int",
                        "Set \"index\": {\"i\": \"<position in the model inputs>\"}"),
             data[k]);
      }
      idx[k] = it->second.i;
      if (idx[k] < 0 || idx[k] >= static_cast<int64_t>(data.size()) ||
          !seen.insert(idx[k]).second)
        exact = false;
    }
    if (!exact) {
      // GE's rule for AIR input (docs/ge-ir.md §4): renumber every Data node in node order.
      for (size_t k = 0; k < data.size(); ++k) idx[k] = static_cast<int64_t>(k);
    }
    g.inputs.assign(data.size(), -1);
    for (size_t k = 0; k < data.size(); ++k) {
      ir::AttrValue v;
      v.kind = ir::AttrKind::kInt;
      v.i = idx[k];
      g.nodes[data[k]].attrs["index"] = v;
      g.inputs[idx[k]] = data[k];
    }
  }

  void BuildOutputs(const std::vector<ir::Endpoint> &graph_outputs) {
    int32_t net = -1;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].type != ir::kNetOutput) continue;
      if (net >= 0) {
        Fail(GraphError(kBadOutputs,
                        "the graph has a second NetOutput node (the first is '" +
                            g.nodes[net].name + "')",
                        "Keep exactly one NetOutput node; its inputs are the model outputs"),
             static_cast<int32_t>(i));
      }
      net = static_cast<int32_t>(i);
    }
    if (net >= 0) {
      const ir::Node &n = g.nodes[net];
      for (size_t s = 0; s < n.inputs.size(); ++s) {
        if (!n.inputs[s].connected()) {
          Fail(GraphError(kBadOutputs, "input " + std::to_string(s) + " is not connected",
                          "Every NetOutput input must name the tensor it outputs"),
               net);
        }
      }
      if (!graph_outputs.empty() && graph_outputs != n.inputs) {
        Fail(GraphError(kBadOutputs,
                        "GraphDef.output (" + std::to_string(graph_outputs.size()) +
                            " entries) does not match the NetOutput node's inputs (" +
                            std::to_string(n.inputs.size()) + " entries, in order)",
                        "Make graph.output list the NetOutput inputs in the same order, or drop "
                        "graph.output"),
             net);
      }
      g.outputs = n.inputs;
    } else {
      g.outputs = graph_outputs;
      if (!g.outputs.empty()) AddNetOutput();
    }
    if (g.outputs.empty()) {
      Error e = GraphError(kBadOutputs, "the graph has no outputs",
                           "Add a NetOutput node or list the outputs in graph.output "
                           "(\"node:index\")");
      if (net >= 0) Fail(e, net);
      throw e;
    }
  }

  /// GE inserts a NetOutput named Node_Output when the user graph has none (docs/ge-ir.md §4).
  void AddNetOutput() {
    std::string name = "Node_Output";
    for (int k = 1; index_of.count(name); ++k) name = "Node_Output_" + std::to_string(k);
    ir::Node n;
    n.name = name;
    n.type = ir::kNetOutput;
    n.inputs = g.outputs;
    for (const auto &ep : g.outputs)
      n.input_descs.push_back(g.nodes[ep.node].output_descs[ep.index]);
    index_of.emplace(name, static_cast<int32_t>(g.nodes.size()));
    origin.input_explicit.emplace_back(n.inputs.size(), false);
    origin.output_explicit.push_back(false);
    g.nodes.push_back(std::move(n));
  }

  ir::Graph Build() {
    g.name = gd.name();
    AddNodes();
    ConvertAttrsAndOutputs();
    ConnectInputs();
    // Graph outputs are parsed in both cases: they size producers when no NetOutput exists and
    // are compared with the NetOutput inputs otherwise.
    std::vector<ir::Endpoint> graph_outputs = ParseGraphOutputs();
    SizeOutputsAndInputDescs();
    NumberDataNodes();
    BuildOutputs(graph_outputs);
    CheckEdgeDescs(g, origin);
    CheckNoCycle(g);
    return std::move(g);
  }
};

ir::Graph ConvertModel(const geir::ModelDef &model) {
  if (model.graph_size() == 0) {
    throw GraphError(kNoGraph, "the model has no graph",
                     "A GE IR file needs graph[0], the root graph");
  }
  Builder b(model.graph(0));
  return b.Build();
}

}  // namespace

ir::Graph ReadGeIrString(const std::string &bytes, GeIrEncoding encoding,
                         const std::string &name_for_errors) {
  try {
    geir::ModelDef model;
    ParseModelDef(bytes, encoding, name_for_errors, &model);
    return ConvertModel(model);
  } catch (Error &e) {
    if (!name_for_errors.empty()) e.WithFile(name_for_errors);
    throw;
  }
}

ir::Graph ReadGeIrFile(const std::string &path, GeIrEncoding encoding) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(ErrorCategory::kIo, kReadFailed, "the graph path is a directory",
                "Pass the graph file itself (.air, .json, .txt) to --model")
        .WithFile(path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ErrorCategory::kIo, kReadFailed, std::string("cannot open the graph file: ") + std::strerror(errno),
                "Check the path given to --model and that the file is readable")
        .WithFile(path);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    throw Error(ErrorCategory::kIo, kReadFailed, "cannot read the graph file",
                "Check that the file is readable")
        .WithFile(path);
  }
  if (ss.str().empty()) {
    throw Error(ErrorCategory::kGraph, kParseFailed, "the graph file is empty (0 bytes)",
                "Pass a GE graph file: AIR (.air), its JSON form (.json) or a GE text dump (.txt, .pbtxt)")
        .WithFile(path);
  }
  return ReadGeIrString(ss.str(), encoding, path);
}

}  // namespace openatc::frontend
