// ge::Graph::LoadFromFile: graph[0] of an AIR file (binary ge.proto.ModelDef) back into operators
// (docs/ge-ir.md §2.4 for the anchor / IR bookkeeping attrs, §3 for edges). Op types registered
// with REG_OP in the process get their prototype from the registry; others get it from the file.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "air_convert.h"
#include "graph/operator_factory.h"
#include "graph_impl.h"
#include "openatc/register/graph_view.h"
#include "operator_impl.h"

namespace openatc::reg::air {
namespace {
using ge::IoSlot;
using ge::IrIo;
using ge::OperatorImpl;

const geir::AttrDef::ListValue *List(const geir::OpDef &op, const char *key) {
  auto it = op.attr().find(key);
  return it == op.attr().end() || it->second.value_case() != geir::AttrDef::kList ? nullptr : &it->second.list();
}

// Slot names from "<key>"/"<value>" (name at position value); empty when absent or inconsistent.
std::vector<std::string> AnchorNames(const geir::OpDef &op, const char *key, const char *value, size_t count) {
  const auto *k = List(op, key);
  const auto *v = List(op, value);
  std::vector<std::string> names(count);
  if (k == nullptr || v == nullptr || k->s_size() != v->i_size() || static_cast<size_t>(k->s_size()) != count) return {};
  for (int j = 0; j < k->s_size(); ++j) {
    const int64_t at = v->i(j);
    if (at < 0 || static_cast<size_t>(at) >= count || !names[static_cast<size_t>(at)].empty()) return {};
    names[static_cast<size_t>(at)] = k->s(j);
  }
  return names;
}

std::vector<IrIo> IrFromFile(const geir::OpDef &op, const char *key, const char *value, int dynamic_kind) {
  std::vector<IrIo> irs;
  const auto *k = List(op, key);
  const auto *v = List(op, value);
  if (k == nullptr || v == nullptr || k->s_size() != v->i_size()) return irs;
  for (int j = 0; j < k->s_size(); ++j) {
    IrIo ir;
    ir.name = k->s(j);
    ir.kind = static_cast<int>(v->i(j));
    ir.dynamic = ir.kind == dynamic_kind;
    irs.push_back(ir);
  }
  return irs;
}

// Index of the IR entry slot `name` belongs to: the same name, or a dynamic entry "<ir><digits>".
// Appends a required entry when none matches (files without IR bookkeeping).
size_t MatchIr(std::vector<IrIo> &irs, const std::string &name) {
  for (size_t i = 0; i < irs.size(); ++i) {
    if (!irs[i].dynamic && irs[i].name == name) return i;
    const std::string &p = irs[i].name;
    if (irs[i].dynamic && name.size() > p.size() && name.compare(0, p.size(), p) == 0 &&
        std::all_of(name.begin() + static_cast<long>(p.size()), name.end(), [](char c) { return std::isdigit(c) != 0; }))
      return i;
  }
  irs.push_back(IrIo{name, 0, "", false});
  return irs.size() - 1;
}

struct Edge {
  std::string src;
  int64_t index = 0;
  bool connected = false;
};

bool ParseEdge(const std::string &text, Edge *e, std::string *why) {
  *e = Edge{};
  if (text.empty()) return true;
  const size_t colon = text.rfind(':');
  const std::string idx = colon == std::string::npos ? "" : text.substr(colon + 1);
  const bool digits = !idx.empty() && std::all_of(idx.begin() + (idx[0] == '-' ? 1 : 0), idx.end(),
                                                  [](char c) { return std::isdigit(c) != 0; });
  if (colon == 0 || !digits || idx == "-" || idx.size() > 18) {
    *why = "'" + text + "' is not 'node:index' (index >= 0, or -1 for a control edge)";
    return false;
  }
  e->src = text.substr(0, colon);
  e->index = std::stoll(idx);
  e->connected = true;
  return true;
}

struct Loader {
  const geir::GraphDef &gd;
  std::vector<ge::Operator> ops;
  std::map<std::string, size_t> index;
  std::string *why;

  bool Fail(const geir::OpDef &op, const std::string &m) {
    *why = "node '" + op.name() + "' (op type " + op.type() + "): " + m;
    return false;
  }
  static OperatorImpl &Impl(const ge::Operator &op) { return *ge::OperatorAccess::Impl(op); }

  // Data-input entries (all but control edges; a malformed entry counts and Link reports it).
  static size_t DataInputs(const geir::OpDef &op) {
    size_t n = 0;
    for (const auto &t : op.input()) {
      Edge e;
      std::string ignored;
      n += !ParseEdge(t, &e, &ignored) || !e.connected || e.index >= 0 ? 1 : 0;
    }
    return n;
  }

