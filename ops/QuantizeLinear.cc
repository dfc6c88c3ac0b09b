// QuantizeLinear (ONNX QuantizeLinear-10..23): y = saturate(round(x / y_scale) + y_zero_point)
// with round half to even. x float32, float16 or int32; y_scale float32 or float16 (the division
// runs in y_scale's precision; int32 x in double). y_scale and y_zero_point are one value (per
// tensor), a 1-D tensor of x's `axis` dim (per axis, default axis 1), or, with block_size > 0
// (opset 21), x's shape with ceil(d / block_size) on `axis` (blocked). y is y_zero_point's dtype
// (uint8, int8, uint16, int16, and the packed int4 [-8, 7] / uint4 [0, 15] of opset 21), else
// `output_dtype` (opset 21), else uint8. Float outputs (float8 E4M3FN/E5M2 of opset 19 and their
// FNUZ variants, float4e2m1 of opset 23): y = x / y_scale + zero point in float32, then one
// rounding to nearest even into the type with `saturate` (default 1; float4e2m1 always
// saturates; ops/common/cast_convert.h). Element types: ops/common/quant_narrow.h.
#include "common/quant_narrow.h"
#include "common/quant_util.h"
#include "openatc/private_dtype.h"

namespace ge {
REG_OP(QuantizeLinear)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .INPUT(y_scale, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OPTIONAL_INPUT(y_zero_point, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT4, DT_FLOAT8_E4M3FN,
                                           DT_FLOAT8_E5M2, DT_FLOAT4_E2M1, openatc::kDtUint4,
                                           openatc::kDtFloat8E4M3FNUZ, openatc::kDtFloat8E5M2FNUZ}))
    .OUTPUT(y, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT4, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2,
                           DT_FLOAT4_E2M1, openatc::kDtUint4, openatc::kDtFloat8E4M3FNUZ,
                           openatc::kDtFloat8E5M2FNUZ}))
    .ATTR(axis, Int, 1)
    .ATTR(block_size, Int, 0)
    .ATTR(output_dtype, Int, 0)
    .ATTR(saturate, Int, 1)
    .OP_END_FACTORY_REG(QuantizeLinear);
}  // namespace ge

namespace openatc_ops {
namespace {
enum QuantizeAttr { kAxis, kBlockSize, kOutputDtype, kSaturate };

// y's dtype from the zero point's (DT_UNDEFINED when absent) and output_dtype; "" or the reason.
std::string OutputDtype(const gert::ExtendedKernelContext *ctx, ge::DataType zp, ge::DataType *y) {
  const int64_t od = AttrInt(ctx, kOutputDtype, 0);
  const ge::DataType want = od == 0 ? ge::DT_UNDEFINED : DtypeFromOnnx(od);
  if (zp != ge::DT_UNDEFINED && want != ge::DT_UNDEFINED && want != zp)
    return "output_dtype " + std::to_string(od) + " differs from y_zero_point's dtype " + DtypeName(zp);
  *y = zp != ge::DT_UNDEFINED ? zp : (want != ge::DT_UNDEFINED ? want : ge::DT_UINT8);
  QuantType q;
  if (*y == ge::DT_INT32 || !QuantTypeOf(*y, &q))
    return "output type " + DtypeName(*y) + " is not supported; use uint8, int8, uint16, int16, int4, uint4, "
           "float4e2m1 or a float8 type (e4m3fn, e5m2, e4m3fnuz, e5m2fnuz)";
  return "";
}

// x[i] / s in the scale's precision (float16 quotients rounded to float16, as numpy does).
double Quotient(const gert::Tensor &x, int64_t i, float s, bool half_scale) {
  switch (x.GetDataType()) {
    case ge::DT_INT32: return x.GetData<int32_t>()[i] / static_cast<double>(s);
    case ge::DT_FLOAT16: {
      const float q = static_cast<float>(x.GetData<half>()[i]) / s;
      return half_scale ? static_cast<double>(static_cast<half>(q)) : q;
    }
    default: {
      const float q = x.GetData<float>()[i] / s;
      return half_scale ? static_cast<double>(static_cast<half>(q)) : q;
    }
  }
}
}  // namespace

class QuantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (x != ge::DT_FLOAT && x != ge::DT_FLOAT16 && x != ge::DT_INT32)
      return Fail(ctx, "x must be float32, float16 or int32, got " + DtypeName(x));
    ge::DataType zp = ge::DT_UNDEFINED, y = ge::DT_UINT8;
    if (ctx->GetOptionalInputDesc(2) != nullptr) zp = ctx->GetOptionalInputDataType(2);
    const std::string err = OutputDtype(ctx, zp, &y);
    if (!err.empty()) return Fail(ctx, err);
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
    const gert::Tensor *st = ctx->GetRequiredInputTensor(1), *zt = ctx->GetOptionalInputTensor(2);
    ge::DataType yt = ge::DT_UINT8;
    const std::string err = OutputDtype(ctx, zt ? zt->GetDataType() : ge::DT_UNDEFINED, &yt);
    if (!err.empty()) return Fail(ctx, err);
    QuantType q;
    QuantTypeOf(yt, &q);
    std::vector<float> scale;
    std::vector<double> zp;
    if (!ReadScale(ctx, st, "y_scale", &scale) || !ReadQuantZeroPoint(ctx, zt, "y_zero_point", yt, &zp))
      return ge::GRAPH_FAILED;
    QuantMaps m;
    if (!ResolveQuantMaps(ctx, *x, st, "y_scale", zt, "y_zero_point", AttrInt(ctx, kAxis, 1),
                          AttrInt(ctx, kBlockSize, 0), yt, &m))
      return ge::GRAPH_FAILED;
    ZeroPacked(m.y);
    const bool half_scale = st->GetDataType() == ge::DT_FLOAT16;
    const bool saturate = AttrInt(ctx, kSaturate, 1) != 0;
    for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
      const double v = Quotient(*x, i, scale[m.scale.Index(i)], half_scale);
      const double z = zp[m.zero_point.Index(i)];
      if (q.is_float)
        StoreQuantized(m.y, i, static_cast<float>(v + z), saturate);
      else
        StoreQuantized(m.y, i, static_cast<double>(RoundSaturate(std::nearbyint(v) + z, q.lo, q.hi)), saturate);
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(QuantizeLinear);

}  // namespace openatc_ops
