// Conv (ONNX Conv-11): 1-D/2-D/3-D convolution, NCHW-style layout, with kernel_shape, strides,
// dilations, pads or auto_pad (SAME_UPPER/SAME_LOWER/VALID), group (incl. depthwise) and the
// optional bias B. Computed by oneDNN's convolution_forward (f32; float16/double via f32).
// Fusion (atc's passes, atc/compiler/src/passes/conv_post_ops.cc): openatc_post_ops /
// openatc_post_alpha / openatc_post_beta list oneDNN post-ops applied to the result in order
// (ops/common/dnnl_post_ops.h); a binary_add adds input openatc_addend (Y's shape). The node's
// openatc_fused_nodes names the original nodes it computes (read by no kernel).
// Layout planning (atc/compiler/src/passes/layout_plan.cc): openatc_layout, openatc_x_blocked,
// openatc_y_blocked, openatc_addend_blocked, openatc_weights_id, openatc_chain_block
// (ops/common/conv_layout.h); openatc_winograd (atc/compiler/src/passes/conv_winograd.cc) allows
// oneDNN's Winograd algorithm where UseWinograd (ops/common/conv_core.h) finds it faster;
// openatc_x_bound_id, openatc_addend_bound_id and openatc_y_bound_id (atc's NanScanSharePass)
// let Convs share what they know of a tensor's values (openatc/nan_scan_share.h).
// A blocked Conv with constant weights has them pre-packed into the OM by atc (PackWeights) and
// is prepared at load (PrepareNode: primitive made, packed weights taken or repacked;
// ops/common/conv_prepared.h), so its Execute does no per-run lookup.
#include "common/conv_core.h"
#include "common/conv_prepared.h"
#include "common/dnnl_packing.h"
#include "openatc/weight_packing.h"

