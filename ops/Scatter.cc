// Scatter (ONNX Scatter-9/11, deprecated since opset 11 in favour of ScatterElements): a copy of
// `data` with `updates` written at the positions `indices` gives along `axis`; exactly
// ScatterElements with reduction "none" (common/scatter_elements.h).
#include "common/scatter_elements.h"

namespace ge {
REG_OP(Scatter)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT32, DT_INT64}))
    .INPUT(updates, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, 0)
    .OP_END_FACTORY_REG(Scatter);
}  // namespace ge

namespace openatc_ops {

class Scatter : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return ScatterElementsDtype(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    return ScatterElementsShape(ctx, AttrInt(ctx, 0, 0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    return ScatterElementsRun(ctx, AttrInt(ctx, 0, 0), Reduction::kNone);
  }
};
REG_AUTO_MAPPING_OP(Scatter);

}  // namespace openatc_ops
