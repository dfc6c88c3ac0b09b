// Size (ONNX Size-13): the input's element count as an int64 scalar.
#include "common/movement.h"

namespace ge {
REG_OP(Size)
    .INPUT(data, TensorType::ALL())
    .OUTPUT(size, TensorType({DT_INT64}))
    .OP_END_FACTORY_REG(Size);
}  // namespace ge

namespace openatc_ops {

class Size : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return ctx->SetOutputDataType(0, ge::DT_INT64); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = ToShape({});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    gert::Tensor *y = AllocChecked(ctx, 0, {}, ge::DT_INT64);
    if (y == nullptr) return ge::GRAPH_FAILED;
    *y->GetData<int64_t>() = x->GetShapeSize();
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Size);

}  // namespace openatc_ops
