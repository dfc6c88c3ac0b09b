// ONNX GraphProto -> ir::Graph (see onnx_reader.h, step 5): Data/Const/op/NetOutput nodes, unique
// names, descs from value_info, version normalisation, and one list of unsupported features.
// Subgraphs (If/Loop/Scan/SequenceMap bodies) are converted by a child Converter into Graph attrs;
// the outer-scope values a body reads become its extra Data nodes and extra inputs of the owning
// node (the convention of openatc/ir/control_flow.h).
#include <algorithm>
#include <cctype>
#include <set>

#include "onnx_internal.h"
#include "openatc/ir/control_flow.h"
#include "openatc/frontend/onnx_reader.h"

namespace openatc::frontend::onnx_detail {
namespace {

class Namer {
 public:
  std::string Unique(const std::string &base) {
    std::string name = base;
    for (int k = 1; used_.count(name); ++k) name = base + "_" + std::to_string(k);
    used_.insert(name);
    return name;
  }

 private:
  std::set<std::string> used_;
};

ir::AttrValue IntAttr(int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  return a;
}

ir::AttrValue TensorAttr(std::shared_ptr<ir::ConstTensor> t) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kTensor;
  a.t = std::move(t);
  return a;
}

class Converter {
 public:
  Converter(const onnx::ModelProto &model, const TensorContext &ctx,
            const std::function<bool(const std::string &)> &is_supported, const std::set<int> &no_schema,
            const OnnxCustomMapper &map_custom, Converter *parent = nullptr, int depth = 0)
      : model_(model), ctx_(ctx), is_supported_(is_supported), no_schema_(no_schema), map_custom_(map_custom),
        parent_(parent), depth_(depth) {}

  ir::Graph Run() {
    ReadOpsets();
    const onnx::GraphProto &gp = model_.graph();
    ConvertGraph(gp, "onnx_graph");
    if (!problems_.empty()) ThrowProblems();
    return std::move(graph_);
  }

  // A subgraph body: outer-scope names become captures (Resolve). Problems are left for the
  // parent to report.
  void RunBody(const onnx::GraphProto &gp) {
    opsets_ = parent_->opsets_;
    ConvertGraph(gp, "subgraph");
  }

  // Inputs (those that are not initializers), initializers, nodes and outputs of `gp`.
  void ConvertGraph(const onnx::GraphProto &gp, const char *default_name) {
    graph_.name = gp.name().empty() ? default_name : gp.name();
    for (const auto *list : {&gp.input(), &gp.output(), &gp.value_info()})
      for (const auto &vi : *list) types_.emplace(vi.name(), &vi.type());
    std::set<std::string> initializers;
    for (const auto &t : gp.initializer()) initializers.insert(t.name());
    for (const auto &in : gp.input())
      if (!initializers.count(in.name())) AddData(in);
    for (const auto &t : gp.initializer()) AddInitializer(t);
    for (const auto &t : gp.sparse_initializer())
      problems_.push_back({"initializer '" + t.values().name() + "'", "sparse initializers are not supported"});
    const std::string output_name = namer_.Unique("Node_Output");
    for (int i = 0; i < gp.node_size(); ++i) AddNode(gp.node(i), i);
    AddOutputs(gp, output_name);
  }

 private:
  void ReadOpsets() {
    for (const auto &imp : model_.opset_import()) {
      std::string domain = imp.domain() == "ai.onnx" ? "" : imp.domain();
      opsets_[domain] = imp.version();
    }
  }

  // The constant behind a tensor name (an initializer or a Constant node's output), or nullptr.
  const ir::ConstTensor *ConstOf(const std::string &tensor) const {
    auto it = tensors_.find(tensor);
    if (it == tensors_.end() || it->second.node < 0) return nullptr;
    const ir::Node &n = graph_.nodes[static_cast<size_t>(it->second.node)];
    if (n.type != ir::kConst) return nullptr;
    auto v = n.attrs.find("value");
    return v == n.attrs.end() ? nullptr : v->second.t.get();
  }

