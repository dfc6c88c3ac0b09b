// DequantizeLinear (ONNX DequantizeLinear-13): y = (x - x_zero_point) * x_scale in float32.
// x uint8, int8 or int32; x_scale float32 and x_zero_point (x's dtype; absent: 0) are scalars
// (per tensor) or 1-D tensors of x's `axis` dim (per axis, default 1). For int32 x the zero point
// must be 0, as the spec says.
#include "common/quant_util.h"

namespace ge {
REG_OP(DequantizeLinear)
    .INPUT(x, TensorType({DT_UINT8, DT_INT8, DT_INT32}))
    .INPUT(x_scale, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(x_zero_point, TensorType({DT_UINT8, DT_INT8, DT_INT32}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(axis, Int, 1)
    .OP_END_FACTORY_REG(DequantizeLinear);
}  // namespace ge

namespace openatc_ops {

class DequantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    int64_t lo = 0, hi = 0;
    if (!QuantRange(x, &lo, &hi)) return Fail(ctx, "x must be uint8, int8 or int32, got " + DtypeName(x));
    if (ctx->GetOptionalInputDesc(2) != nullptr && ctx->GetOptionalInputDataType(2) != x)
      return Fail(ctx, "x_zero_point has dtype " + DtypeName(ctx->GetOptionalInputDataType(2)) + " but x has " +
                           DtypeName(x) + "; give both the same dtype");
    return ctx->SetOutputDataType(0, ge::DT_FLOAT);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input x expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input x is missing");
    const gert::Tensor *st = ctx->GetRequiredInputTensor(1), *zt = ctx->GetOptionalInputTensor(2);
    const Dims d = TensorDims(*x);
    std::vector<float> scale;
    std::vector<int32_t> zp;
    if (!ReadScale(ctx, st, "x_scale", &scale) || !ReadZeroPoint(ctx, zt, "x_zero_point", &zp))
      return ge::GRAPH_FAILED;
    if (zt != nullptr && zt->GetDataType() != x->GetDataType()) return Fail(ctx, "x_zero_point's dtype differs from x's");
    if (x->GetDataType() == ge::DT_INT32)
      for (int32_t z : zp)
        if (z != 0) return Fail(ctx, "x is int32, so x_zero_point must be 0, got " + std::to_string(z));
    int64_t axis = 0, ch = 1;
    if (scale.size() > 1 || zp.size() > 1) {
      const int64_t a = AttrInt(ctx, 0, 1);
      if (!NormalizeAxis(a, static_cast<int64_t>(d.size()), &axis))
        return Fail(ctx, "axis " + std::to_string(a) + " is out of range for x " + DimsToString(d));
      ch = d[static_cast<size_t>(axis)];
    }
    if (!CheckParamCount(ctx, st, "x_scale", ch, "one per element of x's axis") ||
        !CheckParamCount(ctx, zt, "x_zero_point", ch, "one per element of x's axis"))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, d, ge::DT_FLOAT);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const std::vector<int32_t> xv = ReadInt8Like(*x);
    const int64_t inner = ch > 1 ? Prod(d, static_cast<size_t>(axis) + 1, d.size()) : 1;
    float *out = y->GetData<float>();
    for (size_t i = 0; i < xv.size(); ++i) {
      const size_t c = ch > 1 ? static_cast<size_t>((static_cast<int64_t>(i) / inner) % ch) : 0;
      out[i] = (static_cast<float>(xv[i]) - static_cast<float>(zp[zp.size() > 1 ? c : 0])) * scale[scale.size() > 1 ? c : 0];
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(DequantizeLinear);

}  // namespace openatc_ops
