// DequantizeLinear (ONNX DequantizeLinear-10..23): y = (x - x_zero_point) * x_scale, y of x_scale's
// dtype (float32, or float16 since opset 19, computed as numpy does in float16). x uint8, int8,
// uint16, int16, int32, or the packed int4 / uint4 of opset 21; x_zero_point has x's dtype (absent:
// 0; for int32 x it must be 0). The scale and zero point are one value (per tensor), a 1-D tensor
// of x's `axis` dim (per axis, default 1), or, with block_size > 0 (opset 21), x's shape with
// ceil(d / block_size) on `axis`. Float x (float8 E4M3FN/E5M2 of opset 19 and their FNUZ variants,
// float4e2m1 of opset 23): x and x_zero_point are widened exactly to float32 and y = (x -
// zero_point) * x_scale in float32 (rounded once to float16 for a float16 scale). Element types:
// ops/common/quant_narrow.h.
#include "common/quant_narrow.h"
#include "common/quant_util.h"
#include "openatc/private_dtype.h"

namespace ge {
REG_OP(DequantizeLinear)
    .INPUT(x, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_INT4, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2,
                          DT_FLOAT4_E2M1, openatc::kDtUint4, openatc::kDtFloat8E4M3FNUZ,
                          openatc::kDtFloat8E5M2FNUZ}))
    .INPUT(x_scale, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OPTIONAL_INPUT(x_zero_point, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_INT4,
                                           DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2, DT_FLOAT4_E2M1, openatc::kDtUint4,
                                           openatc::kDtFloat8E4M3FNUZ, openatc::kDtFloat8E5M2FNUZ}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16}))
    .ATTR(axis, Int, 1)
    .ATTR(block_size, Int, 0)
    .OP_END_FACTORY_REG(DequantizeLinear);
}  // namespace ge

namespace openatc_ops {

class DequantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0), s = ctx->GetInputDataType(1);
    QuantType q;
    if (!QuantTypeOf(x, &q))
      return Fail(ctx, "x must be uint8, int8, uint16, int16, int32, int4, uint4, float4e2m1 or a float8 type "
                       "(e4m3fn, e5m2, e4m3fnuz, e5m2fnuz), got " + DtypeName(x));
    if (s != ge::DT_FLOAT && s != ge::DT_FLOAT16)
      return Fail(ctx, "x_scale must be float32 or float16, got " + DtypeName(s));
    if (ctx->GetOptionalInputDesc(2) != nullptr && ctx->GetOptionalInputDataType(2) != x)
      return Fail(ctx, "x_zero_point has dtype " + DtypeName(ctx->GetOptionalInputDataType(2)) + " but x has " +
                           DtypeName(x) + "; give both the same dtype");
    return ctx->SetOutputDataType(0, s);
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
    const ge::DataType xt = x->GetDataType();
    QuantType q;
    if (!QuantTypeOf(xt, &q)) return Fail(ctx, "unsupported x dtype " + DtypeName(xt));
    std::vector<float> scale;
    std::vector<double> zp;
    if (!ReadScale(ctx, st, "x_scale", &scale) || !ReadQuantZeroPoint(ctx, zt, "x_zero_point", xt, &zp))
      return ge::GRAPH_FAILED;
    if (xt == ge::DT_INT32)
      for (double z : zp)
        if (z != 0) return Fail(ctx, "x is int32, so x_zero_point must be 0, got " + std::to_string(static_cast<int64_t>(z)));
    QuantMaps m;
    if (!ResolveQuantMaps(ctx, *x, st, "x_scale", zt, "x_zero_point", AttrInt(ctx, 0, 1), AttrInt(ctx, 1, 0),
                          st->GetDataType(), &m))
      return ge::GRAPH_FAILED;
    const bool to_half = st->GetDataType() == ge::DT_FLOAT16;
    const std::vector<double> xv = QuantValues(*x);
    for (int64_t i = 0; i < static_cast<int64_t>(xv.size()); ++i) {
      const float xi = static_cast<float>(xv[static_cast<size_t>(i)]);
      const float diff = xi - static_cast<float>(zp[m.zero_point.Index(i)]);
      const float s = scale[m.scale.Index(i)];
      if (to_half)  // integers: both factors rounded to float16 first (their product is exact in float32)
        m.y->GetData<half>()[i] =
            q.is_float ? static_cast<half>(diff * s) : static_cast<half>(static_cast<float>(static_cast<half>(diff)) * s);
      else
        m.y->GetData<float>()[i] = diff * s;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(DequantizeLinear);

}  // namespace openatc_ops
