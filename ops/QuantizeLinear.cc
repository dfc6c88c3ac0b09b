// QuantizeLinear (ONNX QuantizeLinear-13): y = saturate(round(x / y_scale) + y_zero_point) with
// round half to even. x float32 or int32; y_scale float32 and y_zero_point (uint8 or int8; absent:
// 0 and y uint8) are scalars (per tensor) or 1-D tensors of x's `axis` dim (per axis, default 1).
#include "common/quant_util.h"

namespace ge {
REG_OP(QuantizeLinear)
    .INPUT(x, TensorType({DT_FLOAT, DT_INT32}))
    .INPUT(y_scale, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(y_zero_point, TensorType({DT_UINT8, DT_INT8}))
    .OUTPUT(y, TensorType({DT_UINT8, DT_INT8}))
    .ATTR(axis, Int, 1)
    .OP_END_FACTORY_REG(QuantizeLinear);
}  // namespace ge

namespace openatc_ops {

class QuantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (x != ge::DT_FLOAT && x != ge::DT_INT32) return Fail(ctx, "x must be float32 or int32, got " + DtypeName(x));
    ge::DataType y = ge::DT_UINT8;
    if (ctx->GetOptionalInputDesc(2) != nullptr) y = ctx->GetOptionalInputDataType(2);
    if (y != ge::DT_UINT8 && y != ge::DT_INT8) return Fail(ctx, "y_zero_point must be uint8 or int8, got " + DtypeName(y));
    return ctx->SetOutputDataType(0, y);
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
    const gert::Tensor *zt = ctx->GetOptionalInputTensor(2);
    const Dims d = TensorDims(*x);
    std::vector<float> scale;
    std::vector<int32_t> zp;
    if (!ReadScale(ctx, ctx->GetRequiredInputTensor(1), "y_scale", &scale) ||
        !ReadZeroPoint(ctx, zt, "y_zero_point", &zp))
      return ge::GRAPH_FAILED;
    const ge::DataType yt = zt == nullptr ? ge::DT_UINT8 : zt->GetDataType();
    int64_t lo = 0, hi = 0;
    if (yt == ge::DT_INT32 || !QuantRange(yt, &lo, &hi)) return Fail(ctx, "y_zero_point must be uint8 or int8");
    int64_t axis = 0, ch = 1;
    if (scale.size() > 1 || zp.size() > 1) {
      const int64_t a = AttrInt(ctx, 0, 1);
      if (!NormalizeAxis(a, static_cast<int64_t>(d.size()), &axis))
        return Fail(ctx, "axis " + std::to_string(a) + " is out of range for x " + DimsToString(d));
      ch = d[static_cast<size_t>(axis)];
    }
    if (!CheckParamCount(ctx, ctx->GetRequiredInputTensor(1), "y_scale", ch, "one per element of x's axis") ||
        !CheckParamCount(ctx, zt, "y_zero_point", ch, "one per element of x's axis"))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, d, yt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = x->GetShapeSize(), inner = ch > 1 ? Prod(d, static_cast<size_t>(axis) + 1, d.size()) : 1;
    std::vector<int64_t> q(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const size_t c = ch > 1 ? static_cast<size_t>((i / inner) % ch) : 0;
      const float s = scale[scale.size() > 1 ? c : 0];
      const int32_t z = zp[zp.size() > 1 ? c : 0];
      // float32 x / float32 scale in float32, as the spec's arithmetic; int32 x in double
      const double v = x->GetDataType() == ge::DT_FLOAT ? static_cast<double>(x->GetData<float>()[i] / s)
                                                        : x->GetData<int32_t>()[i] / static_cast<double>(s);
      q[static_cast<size_t>(i)] = RoundSaturate(std::nearbyint(v) + z, lo, hi);
    }
    WriteQuantized(q, y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(QuantizeLinear);

}  // namespace openatc_ops
