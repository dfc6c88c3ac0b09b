// HardSwishPatternPass: the decomposed hard-swish that exporters write (Paddle2ONNX's
// ppocr models, opset < 14, which has no HardSwish):
//   y = Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)     (or the last step Mul(., 1/6))
// becomes one HardSwish node (ONNX HardSwish-14: x * max(0, min(1, x / 6 + 1/2)), the same
// function), so that ConvActivationFusionPass can make it a Conv's eltwise_hardswish post-op.
// Operands of Add and Mul may come in either order; the constants are one-element float32 Consts
// (3, 0, 6, and 6 or 1/6 within float32 rounding). The Add, Clip and Mul outputs must each have
// one consumer, none may be a graph output, and every step keeps x's shape (a one-element
// operand of a higher rank would broadcast). The Div node becomes the HardSwish (its name kept;
// openatc_fused_nodes lists the four original nodes).
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// The input anchor of binary node `n` that is not the constant `want` (the other one is), or -1.
int OtherThanConst(const PassGraph &pg, const ir::Node &n, double want) {
  if (n.inputs.size() != 2 || !n.inputs[0].connected() || !n.inputs[1].connected()) return -1;
  if (ConstIs(pg, n, 1, want)) return 0;
  if (ConstIs(pg, n, 0, want)) return 1;
  return -1;
}

// A node of `type` reading `from` (output 0) as its only consumer, keeping `shape`; else -1.
int32_t Next(const PassGraph &pg, int32_t from, const char *type, const std::vector<int64_t> &shape) {
  if (pg.GraphOutput(from)) return -1;
  const int32_t c = pg.SoleConsumer(from);
  if (c < 0 || !pg.Is(c, type)) return -1;
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(c)];
  return n.output_descs.size() == 1 && n.output_descs[0].shape == shape ? c : -1;
}

// Rewrites the pattern starting at Add node `ai`; false when it does not match.
bool Rewrite(PassGraph &pg, int32_t ai) {
  if (!pg.Is(ai, "Add")) return false;
  const ir::Node &add = pg.node(ai);
  const int xk = OtherThanConst(pg, add, 3.0);
  if (xk < 0 || add.output_descs.size() != 1) return false;
  const ir::Endpoint x = add.inputs[static_cast<size_t>(xk)];
  const std::vector<int64_t> shape = add.input_descs.at(static_cast<size_t>(xk)).shape;
  if (add.output_descs[0].shape != shape) return false;
  const int32_t ci = Next(pg, ai, "Clip", shape);
  if (ci < 0) return false;
  const ir::Node &clip = pg.node(ci);
  if (clip.inputs.size() != 3 || clip.inputs[0].node != ai || !ConstIs(pg, clip, 1, 0.0) || !ConstIs(pg, clip, 2, 6.0))
    return false;
  const int32_t mi = Next(pg, ci, "Mul", shape);
  if (mi < 0) return false;
  const ir::Node &mul = pg.node(mi);
  if (mul.inputs.size() != 2) return false;
  const size_t ck = mul.inputs[0].node == ci ? 0 : 1;
  if (mul.inputs[ck].node != ci || mul.inputs[ck].index != 0 || !(mul.inputs[1 - ck] == x)) return false;
  int32_t di = Next(pg, mi, "Div", shape);
  if (di >= 0 && !(pg.node(di).inputs.size() == 2 && pg.node(di).inputs[0].node == mi &&
                   pg.node(di).inputs[0].index == 0 && ConstIs(pg, pg.node(di), 1, 6.0)))
    di = -1;
  if (di < 0) {  // the last step as a product with 1/6
    di = Next(pg, mi, "Mul", shape);
    const int mk = di < 0 ? -1 : OtherThanConst(pg, pg.node(di), 1.0 / 6.0);
    if (mk < 0 || pg.node(di).inputs[static_cast<size_t>(mk)].node != mi) return false;
  }
  std::vector<std::string> fused;
  for (int32_t i : {ai, ci, mi, di})
    for (const std::string &name : FusedNames(pg.node(i))) fused.push_back(name);
  const std::vector<ir::Endpoint> old = pg.node(di).inputs;
  const std::string div_type = pg.node(di).type;
  ir::Node &hs = pg.node(di);
  hs.type = "HardSwish";
  hs.inputs.clear();
  hs.input_descs.clear();
  pg.SetInput(di, 0, x);
  SetFusedNames(hs, fused);
  for (int32_t i : {mi, ci, ai}) pg.Erase(i);
  DropUnreadConsts(pg, old);
  LogInfo("pass " + std::string(kHardSwishPattern) + ": " + JoinNames(fused) + " (Add, Clip, Mul, " + div_type +
          ") computed as HardSwish '" + hs.name + "'");
  return true;
}

}  // namespace

size_t RunHardSwishPattern(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    if (pg.g.nodes[i].type == "Add" && Rewrite(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