  // The endpoint of tensor `t` in this graph; in a subgraph, a name of an enclosing graph is
  // captured: a Data node here, an extra input of the owning node (openatc/ir/control_flow.h).
  bool Resolve(const std::string &t, ir::Endpoint *ep) {
    auto it = tensors_.find(t);
    if (it != tensors_.end()) {
      *ep = it->second;
      return true;
    }
    ir::Endpoint outer;
    if (parent_ == nullptr || !parent_->Resolve(t, &outer)) return false;
    ir::Node n;
    n.name = namer_.Unique(t);
    n.type = ir::kData;
    const ir::TensorDesc d = parent_->graph_.nodes[static_cast<size_t>(outer.node)].output_descs.at(static_cast<size_t>(outer.index));
    n.inputs = {{-1, 0}};
    n.input_descs = {d};
    n.output_descs = {d};
    const int32_t idx = Push(std::move(n));
    tensors_[t] = {idx, 0};
    captures_.emplace_back(t, idx);
    *ep = {idx, 0};
    return true;
  }

  // An Int attr holding an ONNX TensorProto.DataType code becomes a DataType attr.
  void DtypeCodeToDataType(PendingNode &pn, const char *attr, const std::string &where) {
    auto it = pn.attrs.find(attr);
    if (it == pn.attrs.end() || it->second.kind != ir::AttrKind::kInt) return;
    ir::AttrValue v;
    v.kind = ir::AttrKind::kDataType;
    if (!OnnxToGeDataType(static_cast<int32_t>(it->second.i), &v.dt)) {
      problems_.push_back({where, std::string("attribute '") + attr + "' names dtype " +
                                      OnnxDataTypeName(static_cast<int32_t>(it->second.i)) + ", which is not supported"});
      return;
    }
    it->second = v;
  }

  // Converts the GRAPH attributes of `np` into Graph attrs of `pn`, and appends the values they
  // capture to its inputs (every subgraph then has the same capture list, in one order).
  void AddSubgraphs(const onnx::NodeProto &np, const std::string &where, PendingNode &pn) {
    std::vector<std::pair<std::string, std::unique_ptr<Converter>>> subs;
    std::vector<std::string> names;  // union of captured names, first-use order
    for (const auto &a : np.attribute()) {
      if (a.type() == onnx::AttributeProto::GRAPHS) {
        problems_.push_back({where, "attribute '" + a.name() + "' is a list of graphs, which is not supported"});
        continue;
      }
      if (a.type() != onnx::AttributeProto::GRAPH) continue;
      if (depth_ + 1 > ir::kMaxSubgraphDepth) {
        problems_.push_back({where, "subgraphs nest deeper than " + std::to_string(ir::kMaxSubgraphDepth) + " levels"});
        continue;
      }
      auto child = std::make_unique<Converter>(model_, ctx_, is_supported_, kNoSchema, map_custom_, this, depth_ + 1);
      child->RunBody(a.g());
      for (auto &p : child->problems_) p.where = where + " attribute '" + a.name() + "': " + p.where;
      problems_.insert(problems_.end(), child->problems_.begin(), child->problems_.end());
      unmapped_keys_.insert(child->unmapped_keys_.begin(), child->unmapped_keys_.end());
      for (const auto &c : child->captures_)
        if (std::find(names.begin(), names.end(), c.first) == names.end()) names.push_back(c.first);
      subs.emplace_back(a.name(), std::move(child));
    }
    for (auto &[attr, child] : subs) {
      std::vector<int32_t> inputs(child->graph_.inputs.begin(), child->graph_.inputs.end());
      for (const std::string &name : names) {
        ir::Endpoint ep;
        child->Resolve(name, &ep);  // adds an unused Data node when this body does not read it
        inputs.push_back(ep.node);
      }
      child->graph_.inputs = inputs;
      for (size_t k = 0; k < inputs.size(); ++k)
        child->graph_.nodes[static_cast<size_t>(inputs[k])].attrs["index"] = IntAttr(static_cast<int64_t>(k));
      ir::AttrValue v;
      v.kind = ir::AttrKind::kGraph;
      v.g = std::make_shared<ir::Graph>(std::move(child->graph_));
      pn.attrs[attr] = std::move(v);
    }
    if (names.empty()) return;
    for (const std::string &name : names) pn.inputs.push_back(PendingInput{name, "", nullptr});
    pn.attrs[ir::kCapturesAttr] = IntAttr(static_cast<int64_t>(names.size()));
  }

