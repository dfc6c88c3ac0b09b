// Helpers shared by the graph passes (pass_util.h).
#include "pass_util.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "openatc/compiler/compiler.h"

namespace openatc::compiler::passes {

PassGraph::PassGraph(ir::Graph &graph, const std::set<std::string> &builtin_types)
    : g(graph), builtin(builtin_types), erased(graph.nodes.size(), false), control_(graph.nodes.size(), false),
      users_(graph.nodes.size()) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node &n = g.nodes[i];
    if (!n.control_inputs.empty()) control_[i] = true;
    for (int32_t c : n.control_inputs)
      if (c >= 0 && static_cast<size_t>(c) < control_.size()) control_[static_cast<size_t>(c)] = true;
    for (size_t a = 0; a < n.inputs.size(); ++a)
      if (n.inputs[a].connected()) users_[static_cast<size_t>(n.inputs[a].node)].push_back({static_cast<int32_t>(i), a});
  }
}

size_t PassGraph::Consumers(int32_t i, int32_t index) const {
  size_t count = 0;
  for (const auto &[c, a] : users_[static_cast<size_t>(i)]) {
    if (a >= g.nodes[static_cast<size_t>(c)].inputs.size()) continue;  // stale: the consumer lost inputs
    const ir::Endpoint &e = g.nodes[static_cast<size_t>(c)].inputs[a];
    if (!erased[static_cast<size_t>(c)] && e.node == i && e.index == index) ++count;
  }
  return count;
}

int32_t PassGraph::SoleConsumer(int32_t i) const {
  if (Consumers(i, 0) != 1) return -1;
  for (const auto &[c, a] : users_[static_cast<size_t>(i)]) {
    if (a >= g.nodes[static_cast<size_t>(c)].inputs.size()) continue;
    const ir::Endpoint &e = g.nodes[static_cast<size_t>(c)].inputs[a];
    if (!erased[static_cast<size_t>(c)] && e.node == i && e.index == 0) return c;
  }
  return -1;
}

bool PassGraph::Pinned(int32_t i) const { return control_[static_cast<size_t>(i)]; }

bool PassGraph::GraphOutput(int32_t i) const {
  for (const auto &o : g.outputs)
    if (o.node == i) return true;
  return false;
}

bool PassGraph::Is(int32_t i, const char *type) const {
  if (i < 0 || erased[static_cast<size_t>(i)]) return false;
  const ir::Node &n = g.nodes[static_cast<size_t>(i)];
  return n.type == type && builtin.count(n.type) != 0 && !Pinned(i) && !n.output_descs.empty() &&
         n.output_descs[0].dtype == ge::DT_FLOAT;
}

void PassGraph::SetInput(int32_t c, size_t anchor, ir::Endpoint e) {
  ir::Node &n = g.nodes[static_cast<size_t>(c)];
  if (n.inputs.size() <= anchor) n.inputs.resize(anchor + 1);
  ir::TensorDesc absent;
  absent.valid = false;  // an optional input left unconnected
  if (n.input_descs.size() < n.inputs.size()) n.input_descs.resize(n.inputs.size(), absent);
  n.inputs[anchor] = e;
  n.input_descs[anchor] = g.nodes[static_cast<size_t>(e.node)].output_descs.at(static_cast<size_t>(e.index));
  users_[static_cast<size_t>(e.node)].push_back({c, anchor});
}

void PassGraph::Redirect(ir::Endpoint from, ir::Endpoint to) {
  for (const auto &[c, a] : users_[static_cast<size_t>(from.node)]) {
    if (a >= g.nodes[static_cast<size_t>(c)].inputs.size()) continue;
    ir::Endpoint &e = g.nodes[static_cast<size_t>(c)].inputs[a];
    if (!erased[static_cast<size_t>(c)] && e == from) {
      e = to;
      users_[static_cast<size_t>(to.node)].push_back({c, a});
    }
  }
  for (auto &o : g.outputs)
    if (o == from) o = to;
}

