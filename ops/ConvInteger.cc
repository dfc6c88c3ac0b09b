// ConvInteger (ONNX ConvInteger-10): y = Conv(x - x_zero_point, w - w_zero_point) accumulated in
// int32, with Conv's attributes (auto_pad, dilations, group, kernel_shape, pads, strides; 1-D to
// 3-D). x and w uint8 or int8; x_zero_point is a scalar, w_zero_point a scalar or one per output
// channel; absent zero points are 0. A direct loop (no oneDNN).
#include "common/quant_util.h"

namespace ge {
REG_OP(ConvInteger)
    .INPUT(x, TensorType({DT_UINT8, DT_INT8}))
    .INPUT(w, TensorType({DT_UINT8, DT_INT8}))
    .OPTIONAL_INPUT(x_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OPTIONAL_INPUT(w_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OUTPUT(y, TensorType({DT_INT32}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(dilations, ListInt, {})
    .ATTR(group, Int, 1)
    .ATTR(kernel_shape, ListInt, {})
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(ConvInteger);
}  // namespace ge

namespace openatc_ops {

class ConvInteger : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ge::DT_INT32);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return IntConvInferShape(ctx, 0, 1); }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<int32_t> acc;
    Dims yd;
    if (!ShiftedConv(ctx, ctx->GetRequiredInputTensor(0), ctx->GetOptionalInputTensor(2),
                     ctx->GetRequiredInputTensor(1), ctx->GetOptionalInputTensor(3), &acc, &yd))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, yd, ge::DT_INT32);
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::copy(acc.begin(), acc.end(), y->GetData<int32_t>());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(ConvInteger);

}  // namespace openatc_ops
