// LpPool (ONNX LpPool-2/11/18): y = (sum over the window of |x|^p)^(1/p) over sliding windows of X
// (N, C, spatial...), with kernel_shape, strides, pads or auto_pad, and (opset 18) dilations and
// ceil_mode; p defaults to 2. Padding adds nothing to the sum. ops/common/plain_pool.h's loop in
// double (float16 and float rounded once).

#include "common/plain_pool.h"
#include "common/pool_window.h"

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

constexpr PoolAttrs kAttrs{kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStrides, /*max_rank=*/0};

std::string PError(const gert::ExtendedKernelContext *ctx) {
  const int64_t p = AttrInt(ctx, kP, 2);
  return p < 1 ? "p must be >= 1 (got " + std::to_string(p) + ")" : "";
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

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return InferPoolShape(ctx, kAttrs, PError(ctx)); }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Window w;
    Dims yd;
    const Dims xd = ToDims(x->GetStorageShape());
    const std::string err = ResolvePoolWindow(ctx, kAttrs, xd, &w, &yd, PError(ctx));
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
