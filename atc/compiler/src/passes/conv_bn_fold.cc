// ConvBatchNormFoldPass: BatchNormalization (inference: training_mode 0, constant scale, B,
// mean, var) right after a Conv or ConvTranspose with constant float32 weights (and bias) whose
// output feeds only that BatchNormalization is folded into the convolution, computed in double:
//   s[m] = scale[m] / sqrt(var[m] + epsilon);  W'[m, ...] = W[m, ...] * s[m];
//   B'[m] = (B_conv[m] - mean[m]) * s[m] + B_bn[m]     (B_conv = 0 without a bias)
// (m = output channel: W's axis 0 for Conv; for ConvTranspose, W is [C, M/group, k...] and
// channel m = (c / (C/group)) * (M/group) + j). The new W' and B' are float32 Consts; the
// convolution takes the BatchNormalization's name (graph outputs keep their names) and records
// both original names in openatc_fused_nodes.
#include <cmath>

#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

struct BnParams {
  std::vector<double> scale, shift, mean, var;
};

bool ReadBn(PassGraph &pg, int32_t bi, int64_t channels, BnParams *p) {
  const ir::Node &bn = pg.node(bi);
  if (bn.inputs.size() != 5 || IntAttr(bn, "training_mode", 0) != 0) return false;
  for (size_t o = 1; o < bn.output_descs.size(); ++o)
    if (pg.Consumers(bi, static_cast<int32_t>(o)) != 0) return false;
  std::vector<double> *dst[4] = {&p->scale, &p->shift, &p->mean, &p->var};
  for (size_t i = 0; i < 4; ++i) {
    std::vector<int64_t> shape;
    if (!ConstF32(pg.g, bn.inputs[i + 1], dst[i], &shape)) return false;
    if (shape != std::vector<int64_t>{channels}) return false;
  }
  return true;
}

// Output channel of weight row `r` (W's first two axes flattened) for a Conv or ConvTranspose.
int64_t ChannelOf(bool transposed, int64_t r, const std::vector<int64_t> &w, int64_t group) {
  if (!transposed) return r / w[1];
  const int64_t c = r / w[1], j = r % w[1];
  return (c / (w[0] / group)) * w[1] + j;
}

bool FoldOne(PassGraph &pg, int32_t ci) {
  ir::Node &conv = pg.node(ci);
  const bool transposed = conv.type == "ConvTranspose";
  if (!pg.Is(ci, conv.type.c_str()) || conv.inputs.size() < 2 || conv.inputs.size() > 3) return false;
  if (conv.attrs.count("openatc_post_ops")) return false;
  if (pg.GraphOutput(ci)) return false;
  const int32_t bi = pg.SoleConsumer(ci);
  if (!pg.Is(bi, "BatchNormalization") || pg.node(bi).inputs[0].node != ci) return false;
  std::vector<double> w, b;
  std::vector<int64_t> wshape, bshape;
  if (!ConstF32(pg.g, conv.inputs[1], &w, &wshape) || wshape.size() < 3) return false;
  const int64_t group = IntAttr(conv, "group", 1);
  if (group < 1 || wshape[0] % group != 0) return false;
  const int64_t m = transposed ? wshape[1] * group : wshape[0];
  const bool has_bias = conv.inputs.size() == 3 && conv.inputs[2].connected();
  if (has_bias && (!ConstF32(pg.g, conv.inputs[2], &b, &bshape) || bshape != std::vector<int64_t>{m})) return false;
  if (!has_bias) b.assign(static_cast<size_t>(m), 0.0);
  const ir::Node &bn = pg.node(bi);
  BnParams p;
  if (!ReadBn(pg, bi, m, &p)) return false;
  const double eps = FloatAttr(bn, "epsilon", 1e-5f);
  std::vector<double> s(static_cast<size_t>(m));
  for (size_t k = 0; k < s.size(); ++k) s[k] = p.scale[k] / std::sqrt(p.var[k] + eps);
  const int64_t rows = wshape[0] * wshape[1];
  const size_t per_row = w.size() / static_cast<size_t>(rows);
  for (int64_t r = 0; r < rows; ++r) {
    const double f = s[static_cast<size_t>(ChannelOf(transposed, r, wshape, group))];
    for (size_t q = 0; q < per_row; ++q) w[static_cast<size_t>(r) * per_row + q] *= f;
  }
  for (size_t k = 0; k < b.size(); ++k) b[k] = (b[k] - p.mean[k]) * s[k] + p.shift[k];
  const std::string bn_name = bn.name, conv_name = conv.name;
  const std::vector<std::string> bn_fused = FusedNames(bn);  // BatchNormScaleFoldPass may have folded into it
  const int32_t wi = pg.AddConst(conv_name + "/bn_folded_W", wshape, w);
  const int32_t bc = pg.AddConst(conv_name + "/bn_folded_B", {m}, b);
  ir::Node &c = pg.node(ci);  // AddConst may have moved the nodes
  std::vector<std::string> fused = FusedNames(c);
  fused.insert(fused.end(), bn_fused.begin(), bn_fused.end());
  const ir::Endpoint old_w = c.inputs[1], old_b = has_bias ? c.inputs[2] : ir::Endpoint{};
  pg.SetInput(ci, 1, {wi, 0});
  pg.SetInput(ci, 2, {bc, 0});
  SetFusedNames(c, fused);
  pg.Redirect({bi, 0}, {ci, 0});
  pg.Erase(bi);
  c.name = bn_name;
  DropUnreadConsts(pg, {old_w, old_b});  // the old weights may now feed nothing
  LogInfo("pass " + std::string(kConvBnFold) + ": folded BatchNormalization '" + bn_name + "' into " + c.type +
          " '" + conv_name + "' (fused node '" + bn_name + "': " + JoinNames(fused) + ")");
  return true;
}

}  // namespace

size_t RunConvBnFold(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string &type = pg.g.nodes[i].type;
    if ((type == "Conv" || type == "ConvTranspose") && FoldOne(pg, static_cast<int32_t>(i))) ++changes;
  }
  return changes;
}

}  // namespace openatc::compiler::passes
