// StridedPointwiseConvPass: a 1x1 Conv with a stride above 1 and no padding (ResNet's projection
// shortcuts) reads every s-th pixel of every s-th row. oneDNN's 1x1 kernel copies those pixels
// into a per-thread buffer first, and at 2 threads both threads copied them. The pass computes
// the same thing in two nodes: a MaxPool of a 1x1 window with the Conv's strides (each output is
// its one input value: an exact copy, NaN and -0.0 included), then the Conv with strides 1. Both
// are then in the blocked chain (LayoutPlanningPass runs after). The new MaxPool is named
// '<conv>/subsample' and marked _openatc_exact_copy: the precision modes never reduce it (the
// Conv's own decision rounds what it reads), so a Conv kept in float32 still reads its input
// exactly. Only with the built-in MaxPool. Measured: README.md, the pass list.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// Rewrites Conv node `ci`; false when it does not match.
bool Rewrite(PassGraph &pg, int32_t ci) {
  if (!pg.Is(ci, "Conv") || pg.builtin.count("MaxPool") == 0) return false;
  const ir::Node &conv = pg.node(ci);
  if (conv.inputs.size() < 2 || !conv.inputs[0].connected() || conv.input_descs.size() < 2 ||
      conv.output_descs.size() != 1)
    return false;
  // Copies: AddNode below may move the nodes.
  const std::vector<int64_t> x = conv.input_descs[0].shape, w = conv.input_descs[1].shape,
                             y = conv.output_descs[0].shape;
  if (x.size() != 4 || w.size() != 4 || y.size() != 4 || w[2] != 1 || w[3] != 1) return false;
  if (conv.input_descs[0].dtype != ge::DT_FLOAT) return false;
  // Known channels and map (the batch may be a run-time dim); channels in whole chain blocks of 8
  // and constant weights, as LayoutPlanningPass wants for a blocked Conv: the measured case.
  if (x[1] <= 0 || x[2] <= 0 || x[3] <= 0 || x[1] % 8 != 0) return false;
  const ir::Endpoint &we = conv.inputs[1];
  if (!we.connected() || (pg.g.nodes[static_cast<size_t>(we.node)].type != ir::kConst &&
                          pg.g.nodes[static_cast<size_t>(we.node)].type != ir::kConstant))
    return false;
  const std::vector<int64_t> strides = IntsAttr(conv, "strides");
  if (strides.size() != 2 || strides[0] < 1 || strides[1] < 1 || AllEqual(strides, 1)) return false;
  if (!AllEqual(IntsAttr(conv, "pads"), 0) || !AllEqual(IntsAttr(conv, "dilations"), 1)) return false;
  auto ap = conv.attrs.find("auto_pad");
  if (ap != conv.attrs.end() && ap->second.kind == ir::AttrKind::kString && !ap->second.s.empty() &&
      ap->second.s != "NOTSET" && ap->second.s != "VALID")
    return false;
  // Without padding, output row r reads input row r * s: the subsampled map has the Conv's size.
  if (y[2] != (x[2] - 1) / strides[0] + 1 || y[3] != (x[3] - 1) / strides[1] + 1) return false;

  ir::Node pool;
  pool.name = conv.name + "/subsample";
  pool.type = "MaxPool";
  SetInts(pool, "kernel_shape", {1, 1});
  SetInts(pool, "strides", strides);
  SetInt(pool, kExactCopyAttr, 1);
  pool.inputs = {conv.inputs[0]};
  pool.input_descs = {conv.input_descs[0]};
  ir::TensorDesc out = conv.input_descs[0];
  out.name.clear();
  out.shape = out.origin_shape = {x[0], x[1], y[2], y[3]};
  pool.output_descs = {out};
  const std::string conv_name = conv.name;
  const int32_t pi = pg.AddNode(std::move(pool));  // may move the nodes: `conv` is stale
  pg.SetInput(ci, 0, {pi, 0});
  ir::Node &c = pg.node(ci);
  c.input_descs[0].shape = c.input_descs[0].origin_shape = {x[0], x[1], y[2], y[3]};
  SetInts(c, "strides", {1, 1});
  c.attrs.erase("auto_pad");
  LogInfo("pass " + std::string(kStridedPointwiseConv) + ": Conv '" + conv_name + "' (1x1, strides " +
          std::to_string(strides[0]) + "x" + std::to_string(strides[1]) + ") reads MaxPool '" + pg.node(pi).name +
          "' (1x1 window, the same strides) with strides 1");
  return true;
}

}  // namespace

size_t RunStridedPointwiseConv(PassGraph &pg) {
  size_t changed = 0;
  const size_t n = pg.g.nodes.size();  // not the nodes this pass adds
  for (size_t i = 0; i < n; ++i) changed += Rewrite(pg, static_cast<int32_t>(i)) ? 1 : 0;
  return changed;
}

}  // namespace openatc::compiler::passes