  void TakePrototype(const geir::OpDef &op, OperatorImpl &impl) {
    if (ge::OperatorFactory::IsExistOp(op.type().c_str())) {
      const ge::Operator proto = ge::OperatorFactory::CreateOperator(op.name().c_str(), op.type().c_str());
      if (!proto.IsEmpty()) {
        const OperatorImpl &p = Impl(proto);
        impl.ir_inputs = p.ir_inputs, impl.ir_outputs = p.ir_outputs;
        impl.ir_attrs = p.ir_attrs, impl.datatype_syms = p.datatype_syms;
        return;
      }
    }
    impl.ir_inputs = IrFromFile(op, kIrInputsKey, kIrInputsValue, static_cast<int>(IrInputKind::kDynamic));
    impl.ir_outputs = IrFromFile(op, kIrOutputsKey, kIrOutputsValue, static_cast<int>(IrOutputKind::kDynamic));
    if (const auto *names = List(op, kIrAttrNames))
      for (const auto &n : names->s()) {
        IrAttr a;
        a.name = n;
        impl.ir_attrs.push_back(std::move(a));
      }
  }

  // Slot names: the bookkeeping attrs, else the prototype's static entries, else "<prefix><k>".
  static std::vector<std::string> SlotNames(const geir::OpDef &op, bool input, const std::vector<IrIo> &irs,
                                            size_t count) {
    std::vector<std::string> names = input ? AnchorNames(op, kInputNameKey, kInputNameValue, count)
                                           : AnchorNames(op, kOutputNameKey, kOutputNameValue, count);
    if (!names.empty() || count == 0) return names;
    for (const auto &ir : irs)
      if (!ir.dynamic) names.push_back(ir.name);
    if (names.size() == count) return names;
    names.clear();
    for (size_t k = 0; k < count; ++k) names.push_back((input ? "input" : "output") + std::to_string(k));
    return names;
  }

  bool MakeSlots(const geir::OpDef &op, OperatorImpl &impl, bool input) {
    const size_t count = input ? DataInputs(op) : static_cast<size_t>(op.output_desc_size());
    const int descs = input ? op.input_desc_size() : op.output_desc_size();
    if (input && descs != 0 && static_cast<size_t>(descs) != count)
      return Fail(op, std::to_string(descs) + " input descs for " + std::to_string(count) + " data inputs");
    std::vector<IrIo> &irs = input ? impl.ir_inputs : impl.ir_outputs;
    std::vector<IoSlot> &slots = input ? impl.inputs : impl.outputs;
    const std::vector<std::string> names = SlotNames(op, input, irs, count);
    slots.clear();
    for (size_t k = 0; k < count; ++k) {
      IoSlot s;
      s.name = names[k];
      s.ir_index = MatchIr(irs, s.name);
      if (static_cast<int>(k) < descs) {
        const auto &td = input ? op.input_desc(static_cast<int>(k)) : op.output_desc(static_cast<int>(k));
        if (!ReadDesc(td, &s.desc, why)) return Fail(op, (input ? "input '" : "output '") + s.name + "': " + *why);
        s.desc_set = true;
      }
      slots.push_back(std::move(s));
    }
    return true;
  }

  bool MakeAttrs(const geir::OpDef &op, OperatorImpl &impl) {
    std::vector<std::string> keys;
    for (const auto &a : impl.ir_attrs)
      if (op.attr().count(a.name) != 0U) keys.push_back(a.name);
    std::vector<std::string> rest;
    for (const auto &kv : op.attr())
      if (!IsSerializerAttr(kv.first) && std::find(keys.begin(), keys.end(), kv.first) == keys.end())
        rest.push_back(kv.first);
    std::sort(rest.begin(), rest.end());
    keys.insert(keys.end(), rest.begin(), rest.end());
    for (const auto &k : keys) {
      AttrValue v;
      if (!ReadAttr(op.attr().at(k), &v, why)) return Fail(op, "attr '" + k + "': " + *why);
      impl.attrs.emplace_back(k, std::move(v));
    }
    return true;
  }

  bool MakeOps() {
    for (const auto &op : gd.op()) {
      if (op.name().empty() || op.type().empty()) return Fail(op, "a node needs a non-empty name and op type");
      if (!index.emplace(op.name(), ops.size()).second) return Fail(op, "the node name is used twice");
      ops.emplace_back(op.name().c_str(), op.type().c_str());
      OperatorImpl &impl = Impl(ops.back());
      TakePrototype(op, impl);
      if (!MakeSlots(op, impl, true) || !MakeSlots(op, impl, false) || !MakeAttrs(op, impl)) return false;
    }
    return true;
  }

  bool Find(const geir::OpDef *op, const Edge &e, const std::string &where, size_t *node) {
    auto it = index.find(e.src);
    if (it == index.end()) {
      const std::string m = where + " names node '" + e.src + "', which is not in the graph";
      return op ? Fail(*op, m) : (*why = m, false);
    }
    *node = it->second;
    return true;
  }

