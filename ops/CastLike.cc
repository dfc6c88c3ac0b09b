// CastLike (ONNX CastLike-15): output = input converted to the dtype of `target_type` (whose
// values and shape are ignored), with Cast's conversion rules (ops/common/cast_convert.h):
// float32/float16/bfloat16/float64, int8..int64, uint8..uint64, bool, the float8 types (E4M3FN,
// E5M2, E8M0, E4M3FNUZ, E5M2FNUZ; `saturate` of CastLike-19, `round_mode` of CastLike-24) and the
// packed int4/uint4/float4e2m1; not string or complex.
#include "common/cast_convert.h"
#include "common/movement.h"
#include "openatc/onnx_dtype.h"

namespace ge {
REG_OP(CastLike)
    .INPUT(input, TensorType::ALL())
    .INPUT(target_type, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(saturate, Int, 1)          // CastLike-19, as Cast's
    .ATTR(round_mode, String, "up")  // CastLike-24, as Cast's
    .OP_END_FACTORY_REG(CastLike);
}  // namespace ge

namespace openatc_ops {

class CastLike : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType in = ctx->GetInputDataType(0), to = ctx->GetInputDataType(1);
    if (!IsOnnxDtype(in) && !openatc::IsNarrowDataType(in)) return Fail(ctx, "cannot cast from " + DtypeName(in));
    if (!IsOnnxDtype(to) && !openatc::IsNarrowDataType(to)) return Fail(ctx, "cannot cast to " + DtypeName(to) + " (the dtype of target_type)");
    return ctx->SetOutputDataType(0, to);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input and target_type expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *like = ctx->GetInputTensor(1);
    if (x == nullptr || like == nullptr) return Fail(ctx, "input and target_type expected");
    const ge::DataType to = like->GetDataType();
    CastOptions opt;
    if (!ReadCastOptions(ctx, 0, 1, &opt)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), to);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (!CastElements(*x, to, y->GetAddr(), opt))
      return Fail(ctx, "cannot cast " + DtypeName(x->GetDataType()) + " to " + DtypeName(to));
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(CastLike);

}  // namespace openatc_ops