  // The desc of a tensor from its TypeProto; unsupported types become problems (once per tensor).
  ir::TensorDesc DescOf(const std::string &tensor, const std::string &where) {
    ir::TensorDesc d;
    auto it = types_.find(tensor);
    if (it == types_.end()) return d;
    const onnx::TypeProto *tp = it->second;
    // No type at all (subgraph value_info of function-expanded models): inferred by the compiler.
    if (tp->value_case() == onnx::TypeProto::VALUE_NOT_SET) return d;
    if (tp->has_optional_type()) {
      tp = &tp->optional_type().elem_type();
      d.value_kind = tp->has_sequence_type() ? ir::ValueKind::kOptionalSequence : ir::ValueKind::kOptionalTensor;
    }
    if (tp->has_sequence_type()) {
      tp = &tp->sequence_type().elem_type();
      if (d.value_kind == ir::ValueKind::kTensor) d.value_kind = ir::ValueKind::kSequence;
    }
    const onnx::TypeProto &type = *tp;
    if (!type.has_tensor_type()) {
      if (reported_.insert(tensor).second)
        problems_.push_back({where, "tensor '" + tensor + "' is not a dense tensor, a sequence of tensors or an "
                                    "optional of either (map and sparse types are not supported)"});
      return d;
    }
    const auto &tt = type.tensor_type();
    if (!OnnxToGeDataType(tt.elem_type(), &d.dtype)) {
      if (reported_.insert(tensor).second)
        problems_.push_back({where, "tensor '" + tensor + "' has dtype " + OnnxDataTypeName(tt.elem_type()) +
                                        ", which is not supported"});
      d.dtype = ge::DT_UNDEFINED;
    }
    if (tt.has_shape()) {
      for (const auto &dim : tt.shape().dim()) d.shape.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
    } else {
      d.shape = {-2};
    }
    d.origin_shape = d.shape;
    return d;
  }

  int32_t Push(ir::Node node) {
    graph_.nodes.push_back(std::move(node));
    return static_cast<int32_t>(graph_.nodes.size() - 1);
  }

  void AddData(const onnx::ValueInfoProto &in) {
    ir::Node n;
    n.name = namer_.Unique(in.name());
    n.type = ir::kData;
    ir::TensorDesc d = DescOf(in.name(), "graph input '" + in.name() + "'");
    n.inputs = {{-1, 0}};
    n.input_descs = {d};
    n.output_descs = {d};
    n.attrs["index"] = IntAttr(static_cast<int64_t>(graph_.inputs.size()));
    int32_t idx = Push(std::move(n));
    graph_.inputs.push_back(idx);
    tensors_[in.name()] = {idx, 0};
  }

  int32_t AddConst(const std::string &name, std::shared_ptr<ir::ConstTensor> t) {
    ir::Node n;
    n.name = namer_.Unique(name);
    n.type = ir::kConst;
    n.output_descs = {t->desc};
    n.attrs["value"] = TensorAttr(std::move(t));
    return Push(std::move(n));
  }

  void AddInitializer(const onnx::TensorProto &t) {
    const std::string where = "initializer '" + t.name() + "'";
    try {
      tensors_[t.name()] = {AddConst(t.name(), ConvertTensor(t, ctx_, where)), 0};
    } catch (const Error &e) {
      if (e.code() != kUnsupportedError) throw;
      problems_.push_back({where, e.message().substr(where.size() + 2)});
    }
  }

