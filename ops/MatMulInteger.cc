// MatMulInteger (ONNX MatMulInteger-10): Y = numpy.matmul(A - a_zero_point, B - b_zero_point) in
// int32. A and B uint8 or int8; a_zero_point (A's dtype) is a scalar or per row of A (M values),
// b_zero_point (B's dtype) a scalar or per column of B (N values); absent zero points are 0.
#include "common/quant_util.h"

namespace ge {
REG_OP(MatMulInteger)
    .INPUT(A, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(B, TensorType({DT_UINT8, DT_INT8}))
    .OPTIONAL_INPUT(a_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OPTIONAL_INPUT(b_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OUTPUT(Y, TensorType({DT_INT32}))
    .OP_END_FACTORY_REG(MatMulInteger);
}  // namespace ge

namespace openatc_ops {

class MatMulInteger : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ge::DT_INT32);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetInputShape(0), *b = ctx->GetInputShape(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs A and B expected");
    const Dims ad = ToDims(*a), bd = ToDims(*b);
    Dims yd{-2};  // unknown rank in, unknown rank out
    const bool unknown_rank = (ad.size() == 1 && ad[0] == -2) || (bd.size() == 1 && bd[0] == -2);
    const std::string err = unknown_rank ? "" : IntMatMulDims(ad, bd, &yd);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(yd);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<int32_t> a, b, y;
    Dims ad, bd, yd;
    if (!ShiftedMatMulOperand(ctx, ctx->GetRequiredInputTensor(0), ctx->GetOptionalInputTensor(2), true, &a, &ad) ||
        !ShiftedMatMulOperand(ctx, ctx->GetRequiredInputTensor(1), ctx->GetOptionalInputTensor(3), false, &b, &bd))
      return ge::GRAPH_FAILED;
    const std::string err = IntMatMul(a, ad, b, bd, &y, &yd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *out = AllocChecked(ctx, 0, yd, ge::DT_INT32);
    if (out == nullptr) return ge::GRAPH_FAILED;
    std::copy(y.begin(), y.end(), out->GetData<int32_t>());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(MatMulInteger);

}  // namespace openatc_ops