namespace ge {
REG_OP(Conv)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(W, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(openatc_addend, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(dilations, ListInt, {})
    .ATTR(group, Int, 1)
    .ATTR(kernel_shape, ListInt, {})
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .ATTR(openatc_post_ops, ListString, {})
    .ATTR(openatc_post_alpha, ListFloat, {})
    .ATTR(openatc_post_beta, ListFloat, {})
    .ATTR(openatc_layout, String, "")
    .ATTR(openatc_x_blocked, Int, 0)
    .ATTR(openatc_y_blocked, Int, 0)
    .ATTR(openatc_addend_blocked, Int, 0)
    .ATTR(openatc_weights_id, Int, 0)
    .ATTR(openatc_chain_block, Int, 8)
    .ATTR(openatc_winograd, Int, 0)
    .ATTR(openatc_x_bound_id, Int, 0)
    .ATTR(openatc_addend_bound_id, Int, 0)
    .ATTR(openatc_y_bound_id, Int, 0)
    .ATTR(openatc_addend_in_place, Int, 0)
    .OP_END_FACTORY_REG(Conv);
}  // namespace ge

namespace openatc_ops {
namespace {
enum ConvAttr {
  kAutoPad, kDilations, kGroup, kKernelShape, kPads, kStrides, kPostOps, kPostAlpha, kPostBeta,
  kLayout, kXBlocked, kYBlocked, kAddBlocked, kWeightsId, kChainBlockWidest, kWinograd, kXBoundId, kAddendBoundId,
  kYBoundId, kAddendInPlace
};

// Output dims [N, M, out...] and the window of X (N, C, spatial...) convolved with W (M, C/group,
// k...); "" or the reason the shapes/attributes do not fit.
std::string ConvShape(const gert::ExtendedKernelContext *ctx, const Dims &x, const Dims &w, Window *win,
                      int64_t *group, Dims *y) {
  if (x.size() < 3 || x.size() > 5)
    return "X must have rank 3, 4 or 5 (N, C, spatial...); got " + DimsToString(x);
  if (w.size() != x.size()) return "W " + DimsToString(w) + " must have the rank of X " + DimsToString(x);
  *group = AttrInt(ctx, kGroup, 1);
  if (*group < 1) return "group " + std::to_string(*group) + " must be >= 1";
  const Dims spatial(x.begin() + 2, x.end());
  WindowAttrs a;
  a.kernel = AttrInts(ctx, kKernelShape);
  const Dims wk(w.begin() + 2, w.end());
  if (a.kernel.empty()) a.kernel = wk;
  for (size_t i = 0; i < wk.size(); ++i)
    if (a.kernel.size() != wk.size() || (wk[i] >= 0 && a.kernel[i] != wk[i]))
      return "kernel_shape " + DimsToString(a.kernel) + " differs from W's spatial dims " + DimsToString(wk);
  a.strides = AttrInts(ctx, kStrides);
  a.dilations = AttrInts(ctx, kDilations);
  a.pads = AttrInts(ctx, kPads);
  a.auto_pad = AttrStr(ctx, kAutoPad, "NOTSET");
  if (w[0] >= 0 && w[0] % *group != 0)
    return "W's output channels " + std::to_string(w[0]) + " are not a multiple of group " + std::to_string(*group);
  if (x[1] >= 0 && w[1] >= 0 && x[1] != w[1] * *group)
    return "X has " + std::to_string(x[1]) + " channels but W " + DimsToString(w) + " with group " +
           std::to_string(*group) + " expects " + std::to_string(w[1] * *group);
  *y = {x[0], w[0]};
  if (NumElements(a.kernel) < 0) {  // kernel size unknown at compile time: spatial dims too
    y->resize(x.size(), -1);
    return "";
  }
  std::string err = ResolveWindow(spatial, a, win);
  if (!err.empty()) return err;
  y->insert(y->end(), win->out.begin(), win->out.end());
  return "";
}

// The problem of Conv node `ctx` on X, W, B: "" and `*p` set, or why it cannot run.
std::string ResolveProblem(const gert::ExtendedKernelContext *ctx, const gert::Tensor &x, const gert::Tensor &w,
                           const gert::Tensor *b, ConvProblem *p) {
  p->x = ToDims(x.GetStorageShape());
  p->w = ToDims(w.GetStorageShape());
  std::string err = ConvShape(ctx, p->x, p->w, &p->win, &p->group, &p->y);
  if (!err.empty()) return err;
  if (b != nullptr && (b->GetStorageShape().GetDimNum() != 1 || b->GetStorageShape().GetDim(0) != p->w[0]))
    return "B " + DimsToString(ToDims(b->GetStorageShape())) + " must have shape [" + std::to_string(p->w[0]) +
           "] (one value per output channel)";
  err = dnnl_util::ParsePostOps(AttrStrings(ctx, kPostOps), AttrFloats(ctx, kPostAlpha), AttrFloats(ctx, kPostBeta),
                                &p->post_ops);
  if (!err.empty()) return err;
  const std::string layout = AttrStr(ctx, kLayout, "");
  if (!layout.empty() && layout != "blocked") return "openatc_layout '" + layout + "' is not \"\" or \"blocked\"";
  p->layout.blocked = layout == "blocked";
  p->layout.x_blocked = AttrInt(ctx, kXBlocked, 0) != 0;
  p->layout.y_blocked = AttrInt(ctx, kYBlocked, 0) != 0;
  p->layout.add_blocked = AttrInt(ctx, kAddBlocked, 0) != 0;
  p->layout.weights_id = AttrInt(ctx, kWeightsId, 0);
  p->layout.block = ChainBlock(AttrInt(ctx, kChainBlockWidest, 8));
  p->layout.winograd = AttrInt(ctx, kWinograd, 0) != 0;
  p->layout.add_in_place = AttrInt(ctx, kAddendInPlace, 0) != 0;
  p->nan_share = {AttrInt(ctx, kXBoundId, 0), AttrInt(ctx, kAddendBoundId, 0), AttrInt(ctx, kYBoundId, 0)};
  return "";
}

// A static problem with data-free X: what PackWeights and PrepareNode work on (false: none).
bool StaticProblem(gert::EagerOpExecutionContext *ctx, ConvProblem *p, const gert::Tensor **w, bool *has_bias) {
  const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
  *w = ctx->GetRequiredInputTensor(1);
  const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
  if (x == nullptr || *w == nullptr || !ResolveProblem(ctx, *x, **w, b, p).empty()) return false;
  for (const Dims *d : {&p->x, &p->w, &p->y})
    if (NumElements(*d) <= 0) return false;  // run-time shapes, or empty
  *has_bias = b != nullptr;
  return x->GetDataType() == (*w)->GetDataType();
}

}  // namespace

class Conv : public ge::EagerExecuteOp, public ge::ShapeInferOp, public openatc::WeightPackingOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x) return Fail(ctx, "W's dtype differs from X's");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *w = ctx->GetRequiredInputShape(1);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs X and W are required");
    Window win;
    int64_t group = 1;
    Dims y;
    const std::string err = ConvShape(ctx, ToDims(*x), ToDims(*w), &win, &group, &y);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(y);
    return ge::GRAPH_SUCCESS;
  }