  // A Constant node's value (Constant-1/9/11/12/13 attributes).
  std::shared_ptr<ir::ConstTensor> ConstantValue(const onnx::NodeProto &np, const std::string &where) {
    for (const auto &a : np.attribute()) {
      if (a.name() == "value" && a.has_t()) return ConvertTensor(a.t(), ctx_, where + " attribute 'value'");
      if (a.name() == "value_float") {
        auto t = FloatScalar(a.f(), ge::DT_FLOAT);
        return t;
      }
      if (a.name() == "value_floats") return FloatTensor({a.floats().begin(), a.floats().end()});
      if (a.name() == "value_ints") return Int64Tensor({a.ints().begin(), a.ints().end()});
      if (a.name() == "value_int") {
        auto t = Int64Tensor({a.i()});
        t->desc.shape.clear();
        t->desc.origin_shape.clear();
        return t;
      }
      problems_.push_back({where, "Constant attribute '" + a.name() + "' is not supported (strings, sparse)"});
      return nullptr;
    }
    throw Error(ErrorCategory::kGraph, kMalformedError, where + ": the Constant node has no value attribute",
                "Give the Constant a 'value' attribute");
  }

  void AddNode(const onnx::NodeProto &np, int index) {
    const std::string domain = np.domain() == "ai.onnx" ? "" : np.domain();
    auto os = opsets_.find(domain);
    const int64_t opset = os == opsets_.end() ? -1 : os->second;
    const std::string name = namer_.Unique(np.name().empty() ? np.op_type() + "_" + std::to_string(index) : np.name());
    const std::string where =
        "node '" + name + "' (" + np.op_type() + ", domain '" + domain + "', opset " + std::to_string(opset) + ")";
    // GE's ONNX parser key (register/register.h); a registered mapping wins over everything else.
    const std::string key = (domain.empty() ? "ai.onnx" : domain) + "::" + std::to_string(opset) + "::" + np.op_type();
    PendingNode pn;
    pn.op_type = np.op_type();
    bool mapped = false;
    if (map_custom_) {
      ConvertAttributes(np, ctx_, where, &pn.attrs, &problems_);
      mapped = map_custom_(key, name, &pn.attrs, &pn.op_type);
      if (!mapped) pn.attrs.clear();
    }
    if (!mapped && !domain.empty()) {
      problems_.push_back({where, "domain '" + domain + "' is not supported (only the default ONNX domain is)",
                           ProblemKind::kDomain});
      unmapped_keys_.insert(key);
    }

    if (!mapped && domain.empty() && np.op_type() == "Constant") {
      std::shared_ptr<ir::ConstTensor> value;
      try {
        value = ConstantValue(np, where);
      } catch (const Error &e) {
        if (e.code() != kUnsupportedError) throw;
        problems_.push_back({where, e.message().substr(e.message().find(": ") + 2)});
      }
      if (!value) return;
      ir::Node n;
      n.name = name;
      n.type = ir::kConst;
      n.output_descs = {value->desc};
      n.attrs["value"] = TensorAttr(std::move(value));
      int32_t idx = Push(std::move(n));
      if (np.output_size() > 0) tensors_[np.output(0)] = {idx, 0};
      return;
    }

    for (const auto &in : np.input()) pn.inputs.push_back(PendingInput{in, "", nullptr});
    if (!mapped) {
      if (domain.empty()) CheckNewerAttributes(np, opset, where, &problems_);
      ConvertAttributes(np, ctx_, where, &pn.attrs, &problems_);
      ge::DataType in_dtype = np.input_size() > 0 ? DescOf(np.input(0), where).dtype : ge::DT_UNDEFINED;
      NormalizeNode(
          pn, opset, in_dtype, [this](const std::string &t) { return ConstOf(t); }, where, &problems_);
      if (domain.empty()) CheckSupported(np, pn, index, opset, where, key);
      if (domain.empty()) AddSubgraphs(np, where, pn);
      if (domain.empty() && pn.op_type == "SequenceEmpty") DtypeCodeToDataType(pn, "dtype", where);
    }
    for (const auto &in : np.input())
      if (!in.empty()) DescOf(in, where);

    ir::Node n;
    n.name = name;
    n.type = pn.op_type;
    for (size_t i = 0; i < pn.inputs.size(); ++i) {
      const PendingInput &pi = pn.inputs[i];
      ir::Endpoint ep{-1, 0};
      if (pi.constant) {
        ep = {AddConst(name + "_" + pi.const_name, pi.constant), 0};
      } else if (!pi.name.empty()) {
        ir::Endpoint found;
        const bool known = Resolve(pi.name, &found);
        if (!known && !problems_.empty()) {
          // Produced by a node that could not be converted: already listed; keep collecting.
        } else if (!known) {
          throw Error(ErrorCategory::kGraph, kMalformedError,
                      where + ": input " + std::to_string(i) + " ('" + pi.name +
                          "') is not produced by any earlier node, initializer or graph input",
                      "Fix the model: ONNX graphs list nodes in topological order");
        } else {
          ep = found;
        }
      }
      n.inputs.push_back(ep);
      n.input_descs.emplace_back();
    }
    for (const auto &out : np.output()) n.output_descs.push_back(out.empty() ? ir::TensorDesc{} : DescOf(out, where));
    n.attrs = std::move(pn.attrs);
    n.attrs["onnx_opset"] = IntAttr(opset);
    int32_t idx = Push(std::move(n));
    for (int j = 0; j < np.output_size(); ++j)
      if (!np.output(j).empty()) tensors_[np.output(j)] = {idx, j};
  }