void PassGraph::Erase(int32_t i) {
  erased[static_cast<size_t>(i)] = true;
  for (const auto &in : g.nodes[static_cast<size_t>(i)].inputs) {
    if (!in.connected() || erased[static_cast<size_t>(in.node)]) continue;
    const ir::Node &p = g.nodes[static_cast<size_t>(in.node)];
    if ((p.type == ir::kConst || p.type == ir::kConstant) && !Pinned(in.node) && !GraphOutput(in.node) &&
        Consumers(in.node, 0) == 0)
      erased[static_cast<size_t>(in.node)] = true;
  }
}

std::string PassGraph::FreshName(const std::string &base) const {
  std::string name = base;
  for (int k = 2; g.FindNode(name) >= 0; ++k) name = base + "_" + std::to_string(k);
  return name;
}

int32_t PassGraph::AddConst(const std::string &name, const std::vector<int64_t> &shape, const std::vector<double> &v) {
  std::vector<float> f(v.begin(), v.end());
  ir::TensorDesc d;
  d.dtype = ge::DT_FLOAT;
  d.format = ge::FORMAT_ND;
  d.origin_format = ge::FORMAT_ND;
  d.shape = shape;
  d.origin_shape = shape;
  ir::AttrValue value;
  value.kind = ir::AttrKind::kTensor;
  value.t = std::make_shared<ir::ConstTensor>();
  value.t->desc = d;
  value.t->data = ir::Bytes::Copy(f.data(), f.size() * sizeof(float));
  ir::Node n;
  n.name = name;
  n.type = ir::kConst;
  n.attrs["value"] = std::move(value);
  n.output_descs = {d};
  return AddNode(std::move(n));
}

int32_t PassGraph::AddNode(ir::Node n) {
  n.name = FreshName(n.name);
  const auto i = static_cast<int32_t>(g.nodes.size());
  erased.push_back(false);
  control_.push_back(false);
  users_.emplace_back();
  for (size_t a = 0; a < n.inputs.size(); ++a)
    if (n.inputs[a].connected()) users_[static_cast<size_t>(n.inputs[a].node)].push_back({i, a});
  g.nodes.push_back(std::move(n));
  return i;
}

void PassGraph::Finish() {
  const size_t n = g.nodes.size();
  std::vector<int32_t> index(n, -1);
  std::vector<ir::Node> kept;
  for (size_t i = 0; i < n; ++i) {
    if (erased[i]) continue;
    index[i] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(g.nodes[i]));
  }
  for (auto &node : kept) {
    for (auto &in : node.inputs)
      if (in.connected()) in.node = index[static_cast<size_t>(in.node)];
    for (auto &c : node.control_inputs) c = index[static_cast<size_t>(c)];
  }
  for (auto &i : g.inputs) i = index[static_cast<size_t>(i)];
  for (auto &o : g.outputs)
    if (o.connected()) o.node = index[static_cast<size_t>(o.node)];
  g.nodes = std::move(kept);
  TopologicalSort(g);
}

bool ConstF32(const ir::Graph &g, const ir::Endpoint &e, std::vector<double> *out, std::vector<int64_t> *shape) {
  if (!e.connected()) return false;
  const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return false;
  auto it = p.attrs.find("value");
  if (it == p.attrs.end() || it->second.kind != ir::AttrKind::kTensor || !it->second.t) return false;
  const ir::ConstTensor &t = *it->second.t;
  int64_t count = 1;
  for (int64_t d : t.desc.shape) {
    if (d < 0) return false;
    count *= d;
  }
  if (t.desc.dtype != ge::DT_FLOAT || t.data.size != static_cast<size_t>(count) * sizeof(float)) return false;
  std::vector<float> f(static_cast<size_t>(count));
  if (count > 0) std::memcpy(f.data(), t.data.data, t.data.size);
  out->assign(f.begin(), f.end());
  *shape = t.desc.shape;
  return true;
}

float FloatAttr(const ir::Node &n, const char *name, float def) {
  auto it = n.attrs.find(name);
  return it != n.attrs.end() && it->second.kind == ir::AttrKind::kFloat ? it->second.f : def;
}

