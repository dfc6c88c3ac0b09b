// QLinearMatMul (ONNX QLinearMatMul-10): Y = saturate(round((a - a_zero_point) x (b - b_zero_point)
// * (a_scale * b_scale / y_scale)) + y_zero_point) with numpy.matmul broadcasting, the product
// accumulated in int32 and round half to even. a/b uint8 or int8; a's scale and zero point are a
// scalar or per row (M values), b's a scalar or per column (N values); y's are scalars and
// y_zero_point's dtype is Y's.
#include "common/quant_util.h"

namespace ge {
REG_OP(QLinearMatMul)
    .INPUT(a, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(a_scale, TensorType({DT_FLOAT}))
    .INPUT(a_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(b, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(b_scale, TensorType({DT_FLOAT}))
    .INPUT(b_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(y_scale, TensorType({DT_FLOAT}))
    .INPUT(y_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OUTPUT(y, TensorType({DT_UINT8, DT_INT8}))
    .OP_END_FACTORY_REG(QLinearMatMul);
}  // namespace ge

namespace openatc_ops {

class QLinearMatMul : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType y = ctx->GetInputDataType(7);
    if (y != ge::DT_UINT8 && y != ge::DT_INT8)
      return Fail(ctx, "y_zero_point must be uint8 or int8, got " + DtypeName(y));
    return ctx->SetOutputDataType(0, y);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetInputShape(0), *b = ctx->GetInputShape(3);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs a and b expected");
    const Dims ad = ToDims(*a), bd = ToDims(*b);
    Dims yd{-2};  // unknown rank in, unknown rank out
    const bool unknown_rank = (ad.size() == 1 && ad[0] == -2) || (bd.size() == 1 && bd[0] == -2);
    const std::string err = unknown_rank ? "" : IntMatMulDims(ad, bd, &yd);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(yd);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<int32_t> a, b, acc, yz;
    Dims ad, bd, yd;
    if (!ShiftedMatMulOperand(ctx, ctx->GetRequiredInputTensor(0), ctx->GetRequiredInputTensor(2), true, &a, &ad) ||
        !ShiftedMatMulOperand(ctx, ctx->GetRequiredInputTensor(3), ctx->GetRequiredInputTensor(5), false, &b, &bd))
      return ge::GRAPH_FAILED;
    std::vector<float> as, bs, ys;
    const gert::Tensor *yzt = ctx->GetRequiredInputTensor(7);
    if (!ReadScale(ctx, ctx->GetRequiredInputTensor(1), "a_scale", &as) ||
        !ReadScale(ctx, ctx->GetRequiredInputTensor(4), "b_scale", &bs) ||
        !ReadScale(ctx, ctx->GetRequiredInputTensor(6), "y_scale", &ys) ||
        !ReadZeroPoint(ctx, yzt, "y_zero_point", &yz))
      return ge::GRAPH_FAILED;
    const int64_t m = ad.size() >= 2 ? ad[ad.size() - 2] : 1, n = bd.size() >= 2 ? bd.back() : 1;
    if (!CheckParamCount(ctx, ctx->GetRequiredInputTensor(1), "a_scale", m, "one per row of a") ||
        !CheckParamCount(ctx, ctx->GetRequiredInputTensor(4), "b_scale", n, "one per column of b") ||
        !CheckParamCount(ctx, ctx->GetRequiredInputTensor(6), "y_scale", 1, "one for y") ||
        !CheckParamCount(ctx, yzt, "y_zero_point", 1, "one for y"))
      return ge::GRAPH_FAILED;
    int64_t lo = 0, hi = 0;
    if (yzt->GetDataType() == ge::DT_INT32 || !QuantRange(yzt->GetDataType(), &lo, &hi))
      return Fail(ctx, "y_zero_point must be uint8 or int8");
    const std::string err = IntMatMul(a, ad, b, bd, &acc, &yd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocChecked(ctx, 0, yd, yzt->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<int64_t> q(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const size_t row = static_cast<size_t>((static_cast<int64_t>(i) / n) % m),
                   col = static_cast<size_t>(static_cast<int64_t>(i) % n);
      const float mult = as[as.size() > 1 ? row : 0] * bs[bs.size() > 1 ? col : 0] / ys[0];  // float32, as the spec
      q[i] = RoundSaturate(static_cast<double>(acc[i]) * mult + yz[0], lo, hi);
    }
    WriteQuantized(q, y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(QLinearMatMul);

}  // namespace openatc_ops
