// QLinearConv (ONNX QLinearConv-10): y = saturate(round((Conv(x - x_zero_point, w - w_zero_point)
// + B) * (x_scale * w_scale / y_scale)) + y_zero_point), the convolution accumulated in int32
// (B int32, one per output channel, optional), the rescale multiplier in float32, round half to
// even. x, w, y uint8 or int8; w_scale and w_zero_point are a scalar or one per output channel,
// the others scalars. Conv's attributes; a direct loop (no oneDNN).
#include "common/quant_util.h"

namespace ge {
REG_OP(QLinearConv)
    .INPUT(x, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(x_scale, TensorType({DT_FLOAT}))
    .INPUT(x_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(w, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(w_scale, TensorType({DT_FLOAT}))
    .INPUT(w_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(y_scale, TensorType({DT_FLOAT}))
    .INPUT(y_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OPTIONAL_INPUT(B, TensorType({DT_INT32}))
    .OUTPUT(y, TensorType({DT_UINT8, DT_INT8}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(dilations, ListInt, {})
    .ATTR(group, Int, 1)
    .ATTR(kernel_shape, ListInt, {})
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(QLinearConv);
}  // namespace ge

namespace openatc_ops {

class QLinearConv : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType y = ctx->GetInputDataType(7);
    if (y != ge::DT_UINT8 && y != ge::DT_INT8)
      return Fail(ctx, "y_zero_point must be uint8 or int8, got " + DtypeName(y));
    return ctx->SetOutputDataType(0, y);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return IntConvInferShape(ctx, 0, 3); }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<int32_t> acc, yz;
    Dims yd;
    if (!ShiftedConv(ctx, ctx->GetRequiredInputTensor(0), ctx->GetRequiredInputTensor(2),
                     ctx->GetRequiredInputTensor(3), ctx->GetRequiredInputTensor(5), &acc, &yd))
      return ge::GRAPH_FAILED;
    const int64_t m = yd[1], sp = Prod(yd, 2, yd.size());
    std::vector<float> xs, ws, ys;
    const gert::Tensor *yzt = ctx->GetRequiredInputTensor(7), *bt = ctx->GetOptionalInputTensor(8);
    if (!ReadScale(ctx, ctx->GetRequiredInputTensor(1), "x_scale", &xs) ||
        !ReadScale(ctx, ctx->GetRequiredInputTensor(4), "w_scale", &ws) ||
        !ReadScale(ctx, ctx->GetRequiredInputTensor(6), "y_scale", &ys) ||
        !ReadZeroPoint(ctx, yzt, "y_zero_point", &yz) ||
        !CheckParamCount(ctx, ctx->GetRequiredInputTensor(1), "x_scale", 1, "one for x") ||
        !CheckParamCount(ctx, ctx->GetRequiredInputTensor(4), "w_scale", m, "one per output channel") ||
        !CheckParamCount(ctx, ctx->GetRequiredInputTensor(6), "y_scale", 1, "one for y") ||
        !CheckParamCount(ctx, yzt, "y_zero_point", 1, "one for y"))
      return ge::GRAPH_FAILED;
    if (bt != nullptr && (bt->GetDataType() != ge::DT_INT32 || bt->GetShapeSize() != m))
      return Fail(ctx, "B must be int32 with one value per output channel (" + std::to_string(m) + ")");
    int64_t lo = 0, hi = 0;
    if (yzt->GetDataType() == ge::DT_INT32 || !QuantRange(yzt->GetDataType(), &lo, &hi))
      return Fail(ctx, "y_zero_point must be uint8 or int8");
    gert::Tensor *y = AllocChecked(ctx, 0, yd, yzt->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<int64_t> q(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const size_t c = static_cast<size_t>((static_cast<int64_t>(i) / sp) % m);
      const int64_t a = int64_t{acc[i]} + (bt ? bt->GetData<int32_t>()[c] : 0);
      const float mult = xs[0] * ws[ws.size() > 1 ? c : 0] / ys[0];  // float32, as the spec
      q[i] = RoundSaturate(static_cast<double>(a) * mult + yz[0], lo, hi);
    }
    WriteQuantized(q, y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(QLinearConv);

}  // namespace openatc_ops