  // A default-domain op needs a built-in or custom implementation; one ONNX does not define at the
  // model's opset is accepted only as a custom op (is_supported_ says so).
  void CheckSupported(const onnx::NodeProto &np, const PendingNode &pn, int index, int64_t opset,
                      const std::string &where, const std::string &key) {
    const bool supported =
        ir::IsNativeOp(pn.op_type) || (is_supported_ ? is_supported_(pn.op_type) : !no_schema_.count(index));
    if (supported) return;
    std::string what = "op type '" + np.op_type() + "'";
    if (pn.op_type != np.op_type()) what += " (rewritten as '" + pn.op_type + "')";
    const int64_t added = OnnxOpAddedAfter17(np.op_type());
    if (no_schema_.count(index) && added > 0 && opset >= added) {
      problems_.push_back({where,
                           what + " (an ONNX operator since opset " + std::to_string(added) +
                               ") has no built-in or custom implementation",
                           ProblemKind::kNoBuiltin});
    } else if (no_schema_.count(index)) {
      problems_.push_back({where,
                           what + " is not an ONNX operator at opset " + std::to_string(opset) +
                               " (as far as OpenATC knows) and no custom op of that type is registered",
                           ProblemKind::kUnknownOp});
      unmapped_keys_.insert(key);
    } else {
      problems_.push_back({where, what + " is not a built-in operator", ProblemKind::kNoBuiltin});
    }
  }

  void AddOutputs(const onnx::GraphProto &gp, const std::string &output_name) {
    if (gp.output_size() == 0)
      throw Error(ErrorCategory::kGraph, kMalformedError, "the graph has no outputs", "Declare the graph's outputs");
    ir::Node out;
    out.name = output_name;
    out.type = ir::kNetOutput;
    for (const auto &o : gp.output()) {
      DescOf(o.name(), "graph output '" + o.name() + "'");  // reports a type we cannot carry
      ir::Endpoint ep;
      if (!Resolve(o.name(), &ep)) {
        if (!problems_.empty()) return;  // produced by a node we could not convert
        throw Error(ErrorCategory::kGraph, kMalformedError,
                    "graph output '" + o.name() + "' is not produced by any node, initializer or graph input",
                    "Fix the model's graph outputs");
      }
      out.inputs.push_back(ep);
      out.input_descs.emplace_back();
      graph_.outputs.push_back(ep);
    }
    Push(std::move(out));
  }

