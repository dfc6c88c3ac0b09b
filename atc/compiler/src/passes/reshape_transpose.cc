// ReshapeChainPass: Reshape(Reshape(x, s1), s2) -> Reshape(x, s2) when the inner Reshape feeds
// only the outer one and s2 is a constant without 0 entries (a 0 copies a dim of the input,
// which would then be x's instead of the inner result's).
// TransposePairPass: Transpose(Transpose(x, p1), p2) with p2 undoing p1 (p1[p2[i]] == i for
// every i) is removed: the consumers read x. The outer Transpose must not produce a graph output
// (its name would be lost), and the inner one must feed only the outer one.
#include <cstring>

#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

bool ConstInts(const ir::Graph &g, const ir::Endpoint &e, std::vector<int64_t> *v) {
  if (!e.connected()) return false;
  const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return false;
  auto it = p.attrs.find("value");
  if (it == p.attrs.end() || !it->second.t || it->second.t->desc.dtype != ge::DT_INT64) return false;
  const ir::Bytes &b = it->second.t->data;
  v->resize(b.size / sizeof(int64_t));
  for (size_t i = 0; i < v->size(); ++i) std::memcpy(&(*v)[i], b.data + i * sizeof(int64_t), sizeof(int64_t));
  return true;
}

// Any dtype: reshapes and transposes move bytes only.
bool IsAny(const PassGraph &pg, int32_t i, const char *type) {
  if (i < 0 || pg.erased[static_cast<size_t>(i)]) return false;
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  return n.type == type && pg.builtin.count(n.type) != 0 && !pg.Pinned(i);
}

bool CollapseReshape(PassGraph &pg, int32_t outer) {
  const ir::Node &o = pg.node(outer);
  if (o.inputs.size() != 2 || !o.inputs[0].connected() || o.inputs[0].index != 0) return false;
  const int32_t inner = o.inputs[0].node;
  if (!IsAny(pg, inner, "Reshape") || pg.GraphOutput(inner) || pg.SoleConsumer(inner) != outer) return false;
  std::vector<int64_t> s2;
  if (!ConstInts(pg.g, o.inputs[1], &s2)) return false;
  for (int64_t v : s2)
    if (v == 0) return false;
  const ir::Endpoint x = pg.node(inner).inputs[0];
  if (!x.connected()) return false;
  const std::string inner_name = pg.node(inner).name;
  pg.SetInput(outer, 0, x);
  pg.Erase(inner);
  LogInfo("pass " + std::string(kReshapeChain) + ": removed Reshape '" + inner_name + "' (Reshape '" +
          pg.node(outer).name + "' now reads its input)");
  return true;
}

bool RemoveTransposePair(PassGraph &pg, int32_t outer) {
  const ir::Node &o = pg.node(outer);
  if (o.inputs.size() != 1 || !o.inputs[0].connected() || o.inputs[0].index != 0) return false;
  const int32_t inner = o.inputs[0].node;
  if (!IsAny(pg, inner, "Transpose") || pg.GraphOutput(inner) || pg.GraphOutput(outer) ||
      pg.SoleConsumer(inner) != outer)
    return false;
  const ir::Node &in = pg.node(inner);
  const std::vector<int64_t> p1 = IntsAttr(in, "perm"), p2 = IntsAttr(o, "perm");
  if (p1.empty() || p1.size() != p2.size() || in.inputs.size() != 1 || !in.inputs[0].connected()) return false;
  for (size_t i = 0; i < p2.size(); ++i)
    if (p2[i] < 0 || static_cast<size_t>(p2[i]) >= p1.size() || p1[static_cast<size_t>(p2[i])] != static_cast<int64_t>(i))
      return false;
  const ir::Endpoint x = in.inputs[0];
  const std::string names = JoinNames({in.name, o.name});
  pg.Redirect({outer, 0}, x);
  pg.Erase(outer);
  pg.Erase(inner);
  LogInfo("pass " + std::string(kTransposePair) + ": removed the cancelling Transposes " + names);
  return true;
}

}  // namespace

size_t RunReshapeChain(PassGraph &pg) {
  size_t changes = 0;
  for (size_t i = 0; i < pg.g.nodes.size(); ++i)
    if (IsAny(pg, static_cast<int32_t>(i), "Reshape") && CollapseReshape(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

size_t RunTransposePair(PassGraph &pg) {
  size_t changes = 0;
  for (size_t i = 0; i < pg.g.nodes.size(); ++i)
    if (IsAny(pg, static_cast<int32_t>(i), "Transpose") && RemoveTransposePair(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
