// LayerNormPatternPass: the decomposed layer normalisation over the last axis that exporters write
// below opset 17 (which has no LayerNormalization; GPT-2 style transformers):
//   m = ReduceMean(x), d = Sub(x, m), v = ReduceMean(Pow(d, 2) or Mul(d, d)),
//   y = Div(d, Sqrt(Add(v, eps))) [* gamma] [+ beta]
// (both ReduceMeans over the last axis only, keepdims 1, by their axes attribute) becomes one
// LayerNormalization(x, gamma, beta; axis -1, epsilon eps, stash_type 1) (ops/LayerNormalization.cc,
// the same function; without the Mul, gamma is ones; without the Add, no B). eps, the exponent 2,
// gamma and beta are float32 Consts (gamma and beta of shape [C], C = x's last dimension, static);
// d is read only by the Pow (or Mul) and the Div, every other step by the next one only, and none
// is a graph output. The last node becomes the LayerNormalization (its name kept;
// openatc_fused_nodes lists the original nodes).
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// The producer of input `k` of `n` when it is output 0 of a `type` node owned by the pattern
// (read once, no graph output), else -1.
int32_t Owned(const PassGraph &pg, const ir::Node &n, size_t k, const char *type) {
  if (k >= n.inputs.size() || !n.inputs[k].connected() || n.inputs[k].index != 0) return -1;
  const int32_t p = n.inputs[k].node;
  return pg.Is(p, type) && !pg.GraphOutput(p) && pg.SoleConsumer(p) >= 0 ? p : -1;
}

// A ReduceMean of a float32 tensor of rank `rank` over its last axis only, keeping the dims.
bool MeanOfLastAxis(const PassGraph &pg, int32_t i, size_t rank) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  if (n.inputs.size() != 1 || IntAttr(n, "keepdims", 1) != 1) return false;
  const std::vector<int64_t> axes = IntsAttr(n, "axes");
  return axes.size() == 1 && (axes[0] == -1 || axes[0] == static_cast<int64_t>(rank) - 1);
}

// The Const at input 1 - `k` of binary node `n` when input `k` reads `from`: its values and shape.
bool ConstBeside(const PassGraph &pg, const ir::Node &n, int32_t from, std::vector<double> *v,
                 std::vector<int64_t> *shape) {
  if (n.inputs.size() != 2) return false;
  const size_t k = n.inputs[0].node == from ? 0 : 1;
  return n.inputs[k].node == from && n.inputs[k].index == 0 && ConstF32(pg.g, n.inputs[1 - k], v, shape);
}