  [[noreturn]] void ThrowProblems() {
    std::string msg = "the model uses " + std::to_string(problems_.size()) +
                      " feature(s) OpenATC cannot compile: ";
    for (size_t i = 0; i < problems_.size(); ++i)
      msg += (i ? "; " : "") + problems_[i].where + ": " + problems_[i].what;
    throw Error(ErrorCategory::kGraph, kUnsupportedError, msg, Advice());
  }

  // One sentence per kind of problem present, most specific first.
  std::string Advice() const {
    std::set<ProblemKind> kinds;
    for (const auto &p : problems_) kinds.insert(p.kind);
    std::string advice;
    auto add = [&advice](const std::string &s) { advice += (advice.empty() ? "" : "; ") + s; };
    if (kinds.count(ProblemKind::kUnknownOp))
      add("for an op type ONNX does not define, register a custom op of that type in a deliverable under "
          "ASCEND_CUSTOM_OPP_PATH, or check the spelling");
    if (kinds.count(ProblemKind::kNoBuiltin))
      add("for an ONNX operator without a built-in, provide a custom op of that type, or replace the operator "
          "before export (docs/conformance.md lists what passes)");
    if (kinds.count(ProblemKind::kDomain)) add("nodes of a non-default domain need a custom op mapping");
    if (!unmapped_keys_.empty()) {
      std::string keys;
      for (const auto &k : unmapped_keys_) keys += (keys.empty() ? "\"" : ", \"") + k + "\"";
      add("map a node with REGISTER_CUSTOM_OP(\"<op type>\").FrameworkType(ONNX).OriginOpType(\"" +
          *unmapped_keys_.begin() + "\").ParseParamsByOperatorFn(AutoMappingByOpFn) in a parser plugin "
          "(<root>/framework/onnx/ of an ASCEND_CUSTOM_OPP_PATH root) or a deliverable" +
          (unmapped_keys_.size() > 1 ? " (keys: " + keys + ")" : std::string()));
    }
    if (kinds.count(ProblemKind::kOther) || advice.empty())
      add("OpenATC compiles default-domain ONNX operators (opsets 1 to " + std::to_string(kMaxOpset) +
          ") on numeric and bool tensors");
    advice[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(advice[0])));  // a sentence
    return advice;
  }

  const onnx::ModelProto &model_;
  const TensorContext &ctx_;
  const std::function<bool(const std::string &)> &is_supported_;
  const std::set<int> &no_schema_;
  const OnnxCustomMapper &map_custom_;
  Converter *parent_;  ///< the graph enclosing this subgraph; null for the main graph
  int depth_;          ///< subgraph nesting level (0 = main graph)
  std::vector<std::pair<std::string, int32_t>> captures_;  ///< outer names read here -> their Data node
  inline static const std::set<int> kNoSchema;              ///< subgraph nodes: checked by is_supported_
  std::set<std::string> unmapped_keys_;  ///< GE parser keys of unmapped unknown-op and custom-domain nodes
  std::map<std::string, int64_t> opsets_;
  std::map<std::string, const onnx::TypeProto *> types_;
  std::map<std::string, ir::Endpoint> tensors_;
  std::set<std::string> reported_;
  std::vector<Problem> problems_;
  Namer namer_;
  ir::Graph graph_;
};

}  // namespace

ir::Graph ConvertModel(const onnx::ModelProto &model, const TensorContext &ctx,
                       const std::function<bool(const std::string &)> &is_supported_op,
                       const std::set<int> &no_schema, const OnnxCustomMapper &map_custom) {
  return Converter(model, ctx, is_supported_op, no_schema, map_custom).Run();
}

}  // namespace openatc::frontend::onnx_detail
