// Conv2D (GE alias of ONNX Conv for GE graphs; GE's nn_calculation_ops.h prototype): 2-D
// convolution of a 4-D input in data_format NCHW or NHWC (GE's default) with a filter whose
// format is its tensor's origin format — NCHW (= OIHW), HWCN (TensorFlow's [kh, kw, in, out]) or
// NHWC (= OHWI); a filter in ND takes OIHW for NCHW data and HWCN for NHWC data.
// Attributes as GE defines them: strides and dilations have 4 entries in data_format order (the
// N and C entries must be 1), pads are [top, bottom, left, right], groups, offset_x (quantization;
// offset_w must be absent). Output y is in data_format: out = (in + pad_a + pad_b -
// dilation * (k - 1) - 1) / stride + 1. float32/float16/double on oneDNN, read in place whatever
// the layouts (ops/common/conv_core.h).
#include "common/conv_core.h"

namespace ge {
REG_OP(Conv2D)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(filter, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(offset_w, TensorType({DT_INT8}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .REQUIRED_ATTR(strides, ListInt)
    .REQUIRED_ATTR(pads, ListInt)
    .ATTR(dilations, ListInt, {1, 1, 1, 1})
    .ATTR(groups, Int, 1)
    .ATTR(data_format, String, "NHWC")
    .ATTR(offset_x, Int, 0)
    .OP_END_FACTORY_REG(Conv2D);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Conv2DAttr { kStrides, kPads, kDilations, kGroups, kDataFormat, kOffsetX };

// Logical order [N, C, H, W] / [O, I, kh, kw] taken from physical axes.
const std::vector<size_t> kFromNchw = {0, 1, 2, 3};
const std::vector<size_t> kFromNhwc = {0, 3, 1, 2};
const std::vector<size_t> kFromHwcn = {3, 2, 0, 1};

// The resolved geometry of one Conv2D node.
struct Conv2DPlan {
  bool nhwc = true;
  std::vector<size_t> filter_perm;
  ConvProblem p;
  Dims y_physical;
};

std::string FilterPerm(ge::Format f, bool nhwc, std::vector<size_t> *perm) {
  switch (f) {
    case ge::FORMAT_NCHW: *perm = kFromNchw; return "";
    case ge::FORMAT_HWCN: *perm = kFromHwcn; return "";
    case ge::FORMAT_NHWC: *perm = kFromNhwc; return "";
    case ge::FORMAT_ND:
    case ge::FORMAT_RESERVED: *perm = nhwc ? kFromHwcn : kFromNchw; return "";
    default:
      return "the filter's format " + std::to_string(static_cast<int>(f)) +
             " is not supported: give it format NCHW, HWCN or NHWC";
  }
}

// Resolves dims `x` (physical, in data_format) and `w` (physical, in filter format `wf`).
std::string Plan(const gert::ExtendedKernelContext *ctx, const Dims &x, const Dims &w, ge::Format wf, Conv2DPlan *out) {
  const std::string fmt = AttrStr(ctx, kDataFormat, "NHWC");
  if (fmt != "NHWC" && fmt != "NCHW") return "data_format '" + fmt + "' is not supported: use NHWC or NCHW";
  out->nhwc = fmt == "NHWC";
  if (x.size() != 4) return "x must be 4-D in " + fmt + "; got " + DimsToString(x);
  if (w.size() != 4) return "filter must be 4-D; got " + DimsToString(w);
  std::string err = FilterPerm(wf, out->nhwc, &out->filter_perm);
  if (!err.empty()) return err;
  const std::vector<size_t> &xperm = out->nhwc ? kFromNhwc : kFromNchw;
  const size_t h = out->nhwc ? 1 : 2, wax = out->nhwc ? 2 : 3, c = out->nhwc ? 3 : 1;
  const Dims strides = AttrInts(ctx, kStrides), pads = AttrInts(ctx, kPads);
  Dims dil = AttrInts(ctx, kDilations);
  if (dil.empty()) dil = {1, 1, 1, 1};
  if (strides.size() != 4) return "strides must have 4 values in " + fmt + " order; got " + DimsToString(strides);
  if (dil.size() != 4) return "dilations must have 4 values in " + fmt + " order; got " + DimsToString(dil);
  if (pads.size() != 4) return "pads must have 4 values [top, bottom, left, right]; got " + DimsToString(pads);
  if (strides[0] != 1 || strides[c] != 1) return "strides " + DimsToString(strides) + " must be 1 on N and C";
  if (dil[0] != 1 || dil[c] != 1) return "dilations " + DimsToString(dil) + " must be 1 on N and C";
  ConvProblem &p = out->p;
  p.x = Permute(x, xperm);
  p.w = Permute(w, out->filter_perm);
  p.group = AttrInt(ctx, kGroups, 1);
  if (p.group < 1) return "groups " + std::to_string(p.group) + " must be >= 1";
  if (p.w[0] >= 0 && p.w[0] % p.group != 0)
    return "the filter's " + std::to_string(p.w[0]) + " output channels are not a multiple of groups " +
           std::to_string(p.group);
  if (p.x[1] >= 0 && p.w[1] >= 0 && p.x[1] != p.w[1] * p.group)
    return "x has " + std::to_string(p.x[1]) + " channels but the filter " + DimsToString(w) + " with groups " +
           std::to_string(p.group) + " expects " + std::to_string(p.w[1] * p.group);
  WindowAttrs a;
  a.kernel = {p.w[2], p.w[3]};
  a.strides = {strides[h], strides[wax]};
  a.dilations = {dil[h], dil[wax]};
  a.pads = {pads[0], pads[2], pads[1], pads[3]};  // ONNX order: begins, then ends
  p.y = {p.x[0], p.w[0], -1, -1};
  if (a.kernel[0] >= 0 && a.kernel[1] >= 0) {
    err = ResolveWindow({p.x[2], p.x[3]}, a, &p.win);
    if (!err.empty()) return err;
    p.y[2] = p.win.out[0];
    p.y[3] = p.win.out[1];
  }
  out->y_physical = out->nhwc ? Dims{p.y[0], p.y[2], p.y[3], p.y[1]} : p.y;
  p.x_strides = Permute(DenseStrides(x), xperm);
  p.w_strides = Permute(DenseStrides(w), out->filter_perm);
  p.y_strides = Permute(DenseStrides(out->y_physical), xperm);
  return "";
}
}  // namespace

class Conv2D : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "x must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x) return Fail(ctx, "the filter's dtype differs from x's");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *w = ctx->GetRequiredInputShape(1);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs x and filter are required");
    if (ctx->GetOptionalInputShape(3) != nullptr)
      return Fail(ctx, "quantized Conv2D (input offset_w) is not supported: dequantize the filter");
    const gert::CompileTimeTensorDesc *wd = ctx->GetInputDesc(1);
    Conv2DPlan plan;
    const std::string err = Plan(ctx, ToDims(*x), ToDims(*w), wd ? wd->GetOriginFormat() : ge::FORMAT_ND, &plan);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(plan.y_physical);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *w = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs x and filter are required");
    if (ctx->GetOptionalInputTensor(3) != nullptr)
      return Fail(ctx, "quantized Conv2D (input offset_w) is not supported: dequantize the filter");
    Conv2DPlan plan;
    const Dims xd = ToDims(x->GetStorageShape()), wd = ToDims(w->GetStorageShape());
    const std::string err = Plan(ctx, xd, wd, w->GetOriginFormat(), &plan);
    if (!err.empty()) return Fail(ctx, err);
    if (b != nullptr && (b->GetStorageShape().GetDimNum() != 1 || b->GetStorageShape().GetDim(0) != plan.p.w[0]))
      return Fail(ctx, "bias " + DimsToString(ToDims(b->GetStorageShape())) + " must have shape [" +
                           std::to_string(plan.p.w[0]) + "] (one value per output channel)");
    gert::Tensor *y = AllocOutput(ctx, 0, plan.y_physical, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(plan.y_physical) == 0) return ge::GRAPH_SUCCESS;
    if (NumElements(xd) == 0 || NumElements(wd) == 0) return Fail(ctx, "x or the filter is empty but y is not");
    return RunConvolution(ctx, &cache_, plan.p, *x, *w, b, *y);
  }

 private:
  ConvCache cache_;
};
REG_AUTO_MAPPING_OP(Conv2D);

}  // namespace openatc_ops
