// Cast (ONNX Cast-13/19/21/23/24) between every pair of float32/float16/bfloat16/float64,
// int8..int64, uint8..uint64, bool, float8 E4M3FN/E5M2/E8M0/E4M3FNUZ/E5M2FNUZ (`saturate`,
// `round_mode`) and the packed int4/uint4/float4e2m1 (string is not supported), with the rules of
// ops/common/cast_convert.h: one rounding to nearest even into float types (bfloat16 included;
// NaN stays NaN), truncation toward zero from float to integer types (NaN -> 0, saturating),
// two's complement wrap between integers, x != 0 into bool, 0/1 out of bool.
// Note: ONNX 1.12's test data for FLOAT -> BFLOAT16 was made by truncation (ONNX issue #3876,
// changed to rounding in ONNX 1.13); OpenATC rounds to nearest even as ONNX now specifies.
#include "common/cast_convert.h"
#include "common/movement.h"
#include "openatc/onnx_dtype.h"

namespace ge {
REG_OP(Cast)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .REQUIRED_ATTR(to, Int)
    .ATTR(saturate, Int, 1)         // Cast-19: out-of-range values into float8 clamp to max finite
    .ATTR(round_mode, String, "up")  // Cast-24: rounding into FLOAT8E8M0 (up, down, nearest)
    .OP_END_FACTORY_REG(Cast);
}  // namespace ge

namespace openatc_ops {
namespace {
bool Target(const gert::ExtendedKernelContext *ctx, ge::DataType *to) {
  const int64_t onnx = AttrInt(ctx, 0, 0);
  *to = DtypeFromOnnx(onnx);
  if (*to == ge::DT_UNDEFINED) {
    Fail(ctx, "cannot cast to ONNX dtype " + std::to_string(onnx) +
                  " (supported: numeric types, bool, float16, bfloat16, the float8 types, int4, uint4, "
                  "float4e2m1; not string or complex)");
    return false;
  }
  return true;
}

}  // namespace

class Cast : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType in = ctx->GetInputDataType(0);
    if (!IsOnnxDtype(in) && !openatc::IsNarrowDataType(in)) return Fail(ctx, "cannot cast from " + DtypeName(in));
    ge::DataType to;
    if (!Target(ctx, &to)) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, to);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    ge::DataType to;
    CastOptions opt;
    if (!Target(ctx, &to) || !ReadCastOptions(ctx, 1, 2, &opt)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), to);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (!CastElements(*x, to, y->GetAddr(), opt))
      return Fail(ctx, "cannot cast " + DtypeName(x->GetDataType()) + " to " + DtypeName(to));
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Cast);

}  // namespace openatc_ops