int64_t IntAttr(const ir::Node &n, const char *name, int64_t def) {
  auto it = n.attrs.find(name);
  return it != n.attrs.end() && it->second.kind == ir::AttrKind::kInt ? it->second.i : def;
}

std::vector<int64_t> IntsAttr(const ir::Node &n, const char *name) {
  auto it = n.attrs.find(name);
  return it != n.attrs.end() && it->second.kind == ir::AttrKind::kListInt ? it->second.list_i : std::vector<int64_t>{};
}

bool ConstIs(const PassGraph &pg, const ir::Node &n, size_t k, double want) {
  if (k >= n.inputs.size()) return false;
  std::vector<double> v;
  std::vector<int64_t> shape;
  if (!ConstF32(pg.g, n.inputs[k], &v, &shape) || v.size() != 1) return false;
  return std::fabs(v[0] - want) <= std::fabs(want) * (1.0 / (1 << 20));
}

void DropUnreadConsts(PassGraph &pg, const std::vector<ir::Endpoint> &old) {
  for (const ir::Endpoint &e : old) {
    if (!e.connected() || pg.erased[static_cast<size_t>(e.node)]) continue;
    const ir::Node &p = pg.g.nodes[static_cast<size_t>(e.node)];
    if ((p.type == ir::kConst || p.type == ir::kConstant) && !pg.Pinned(e.node) && !pg.GraphOutput(e.node) &&
        pg.Consumers(e.node, 0) == 0)
      pg.erased[static_cast<size_t>(e.node)] = true;
  }
}

bool PerChannel(const std::vector<double> &c, const std::vector<int64_t> &cs, size_t rank, int64_t m,
                std::vector<double> *out) {
  if (cs.size() > rank || c.empty()) return false;
  bool varies = false;
  for (size_t i = 0; i < cs.size(); ++i) {
    const bool is_channel = rank - cs.size() + i == 1;  // cs[i] aligns with Y's axis 1
    if (is_channel && cs[i] == m) varies = true;
    else if (cs[i] != 1) return false;
  }
  out->assign(static_cast<size_t>(m), c[0]);
  if (varies)
    for (int64_t k = 0; k < m; ++k) (*out)[static_cast<size_t>(k)] = c[static_cast<size_t>(k)];
  return true;
}

bool AllEqual(const std::vector<int64_t> &v, int64_t x) {
  for (int64_t e : v)
    if (e != x) return false;
  return true;
}

void SetInt(ir::Node &n, const char *name, int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  n.attrs[name] = a;
}

void SetInts(ir::Node &n, const char *name, std::vector<int64_t> v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListInt;
  a.list_i = std::move(v);
  n.attrs[name] = a;
}

void SetStr(ir::Node &n, const char *name, const std::string &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kString;
  a.s = v;
  n.attrs[name] = a;
}

void SetFusedNames(ir::Node &n, std::vector<std::string> names) {
  ir::AttrValue v;
  v.kind = ir::AttrKind::kListString;
  v.list_s = std::move(names);
  n.attrs["openatc_fused_nodes"] = std::move(v);
}

void Absorb(PassGraph &pg, int32_t keep, int32_t absorbed, std::vector<std::string> fused) {
  SetFusedNames(pg.node(keep), std::move(fused));
  pg.Redirect({absorbed, 0}, {keep, 0});
  pg.Erase(absorbed);
  pg.node(keep).name = pg.node(absorbed).name;
}

std::vector<std::string> FusedNames(const ir::Node &n) {
  auto it = n.attrs.find("openatc_fused_nodes");
  if (it != n.attrs.end() && it->second.kind == ir::AttrKind::kListString) return it->second.list_s;
  return {n.name};
}

std::string JoinNames(const std::vector<std::string> &names) {
  std::string s;
  for (const auto &n : names) s += (s.empty() ? "'" : ", '") + n + "'";
  return s;
}

}  // namespace openatc::compiler::passes
