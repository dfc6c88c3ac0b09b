// Identity (ONNX Identity-16, tensor inputs only): the output is a copy of the input.
#include "common/movement.h"

namespace ge {
REG_OP(Identity)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .OP_END_FACTORY_REG(Identity);
}  // namespace ge

namespace openatc_ops {

class Identity : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    return Input0AsOutput0(ctx, TensorDims(*x));
  }
};
REG_AUTO_MAPPING_OP(Identity);

}  // namespace openatc_ops
