// GeluPatternPass: the decomposed GELU that exporters write below opset 20 (which has no Gelu)
// becomes one Gelu node (ONNX Gelu-20, ops/Gelu.cc), the same function:
//   tanh form (GPT-2): y = 0.5 * h * (1 + Tanh(sqrt(2/pi) * (h + 0.044715 * h^3)))
//                      -> Gelu(h, approximate = "tanh")
//   erf form (BERT):   y = 0.5 * h * (1 + Erf(h / sqrt(2)))  (or h * (1/sqrt(2)))
//                      -> Gelu(h, approximate = "none")
// Every product may be written in any order and association of float32 Mul nodes (h^3 also as
// Pow(h, 3)); the constants are one-element float32 Consts within float32 rounding (ConstIs).
// Every node of the pattern but h keeps h's shape, has one consumer and is no graph output; the
// last Mul becomes the Gelu (its name kept; openatc_fused_nodes lists the original nodes).
#include <cmath>

#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// A product of Mul nodes flattened: the constant factor, the non-constant leaves and the nodes.
struct Product {
  double factor = 1.0;
  std::vector<ir::Endpoint> leaves;
  std::vector<int32_t> nodes;
};

// One-element float32 Const at `e`: its value.
bool Scalar(const PassGraph &pg, const ir::Endpoint &e, double *v) {
  std::vector<double> vals;
  std::vector<int64_t> shape;
  if (!ConstF32(pg.g, e, &vals, &shape) || vals.size() != 1) return false;
  *v = vals[0];
  return true;
}

bool Near(double v, double want) { return std::fabs(v - want) <= std::fabs(want) * (1.0 / (1 << 20)); }

// Node `i`, of `shape`, read by exactly one node and no graph output (so the pattern owns it).
bool Inner(const PassGraph &pg, int32_t i, const std::vector<int64_t> &shape) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  return !pg.GraphOutput(i) && pg.SoleConsumer(i) >= 0 && n.output_descs.size() == 1 &&
         n.output_descs[0].shape == shape;
}

// Flattens the Mul tree rooted at output 0 of `i` (the root itself may have any consumers):
// Mul inputs that are owned Muls are expanded, Pow(x, 3) counts x three times, one-element
// Consts multiply the factor. False when a Mul broadcasts.
bool Flatten(const PassGraph &pg, int32_t i, const std::vector<int64_t> &shape, Product *p) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  if (!pg.Is(i, "Mul") || n.inputs.size() != 2 || n.output_descs.size() != 1 || n.output_descs[0].shape != shape)
    return false;
  p->nodes.push_back(i);
  for (const ir::Endpoint &e : n.inputs) {
    double v = 0;
    if (!e.connected()) return false;
    if (Scalar(pg, e, &v)) {
      p->factor *= v;
      continue;
    }
    const ir::Node &in = pg.g.nodes[static_cast<size_t>(e.node)];
    if (e.index == 0 && in.type == "Mul" && Inner(pg, e.node, shape)) {
      if (!Flatten(pg, e.node, shape, p)) return false;
      continue;
    }
    double k = 0;
    if (e.index == 0 && pg.Is(e.node, "Pow") && Inner(pg, e.node, shape) && in.inputs.size() == 2 &&
        Scalar(pg, in.inputs[1], &k) && k == 3.0 && in.inputs[0].connected()) {
      p->nodes.push_back(e.node);
      for (int r = 0; r < 3; ++r) p->leaves.push_back(in.inputs[0]);
      continue;
    }
    p->leaves.push_back(e);
  }
  return true;
}

// How many leaves of `p` are `h`, and the others.
int CountLeaves(const Product &p, const ir::Endpoint &h, std::vector<ir::Endpoint> *others) {
  int count = 0;
  for (const ir::Endpoint &e : p.leaves) {
    if (e == h) ++count;
    else others->push_back(e);
  }
  return count;
}

constexpr double kPi = 3.14159265358979323846;