  // W (input 1) in the blocked primitive's layout, for float32 Convs with constant weights.
  ge::graphStatus PackWeights(gert::EagerOpExecutionContext *ctx, openatc::PackedWeightSink &sink) override {
    ConvProblem p;
    const gert::Tensor *w = nullptr;
    bool has_bias = false;
    if (!StaticProblem(ctx, &p, &w, &has_bias) || w->GetDataType() != ge::DT_FLOAT || w->GetAddr() == nullptr)
      return ge::GRAPH_SUCCESS;
    std::string isa, layout;
    std::vector<uint8_t> bytes;
    try {
      if (!PackConvWeights(p, has_bias, w->GetData<float>(), &isa, &layout, &bytes)) return ge::GRAPH_SUCCESS;
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("packing the weights failed in oneDNN: ") + e.what());
    }
    sink.Add(1, isa.c_str(), layout.c_str(), bytes.data(), bytes.size());
    return ge::GRAPH_SUCCESS;
  }

  // The packed bytes depend on oneDNN, its ISA and the thread count (dnnl_packing.h).
  const char *PackingEnvironment() override {
    packing_environment_ = dnnl_util::PackingEnvironment();
    return packing_environment_.c_str();
  }

  ge::graphStatus PrepareNode(gert::EagerOpExecutionContext *ctx, const openatc::PackedWeightView *packed, size_t count,
                              std::shared_ptr<void> *state) override {
    ConvProblem p;
    const gert::Tensor *w = nullptr;
    bool has_bias = false;
    if (!StaticProblem(ctx, &p, &w, &has_bias) || !dnnl_util::IsFloatDtype(w->GetDataType())) return ge::GRAPH_SUCCESS;
    const openatc::PackedWeightView *mine = nullptr;
    for (size_t k = 0; k < count; ++k)
      if (packed[k].input == 1) mine = &packed[k];
    const bool plain_w = w->GetDataType() == ge::DT_FLOAT && w->GetAddr() != nullptr;
    const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
    const bool plain_b = b != nullptr && b->GetDataType() == ge::DT_FLOAT && b->GetAddr() != nullptr;
    try {
      *state = PrepareConv(p, has_bias, w->GetDataType(), plain_w ? w->GetData<float>() : nullptr,
                           plain_b ? b->GetData<float>() : nullptr, mine);
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN convolution failed: ") + e.what());
    }
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *w = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs X and W are required");
    if (const auto *s = static_cast<const ConvPrepared *>(openatc::NodeState(ctx)); s && PreparedMatches(*s, *x, *w, b)) {
      const gert::Tensor *addend = ctx->GetOptionalInputTensor(3);
      if (s->add_index >= 0 && (addend == nullptr || !(ToDims(addend->GetStorageShape()) == s->p.y)))
        return Fail(ctx, "the fused addend (input openatc_addend) must be a tensor of Y's shape " + DimsToString(s->p.y));
      gert::Tensor *y = AllocOutput(ctx, 0, s->p.y, x->GetDataType());
      if (y == nullptr) return ge::GRAPH_FAILED;
      return RunConvEntry(ctx, EntryNow(*s), s->p, *x, *w, b, *y, addend, s->add_index);
    }
    ConvProblem p;
    const std::string err = ResolveProblem(ctx, *x, *w, b, &p);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, p.y, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(p.y) == 0) return ge::GRAPH_SUCCESS;
    if (NumElements(p.x) == 0 || NumElements(p.w) == 0) return Fail(ctx, "X or W is empty but Y is not");
    return RunConvolution(ctx, &cache_, p, *x, *w, b, *y, ctx->GetOptionalInputTensor(3));
  }

 private:
  ConvCache cache_;
  std::string packing_environment_;
};
REG_AUTO_MAPPING_OP(Conv);

}  // namespace openatc_ops
