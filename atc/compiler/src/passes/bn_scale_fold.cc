// BatchNormScaleFoldPass: Mul(BatchNormalization(x), S) becomes BatchNormalization(x) with
// scale * S and B * S, and Add(BatchNormalization(x), T) one with B + T, when S and T are
// float32 Consts that broadcast along the channel axis only (PerChannel), the
// BatchNormalization is in inference form (training_mode 0, one output) with constant float32
// scale and B of shape [C], and the Mul or Add is the only reader of its output and keeps its
// shape. Y = (x - mean) / sqrt(var + eps) * scale + B, so ((...) * scale + B) * S + T is the same
// form. Caffe exports write a BatchNorm layer and its Scale layer as BatchNormalization -> Mul ->
// Add (light_densenet121's BatchNormalizations after a Concat, which fold into no Conv). Products
// and sums are computed in double and rounded once; the BatchNormalization takes the folded
// node's name and records them all in openatc_fused_nodes.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

bool FoldOne(PassGraph &pg, int32_t bi) {
  const ir::Node &bn = pg.node(bi);
  if (!pg.Is(bi, "BatchNormalization") || pg.GraphOutput(bi) || bn.inputs.size() != 5 || bn.output_descs.size() != 1 ||
      IntAttr(bn, "training_mode", 0) != 0 || bn.output_descs[0].shape.size() < 2 || bn.output_descs[0].shape[1] < 1)
    return false;
  const int32_t oi = pg.SoleConsumer(bi);
  const bool mul = pg.Is(oi, "Mul");
  if (!mul && !pg.Is(oi, "Add")) return false;
  const ir::Node &op = pg.node(oi);
  if (op.inputs.size() != 2 || op.output_descs.empty() || op.output_descs[0].shape != bn.output_descs[0].shape ||
      op.inputs[0].node == op.inputs[1].node)
    return false;
  const size_t k = op.inputs[0].node == bi ? 1 : 0;
  const int64_t c = bn.output_descs[0].shape[1];
  std::vector<double> v, per, scale, shift;
  std::vector<int64_t> vs, ss, bs;
  if (!ConstF32(pg.g, op.inputs[k], &v, &vs) || !PerChannel(v, vs, bn.output_descs[0].shape.size(), c, &per) ||
      !ConstF32(pg.g, bn.inputs[1], &scale, &ss) || !ConstF32(pg.g, bn.inputs[2], &shift, &bs) ||
      ss != std::vector<int64_t>{c} || bs != std::vector<int64_t>{c})
    return false;
  for (size_t i = 0; i < per.size(); ++i) {
    if (mul) scale[i] *= per[i], shift[i] *= per[i];
    else shift[i] += per[i];
  }
  const std::string bn_name = bn.name, op_name = op.name;
  std::vector<std::string> fused = FusedNames(bn);
  fused.push_back(op_name);
  const ir::Endpoint old_scale = bn.inputs[1], old_shift = bn.inputs[2], old_v = op.inputs[k];
  if (mul) pg.SetInput(bi, 1, {pg.AddConst(bn_name + "/scale_folded_scale", {c}, scale), 0});
  pg.SetInput(bi, 2, {pg.AddConst(bn_name + "/scale_folded_B", {c}, shift), 0});
  ir::Node &b = pg.node(bi);  // AddConst may have moved the nodes
  SetFusedNames(b, fused);
  pg.Redirect({oi, 0}, {bi, 0});
  pg.Erase(oi);
  b.name = op_name;
  DropUnreadConsts(pg, {old_scale, old_shift, old_v});
  LogInfo("pass " + std::string(kBnScaleFold) + ": folded " + (mul ? "Mul '" : "Add '") + op_name +
          "' into BatchNormalization '" + bn_name + "' (fused node '" + op_name + "': " + JoinNames(fused) + ")");
  return true;
}

}  // namespace

size_t RunBnScaleFold(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    while (pg.g.nodes[i].type == "BatchNormalization" && FoldOne(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