// The argument of the Tanh or Erf node `t` as GELU writes it; h and the pattern's nodes, or false.
bool Argument(const PassGraph &pg, int32_t t, bool erf, ir::Endpoint *h, std::vector<int32_t> *nodes) {
  const ir::Node &tn = pg.g.nodes[static_cast<size_t>(t)];
  const std::vector<int64_t> &shape = tn.output_descs[0].shape;
  if (tn.inputs.size() != 1 || !tn.inputs[0].connected() || tn.inputs[0].index != 0) return false;
  const int32_t a = tn.inputs[0].node;
  if (!Inner(pg, a, shape)) return false;
  const ir::Node &an = pg.g.nodes[static_cast<size_t>(a)];
  if (erf && pg.Is(a, "Div")) {  // h / sqrt(2)
    double v = 0;
    if (an.inputs.size() != 2 || !an.inputs[0].connected() || !Scalar(pg, an.inputs[1], &v) || !Near(v, std::sqrt(2.0)))
      return false;
    *h = an.inputs[0];
    nodes->push_back(a);
    return pg.g.nodes[static_cast<size_t>(h->node)].output_descs.at(static_cast<size_t>(h->index)).shape == shape;
  }
  Product p;
  if (!Flatten(pg, a, shape, &p)) return false;
  nodes->insert(nodes->end(), p.nodes.begin(), p.nodes.end());
  if (erf) {  // h * (1 / sqrt(2))
    if (p.leaves.size() != 1 || !Near(p.factor, 1.0 / std::sqrt(2.0))) return false;
    *h = p.leaves[0];
    return pg.g.nodes[static_cast<size_t>(h->node)].output_descs.at(static_cast<size_t>(h->index)).shape == shape;
  }
  // sqrt(2/pi) * (h + 0.044715 * h^3)
  if (p.leaves.size() != 1 || !Near(p.factor, std::sqrt(2.0 / kPi)) || p.leaves[0].index != 0) return false;
  const int32_t s = p.leaves[0].node;
  const ir::Node &sn = pg.g.nodes[static_cast<size_t>(s)];
  if (!pg.Is(s, "Add") || !Inner(pg, s, shape) || sn.inputs.size() != 2) return false;
  nodes->push_back(s);
  for (size_t k = 0; k < 2; ++k) {
    const ir::Endpoint cube = sn.inputs[1 - k];
    *h = sn.inputs[k];
    Product c;
    std::vector<ir::Endpoint> others;
    if (!h->connected() || !cube.connected() || cube.index != 0 || !Inner(pg, cube.node, shape) ||
        !Flatten(pg, cube.node, shape, &c))
      continue;
    if (CountLeaves(c, *h, &others) != 3 || !others.empty() || !Near(c.factor, 0.044715)) continue;
    nodes->insert(nodes->end(), c.nodes.begin(), c.nodes.end());
    return pg.g.nodes[static_cast<size_t>(h->node)].output_descs.at(static_cast<size_t>(h->index)).shape == shape;
  }
  return false;
}

bool Rewrite(PassGraph &pg, int32_t t) {
  const bool erf = pg.Is(t, "Erf");
  if (!erf && !pg.Is(t, "Tanh")) return false;
  const std::vector<int64_t> shape = pg.node(t).output_descs[0].shape;
  std::vector<int32_t> nodes = {t};
  ir::Endpoint h;
  if (!Inner(pg, t, shape) || !Argument(pg, t, erf, &h, &nodes)) return false;
  // 1 + t
  const int32_t q = pg.SoleConsumer(t);
  if (!pg.Is(q, "Add") || !Inner(pg, q, shape) || pg.node(q).inputs.size() != 2) return false;
  const ir::Node &qn = pg.node(q);
  const size_t tk = qn.inputs[0].node == t ? 0 : 1;
  if (qn.inputs[tk].node != t || !ConstIs(pg, qn, 1 - tk, 1.0)) return false;
  nodes.push_back(q);
  // 0.5 * h * q: the lowest Mul above q whose product is exactly that.
  int32_t r = pg.SoleConsumer(q);
  Product p;
  bool matched = false;
  for (int depth = 0; depth < 4 && r >= 0 && !matched; ++depth) {
    p = Product{};
    std::vector<ir::Endpoint> others;
    if (!Flatten(pg, r, shape, &p)) return false;
    matched = CountLeaves(p, h, &others) == 1 && others.size() == 1 && others[0] == ir::Endpoint{q, 0} &&
              Near(p.factor, 0.5);
    if (!matched) {
      if (!Inner(pg, r, shape)) return false;
      r = pg.SoleConsumer(r);
    }
  }
  if (!matched || p.nodes.empty() || p.nodes[0] != r) return false;
  nodes.insert(nodes.end(), p.nodes.begin(), p.nodes.end());
  std::vector<std::string> fused;
  for (int32_t i : nodes)
    if (i != r)
      for (const std::string &name : FusedNames(pg.node(i))) fused.push_back(name);
  for (const std::string &name : FusedNames(pg.node(r))) fused.push_back(name);
  const std::vector<ir::Endpoint> old = pg.node(r).inputs;
  ir::Node &g = pg.node(r);
  g.type = "Gelu";
  g.inputs.clear();
  g.input_descs.clear();
  g.attrs.clear();
  ir::AttrValue mode, opset;
  mode.kind = ir::AttrKind::kString;
  mode.s = erf ? "none" : "tanh";
  opset.kind = ir::AttrKind::kInt;
  opset.i = 20;
  g.attrs["approximate"] = mode;
  SetFusedNames(g, fused);
  g.attrs["onnx_opset"] = opset;
  pg.SetInput(r, 0, h);
  for (int32_t i : nodes)
    if (i != r) pg.Erase(i);
  DropUnreadConsts(pg, old);
  LogInfo("pass " + std::string(kGeluPattern) + ": " + JoinNames(fused) + " computed as Gelu '" + pg.node(r).name +
          "' (approximate " + mode.s + ")");
  return true;
}

}  // namespace

size_t RunGeluPattern(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    if ((pg.g.nodes[i].type == "Tanh" || pg.g.nodes[i].type == "Erf") && Rewrite(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
