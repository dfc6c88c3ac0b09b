// ScatterElements (ONNX ScatterElements-18): a copy of `data` with `updates` written (reduction
// "none"), added ("add"), multiplied ("mul") or combined by max/min (opset 18) at the positions `indices` gives along `axis`;
// see common/scatter_elements.h for shapes, dtypes and errors.
#include "common/scatter_elements.h"

namespace ge {
REG_OP(ScatterElements)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT32, DT_INT64}))
    .INPUT(updates, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, 0)
    .ATTR(reduction, String, "none")
    .OP_END_FACTORY_REG(ScatterElements);
}  // namespace ge

namespace openatc_ops {

class ScatterElements : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return ScatterElementsDtype(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    Reduction r;
    if (!ParseReduction(ctx, AttrStr(ctx, 1, "none"), &r)) return ge::GRAPH_FAILED;
    return ScatterElementsShape(ctx, AttrInt(ctx, 0, 0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    Reduction r;
    if (!ParseReduction(ctx, AttrStr(ctx, 1, "none"), &r)) return ge::GRAPH_FAILED;
    return ScatterElementsRun(ctx, AttrInt(ctx, 0, 0), r);
  }
};
REG_AUTO_MAPPING_OP(ScatterElements);

}  // namespace openatc_ops
