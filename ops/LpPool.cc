// LpPool (ONNX LpPool-2/11/18): y = (sum over the window of |x|^p)^(1/p) over sliding windows of X
// (N, C, spatial...), with kernel_shape, strides, pads or auto_pad, and (opset 18) dilations and
// ceil_mode; p defaults to 2. Padding adds nothing to the sum. ops/common/plain_pool.h's loop in
// double (float16 and float rounded once).

#include "common/plain_pool.h"

namespace ge {
REG_OP(LpPool)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(ceil_mode, Int, 0)
    .ATTR(dilations, ListInt, {})
    .REQUIRED_ATTR(kernel_shape, ListInt)
    .ATTR(p, Int, 2)
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(LpPool);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAutoPad, kCeilMode, kDilations, kKernelShape, kP, kPads, kStrides };

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &x, Window *w, Dims *y) {
  if (x.size() < 3) return "X must have rank >= 3 (N, C, spatial...); got " + DimsToString(x);
  if (AttrInt(ctx, kP, 2) < 1) return "p must be >= 1 (got " + std::to_string(AttrInt(ctx, kP, 2)) + ")";
  WindowAttrs a;
  a.kernel = AttrInts(ctx, kKernelShape);
  a.strides = AttrInts(ctx, kStrides);
  a.dilations = AttrInts(ctx, kDilations);
  a.pads = AttrInts(ctx, kPads);
  a.auto_pad = AttrStr(ctx, kAutoPad, "NOTSET");
  a.ceil_mode = AttrInt(ctx, kCeilMode, 0) != 0;
  const std::string err = ResolveWindow(Dims(x.begin() + 2, x.end()), a, w);
  if (!err.empty()) return err;
  *y = {x[0], x[1]};
  y->insert(y->end(), w->out.begin(), w->out.end());
  return "";
}

}  // namespace

class LpPool : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (x != ge::DT_FLOAT && x != ge::DT_FLOAT16 && x != ge::DT_DOUBLE)
      return Fail(ctx, "X must be float32, float16 or double");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Window w;
    Dims y;
    const std::string err = Resolve(ctx, ToDims(*x), &w, &y);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(y);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Window w;
    Dims yd;
    const Dims xd = ToDims(x->GetStorageShape());
    const std::string err = Resolve(ctx, xd, &w, &yd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, yd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
    PlainPoolKind kind;
    kind.p = static_cast<double>(AttrInt(ctx, kP, 2));
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(PlainPool<T>(x->GetData<T>(), y->GetData<T>(), xd, w, {}, kind))
      default:
        return Fail(ctx, "X must be float32, float16 or double");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(LpPool);

}  // namespace openatc_ops