  bool Link() {
    for (int i = 0; i < gd.op_size(); ++i) {
      const geir::OpDef &op = gd.op(i);
      OperatorImpl &impl = Impl(ops[static_cast<size_t>(i)]);
      size_t slot = 0;
      for (const auto &text : op.input()) {
        Edge e;
        size_t src = 0;
        if (!ParseEdge(text, &e, why)) return Fail(op, "input " + *why);
        if (e.connected && !Find(&op, e, "input '" + text + "'", &src)) return false;
        if (e.connected && e.index < 0) {
          impl.control_inputs.push_back(ge::OperatorAccess::Impl(ops[src]));
          continue;
        }
        if (e.connected) {
          const auto &producer = ge::OperatorAccess::Impl(ops[src]);
          if (static_cast<size_t>(e.index) >= producer->outputs.size() || producer.get() == &impl)
            return Fail(op, "input '" + text + "' uses output " + std::to_string(e.index) + " of " + producer->Where() +
                                ", which has " + std::to_string(producer->outputs.size()) + " output descs");
          impl.inputs[slot].src = producer;
          impl.inputs[slot].src_index = static_cast<uint32_t>(e.index);
        }
        ++slot;
      }
    }
    return true;
  }

  bool GraphIo(ge::GraphImpl &g) {
    std::set<const OperatorImpl *> reached;
    std::vector<const OperatorImpl *> todo;
    auto reach = [&](size_t node) { todo.push_back(ge::OperatorAccess::Impl(ops[node]).get()); };
    for (const auto &text : gd.input()) {
      Edge e;
      size_t node = 0;
      if (!ParseEdge(text, &e, why) || !e.connected) return *why = "graph input " + text + " is not 'node:0'", false;
      if (!Find(nullptr, e, "graph input '" + text + "'", &node)) return false;
      g.inputs.push_back(ops[node]), reach(node);
    }
    for (const auto &text : gd.output()) {
      Edge e;
      size_t node = 0;
      if (!ParseEdge(text, &e, why) || !e.connected || e.index < 0)
        return *why = "graph output '" + text + "' is not 'node:index'", false;
      if (!Find(nullptr, e, "graph output '" + text + "'", &node)) return false;
      if (static_cast<size_t>(e.index) >= ops[node].GetOutputsSize())
        return *why = "graph output '" + text + "' names a missing output of node '" + e.src + "'", false;
      if (g.outputs.empty() || ge::OperatorAccess::Impl(g.outputs.back().first) != ge::OperatorAccess::Impl(ops[node]))
        g.outputs.emplace_back(ops[node], std::vector<size_t>{});
      g.outputs.back().second.push_back(static_cast<size_t>(e.index)), reach(node);
    }
    while (!todo.empty()) {
      const OperatorImpl *n = todo.back();
      todo.pop_back();
      if (!reached.insert(n).second) continue;
      for (const auto &in : n->inputs)
        if (in.src) todo.push_back(in.src.get());
      for (const auto &c : n->control_inputs) todo.push_back(c.get());
    }
    // Nodes no input or output reaches stay in the graph as targets, in file order.
    for (const auto &op : ops)
      if (reached.count(ge::OperatorAccess::Impl(op).get()) == 0U) g.targets.push_back(op);
    return true;
  }
};
}  // namespace

bool ModelDefToGraph(const geir::ModelDef &model, ge::Graph *graph, std::string *why) {
  if (model.graph_size() == 0) return *why = "the model holds no graph", false;
  const geir::GraphDef &gd = model.graph(0);
  Loader loader{gd, {}, {}, why};
  if (!loader.MakeOps() || !loader.Link()) return false;
  ge::Graph out(gd.name().c_str());
  if (!loader.GraphIo(*ge::GraphAccess::MutableImpl(out))) return false;
  try {
    (void)ViewGraph(out);
  } catch (const std::exception &e) {
    *why = e.what();
    return false;
  }
  *graph = out;
  return true;
}

}  // namespace openatc::reg::air

namespace ge {

graphStatus Graph::LoadFromFile(const char_t *file_name) {
  using openatc::reg::SetSdkError;
  const std::string path = file_name != nullptr ? file_name : "";
  const std::string what = "Graph::LoadFromFile('" + path + "')";
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  if (!in || !(bytes << in.rdbuf())) {
    SetSdkError(what + ": cannot read the file; check the path");
    return GRAPH_FAILED;
  }
  openatc::geir::ModelDef model;
  if (!model.ParseFromString(bytes.str())) {
    SetSdkError(what + ": not an AIR file (binary ge.proto.ModelDef); pass a file written by Graph::SaveToFile");
    return GRAPH_FAILED;
  }
  std::string why;
  if (!openatc::reg::air::ModelDefToGraph(model, this, &why)) {
    SetSdkError(what + ": " + why + "; fix or rewrite the file");
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

}  // namespace ge
