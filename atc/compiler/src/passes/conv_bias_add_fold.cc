// ConvBiasAddFoldPass: Add(Conv(x, W[, B]), C) with C a float32 Const that broadcasts along the
// output channel only (C's dims, aligned to Y [N, M, spatial...] from the right, are all 1 except
// at most the channel axis, which is M or 1) becomes Conv(x, W, B + C) (B = 0 when absent), as
// exported models often carry the bias as a separate Add (mnist-8); likewise Mul(Conv(x, W[, B]),
// S) with such an S and a Const float32 W becomes Conv(x, W * S, B * S) (the per-channel affine
// "learnable" scale of PP-LCNet blocks in ppocr-v4-det: Conv -> Mul(s) -> Add(b) -> hard-swish).
// The Add folds into a ConvTranspose's bias the same way (Paddle2ONNX writes the bias of its
// upsampling ConvTransposes as an Add: ppocr-v4-det, which a BatchNormalization then follows).
// Sums and products are computed in double and rounded once. The Conv takes the last folded
// node's name and records them all in openatc_fused_nodes.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

bool FoldMul(PassGraph &pg, int32_t ci) {
  const ir::Node &conv = pg.node(ci);
  if (!pg.Is(ci, "Conv") || pg.GraphOutput(ci) || conv.inputs.size() < 2 || conv.inputs.size() > 3 ||
      conv.attrs.count("openatc_post_ops"))
    return false;
  const int32_t mi = pg.SoleConsumer(ci);
  if (!pg.Is(mi, "Mul")) return false;
  const ir::Node &mul = pg.node(mi);
  if (mul.inputs.size() != 2 || mul.output_descs[0].shape != conv.output_descs[0].shape) return false;
  const size_t k = mul.inputs[0].node == ci ? 1 : 0;
  std::vector<double> c, w, b, per;
  std::vector<int64_t> cs, ws, bs;
  const std::vector<int64_t> &y = conv.output_descs[0].shape;
  if (y.size() < 3 || y[1] < 1 || !ConstF32(pg.g, mul.inputs[k], &c, &cs) || !PerChannel(c, cs, y.size(), y[1], &per) ||
      !ConstF32(pg.g, conv.inputs[1], &w, &ws) || ws.empty() || ws[0] != y[1])
    return false;
  const bool has_bias = conv.inputs.size() == 3 && conv.inputs[2].connected();
  if (has_bias && (!ConstF32(pg.g, conv.inputs[2], &b, &bs) || bs != std::vector<int64_t>{y[1]})) return false;
  const int64_t m = y[1];  // `y` refers into the node list, which AddConst may move
  const size_t per_m = w.size() / static_cast<size_t>(m);
  for (size_t i = 0; i < w.size(); ++i) w[i] *= per[i / per_m];
  for (size_t i = 0; i < b.size(); ++i) b[i] *= per[i];
  const std::string conv_name = conv.name, mul_name = mul.name;
  std::vector<std::string> fused = FusedNames(conv);
  fused.push_back(mul_name);
  const ir::Endpoint old_w = conv.inputs[1], old_b = has_bias ? conv.inputs[2] : ir::Endpoint{};
  pg.SetInput(ci, 1, {pg.AddConst(conv_name + "/scale_folded_W", ws, w), 0});
  if (has_bias) pg.SetInput(ci, 2, {pg.AddConst(conv_name + "/scale_folded_B", {m}, b), 0});
  Absorb(pg, ci, mi, fused);
  DropUnreadConsts(pg, {old_w, old_b});
  LogInfo("pass " + std::string(kConvBiasAdd) + ": folded Mul '" + mul_name + "' into the weights of Conv '" + conv_name +
          "' (fused node '" + mul_name + "': " + JoinNames(fused) + ")");
  return true;
}

bool FoldAdd(PassGraph &pg, int32_t ci) {
  const ir::Node &conv = pg.node(ci);
  if (!(pg.Is(ci, "Conv") || pg.Is(ci, "ConvTranspose")) || pg.GraphOutput(ci) || conv.inputs.size() < 2 || conv.inputs.size() > 3 ||
      conv.attrs.count("openatc_post_ops"))
    return false;
  const int32_t ai = pg.SoleConsumer(ci);
  if (!pg.Is(ai, "Add")) return false;
  const ir::Node &add = pg.node(ai);
  if (add.inputs.size() != 2 || add.output_descs[0].shape != conv.output_descs[0].shape) return false;
  const size_t k = add.inputs[0].node == ci ? 1 : 0;
  std::vector<double> c, b, per;
  std::vector<int64_t> cs, bs;
  const std::vector<int64_t> &y = conv.output_descs[0].shape;
  if (y.size() < 3 || y[1] < 1 || !ConstF32(pg.g, add.inputs[k], &c, &cs) || !PerChannel(c, cs, y.size(), y[1], &per))
    return false;
  const bool has_bias = conv.inputs.size() == 3 && conv.inputs[2].connected();
  if (has_bias && (!ConstF32(pg.g, conv.inputs[2], &b, &bs) || bs != std::vector<int64_t>{y[1]})) return false;
  if (!has_bias) b.assign(per.size(), 0.0);
  for (size_t i = 0; i < b.size(); ++i) b[i] += per[i];
  const std::string conv_name = conv.name, add_name = add.name;
  std::vector<std::string> fused = FusedNames(conv);
  fused.push_back(add_name);
  const ir::Endpoint old_b = has_bias ? conv.inputs[2] : ir::Endpoint{};
  const int32_t bc = pg.AddConst(conv_name + "/bias_add_folded_B", {y[1]}, b);
  pg.SetInput(ci, 2, {bc, 0});
  Absorb(pg, ci, ai, fused);
  DropUnreadConsts(pg, {old_b});
  LogInfo("pass " + std::string(kConvBiasAdd) + ": folded Add '" + add_name + "' into the bias of " + pg.node(ci).type + " '" + conv_name +
          "' (fused node '" + add_name + "': " + JoinNames(fused) + ")");
  return true;
}

}  // namespace

size_t RunConvBiasAddFold(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    while ((pg.g.nodes[i].type == "Conv" && (FoldMul(pg, static_cast<int32_t>(i)) || FoldAdd(pg, static_cast<int32_t>(i)))) ||
           (pg.g.nodes[i].type == "ConvTranspose" && FoldAdd(pg, static_cast<int32_t>(i))))
      ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
