// ConvBatchNormFoldPass: BatchNormalization (inference: training_mode 0, constant scale, B,
// mean, var) right after a Conv or ConvTranspose with constant float32 weights (and bias) whose
// output feeds only that BatchNormalization is folded into the convolution, computed in double:
//   s[m] = scale[m] / sqrt(var[m] + epsilon);  W'[m, ...] = W[m, ...] * s[m];
//   B'[m] = (B_conv[m] - mean[m]) * s[m] + B_bn[m]     (B_conv = 0 without a bias)
// (m = output channel: W's axis 0 for Conv; for ConvTranspose, W is [C, M/group, k...] and
// channel m = (c / (C/group)) * (M/group) + j). The new W' and B' are float32 Consts; the
// convolution takes the BatchNormalization's name (graph outputs keep their names) and records
// both original names in openatc_fused_nodes.
// A Gemm (Y = alpha * A' B' + beta * C, Y [M, N]) with a constant float32 B and a constant or
// absent C is folded the same way, channel n being Y's column: B' = B * s (B's columns, or its
// rows under transB), C' = beta * C * s + t with t[n] = B_bn[n] - mean[n] * s[n] (C broadcast as
// ONNX does: [N] when C is absent or one row, else [M, N]), and beta becomes 1.
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

// Gives host `hi` (the Conv, ConvTranspose or Gemm whose sole consumer is BatchNormalization
// `bi`) the folded inputs 1 and 2 as new float32 Consts named <host>/bn_folded_<suffix>, removes the
// BatchNormalization (the host takes its name and both nodes' fused names) and the Consts the old
// inputs leave unread, and logs the fold.
void ReplaceWithFolded(PassGraph &pg, int32_t hi, int32_t bi, const std::vector<int64_t> &w_shape,
                       const std::vector<double> &w, const std::vector<int64_t> &b_shape,
                       const std::vector<double> &b, const char *w_suffix, const char *b_suffix) {
  const std::string bn_name = pg.node(bi).name, host_name = pg.node(hi).name;
  const std::vector<std::string> bn_fused = FusedNames(pg.node(bi));  // BatchNormScaleFoldPass may have folded into it
  const int32_t wi = pg.AddConst(host_name + "/bn_folded_" + w_suffix, w_shape, w);
  const int32_t bc = pg.AddConst(host_name + "/bn_folded_" + b_suffix, b_shape, b);
  ir::Node &h = pg.node(hi);  // AddConst may have moved the nodes
  std::vector<std::string> fused = FusedNames(h);
  fused.insert(fused.end(), bn_fused.begin(), bn_fused.end());
  const ir::Endpoint old_w = h.inputs[1];
  const ir::Endpoint old_b = h.inputs.size() > 2 ? h.inputs[2] : ir::Endpoint{};
  pg.SetInput(hi, 1, {wi, 0});
  pg.SetInput(hi, 2, {bc, 0});
  SetFusedNames(pg.node(hi), fused);
  pg.Redirect({bi, 0}, {hi, 0});
  pg.Erase(bi);
  pg.node(hi).name = bn_name;
  DropUnreadConsts(pg, {old_w, old_b});  // the old weights may now feed nothing
  LogInfo("pass " + std::string(kConvBnFold) + ": folded BatchNormalization '" + bn_name + "' into " +
          pg.node(hi).type + " '" + host_name + "' (fused node '" + bn_name + "': " + JoinNames(fused) + ")");
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
  ReplaceWithFolded(pg, ci, bi, wshape, w, {m}, b, "W", "B");
  return true;
}

bool FoldGemm(PassGraph &pg, int32_t gi) {
  const ir::Node &gemm = pg.node(gi);
  if (!pg.Is(gi, "Gemm") || gemm.inputs.size() < 2 || gemm.inputs.size() > 3 || pg.GraphOutput(gi)) return false;
  if (gemm.output_descs.size() != 1 || gemm.output_descs[0].dtype != ge::DT_FLOAT ||
      gemm.output_descs[0].shape.size() != 2)
    return false;
  const int32_t bi = pg.SoleConsumer(gi);
  if (!pg.Is(bi, "BatchNormalization") || pg.node(bi).inputs[0].node != gi) return false;
  std::vector<double> w, c;
  std::vector<int64_t> wshape, cshape;
  if (!ConstF32(pg.g, gemm.inputs[1], &w, &wshape) || wshape.size() != 2) return false;
  const bool trans_b = IntAttr(gemm, "transB", 0) != 0;
  const int64_t n = trans_b ? wshape[0] : wshape[1], rows = gemm.output_descs[0].shape[0];
  const bool has_c = gemm.inputs.size() == 3 && gemm.inputs[2].connected();
  if (has_c && !ConstF32(pg.g, gemm.inputs[2], &c, &cshape)) return false;
  // C's rows and columns as Y sees them (1: broadcast); C' has one row unless C has several.
  int64_t c_rows = 1, c_cols = 1;
  if (cshape.size() == 1) {
    c_cols = cshape[0];
  } else if (cshape.size() == 2) {
    c_rows = cshape[0];
    c_cols = cshape[1];
  } else if (!cshape.empty()) {
    return false;
  }
  if ((c_cols != 1 && c_cols != n) || (c_rows != 1 && (rows < 0 || c_rows != rows))) return false;
  const ir::Node &bn = pg.node(bi);
  BnParams p;
  if (!ReadBn(pg, bi, n, &p)) return false;
  const double eps = FloatAttr(bn, "epsilon", 1e-5f), beta = FloatAttr(gemm, "beta", 1.0f);
  std::vector<double> s(static_cast<size_t>(n)), t(static_cast<size_t>(n));
  for (size_t k = 0; k < s.size(); ++k) {
    s[k] = p.scale[k] / std::sqrt(p.var[k] + eps);
    t[k] = p.shift[k] - p.mean[k] * s[k];
  }
  for (size_t i = 0; i < w.size(); ++i) {
    const size_t col = trans_b ? i / static_cast<size_t>(wshape[1]) : i % static_cast<size_t>(n);
    w[i] *= s[col];
  }
  std::vector<double> cf(static_cast<size_t>(c_rows * n));
  for (int64_t r = 0; r < c_rows; ++r)
    for (int64_t k = 0; k < n; ++k) {
      const double cv = has_c ? c[static_cast<size_t>(r * c_cols + (c_cols == 1 ? 0 : k))] : 0.0;
      cf[static_cast<size_t>(r * n + k)] = beta * cv * s[static_cast<size_t>(k)] + t[static_cast<size_t>(k)];
    }
  pg.node(gi).attrs["beta"].kind = ir::AttrKind::kFloat;  // C' holds beta * C
  pg.node(gi).attrs["beta"].f = 1.0f;
  ReplaceWithFolded(pg, gi, bi, wshape, w, c_rows == 1 ? std::vector<int64_t>{n} : std::vector<int64_t>{c_rows, n},
                    cf, "B", "C");
  return true;
}

}  // namespace

size_t RunConvBnFold(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string &type = pg.g.nodes[i].type;
    if ((type == "Conv" || type == "ConvTranspose") && FoldOne(pg, static_cast<int32_t>(i))) ++changes;
    else if (type == "Gemm" && FoldGemm(pg, static_cast<int32_t>(i))) ++changes;
  }
  return changes;
}

}  // namespace openatc::compiler::passes