bool Rewrite(PassGraph &pg, int32_t di) {
  if (!pg.Is(di, "Div")) return false;
  const ir::Node &div = pg.node(di);
  if (div.inputs.size() != 2 || !div.inputs[0].connected() || div.inputs[0].index != 0) return false;
  const int32_t sub = div.inputs[0].node;
  if (!pg.Is(sub, "Sub") || pg.GraphOutput(sub)) return false;
  const ir::Node &sn = pg.node(sub);
  if (sn.inputs.size() != 2 || !sn.inputs[0].connected()) return false;
  const ir::Endpoint x = sn.inputs[0];
  const std::vector<int64_t> shape = sn.output_descs[0].shape;
  if (shape.empty() || shape.back() <= 0 || pg.g.nodes[static_cast<size_t>(x.node)].output_descs.at(
                                                static_cast<size_t>(x.index)).shape != shape ||
      div.output_descs[0].shape != shape)
    return false;
  const int64_t c = shape.back();
  const int32_t m = Owned(pg, sn, 1, "ReduceMean");
  if (m < 0 || !MeanOfLastAxis(pg, m, shape.size()) || !(pg.node(m).inputs[0] == x)) return false;
  // Sqrt(Add(ReduceMean(Pow(d, 2)), eps))
  const int32_t sq = Owned(pg, div, 1, "Sqrt");
  if (sq < 0) return false;
  const int32_t add = Owned(pg, pg.node(sq), 0, "Add");
  if (add < 0) return false;
  const ir::Node &an = pg.node(add);
  if (an.inputs.size() != 2) return false;
  std::vector<double> eps;
  std::vector<int64_t> eps_shape;
  int32_t v = -1;
  for (size_t k = 0; k < 2 && v < 0; ++k) {
    const int32_t cand = Owned(pg, an, k, "ReduceMean");
    if (cand >= 0 && ConstF32(pg.g, an.inputs[1 - k], &eps, &eps_shape) && eps.size() == 1 && eps[0] >= 0) v = cand;
  }
  if (v < 0 || !MeanOfLastAxis(pg, v, shape.size())) return false;
  int32_t sqr = Owned(pg, pg.node(v), 0, "Pow");
  if (sqr >= 0) {  // d read by the Pow and the Div
    if (!(pg.node(sqr).inputs.size() == 2 && pg.node(sqr).inputs[0] == ir::Endpoint{sub, 0} &&
          ConstIs(pg, pg.node(sqr), 1, 2.0) && pg.Consumers(sub, 0) == 2))
      return false;
  } else {  // d read twice by the Mul and by the Div
    sqr = Owned(pg, pg.node(v), 0, "Mul");
    if (sqr < 0 || !(pg.node(sqr).inputs.size() == 2 && pg.node(sqr).inputs[0] == ir::Endpoint{sub, 0} &&
                     pg.node(sqr).inputs[1] == ir::Endpoint{sub, 0} && pg.Consumers(sub, 0) == 3))
      return false;
  }
  std::vector<int32_t> nodes = {m, sub, sqr, v, add, sq, di};
  // [* gamma] [+ beta]
  int32_t last = di;
  std::vector<double> gamma(static_cast<size_t>(c), 1.0), beta;
  std::vector<int64_t> gs;
  const std::vector<int64_t> per_channel = {c};
  for (const char *type : {"Mul", "Add"}) {
    if (pg.GraphOutput(last)) break;
    const int32_t next = pg.SoleConsumer(last);
    std::vector<double> vals;
    if (!pg.Is(next, type) || pg.node(next).output_descs[0].shape != shape ||
        !ConstBeside(pg, pg.node(next), last, &vals, &gs) || gs != per_channel)
      continue;
    (std::string(type) == "Mul" ? gamma : beta) = vals;
    nodes.push_back(next);
    last = next;
  }
  std::vector<std::string> fused;
  for (int32_t i : nodes)
    for (const std::string &name : FusedNames(pg.node(i))) fused.push_back(name);
  const std::string name = pg.node(last).name;
  const int32_t gi = pg.AddConst(name + "/layernorm_scale", per_channel, gamma);
  const int32_t bi = beta.empty() ? -1 : pg.AddConst(name + "/layernorm_B", per_channel, beta);
  const std::vector<ir::Endpoint> old = pg.node(last).inputs;
  ir::Node &ln = pg.node(last);
  ln.type = "LayerNormalization";
  ln.inputs.clear();
  ln.input_descs.clear();
  ln.attrs.clear();
  ir::AttrValue axis, epsilon, stash, opset;
  axis.kind = stash.kind = opset.kind = ir::AttrKind::kInt;
  axis.i = -1;
  stash.i = 1;
  opset.i = 17;
  epsilon.kind = ir::AttrKind::kFloat;
  epsilon.f = static_cast<float>(eps[0]);
  ln.attrs["axis"] = axis;
  ln.attrs["epsilon"] = epsilon;
  ln.attrs["stash_type"] = stash;
  ln.attrs["onnx_opset"] = opset;
  SetFusedNames(ln, fused);
  pg.SetInput(last, 0, x);
  pg.SetInput(last, 1, {gi, 0});
  if (bi >= 0) pg.SetInput(last, 2, {bi, 0});
  for (int32_t i : nodes)
    if (i != last) pg.Erase(i);
  DropUnreadConsts(pg, old);
  LogInfo("pass " + std::string(kLayerNormPattern) + ": " + JoinNames(fused) + " computed as LayerNormalization '" +
          name + "'");
  return true;
}

}  // namespace

size_t RunLayerNormPattern(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    if (pg.g.nodes[i].type == "Div" && Rewrite(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
