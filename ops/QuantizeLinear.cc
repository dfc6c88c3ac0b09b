// QuantizeLinear (ONNX QuantizeLinear-10..21): y = saturate(round(x / y_scale) + y_zero_point)
// with round half to even. x float32, float16 or int32; y_scale float32 or float16 (the division
// runs in y_scale's precision; int32 x in double). y_scale and y_zero_point are one value (per
// tensor), a 1-D tensor of x's `axis` dim (per axis, default axis 1), or, with block_size > 0
// (opset 21), x's shape with ceil(d / block_size) on `axis` (blocked). y is y_zero_point's dtype
// (uint8, int8, uint16 or int16), else `output_dtype` (opset 21), else uint8. Opset 19's float8
// outputs E4M3FN and E5M2: y = x / y_scale + zero point in float32, then one rounding to nearest
// even into float8 with `saturate` (default 1; ops/common/cast_convert.h). The FNUZ and 4-bit
// outputs are refused.
#include "common/cast_convert.h"
#include "common/quant_util.h"

namespace ge {
REG_OP(QuantizeLinear)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .INPUT(y_scale, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OPTIONAL_INPUT(y_zero_point, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2}))
    .OUTPUT(y, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2}))
    .ATTR(axis, Int, 1)
    .ATTR(block_size, Int, 0)
    .ATTR(output_dtype, Int, 0)
    .ATTR(saturate, Int, 1)
    .OP_END_FACTORY_REG(QuantizeLinear);
}  // namespace ge

namespace openatc_ops {
namespace {
enum QuantizeAttr { kAxis, kBlockSize, kOutputDtype, kSaturate };

bool IsFloat8Quant(ge::DataType d) { return d == ge::DT_FLOAT8_E4M3FN || d == ge::DT_FLOAT8_E5M2; }

// y's dtype from the zero point's (DT_UNDEFINED when absent) and output_dtype; "" or the reason.
std::string OutputDtype(const gert::ExtendedKernelContext *ctx, ge::DataType zp, ge::DataType *y) {
  const int64_t od = AttrInt(ctx, kOutputDtype, 0);
  const ge::DataType want = od == 0 ? ge::DT_UNDEFINED : DtypeFromOnnx(od);
  if (zp != ge::DT_UNDEFINED && want != ge::DT_UNDEFINED && want != zp)
    return "output_dtype " + std::to_string(od) + " differs from y_zero_point's dtype " + DtypeName(zp);
  *y = zp != ge::DT_UNDEFINED ? zp : (want != ge::DT_UNDEFINED ? want : ge::DT_UINT8);
  int64_t lo = 0, hi = 0;
  if (IsFloat8Quant(*y)) return "";
  if (*y == ge::DT_INT32 || !QuantRange(*y, &lo, &hi))
    return "output type " + DtypeName(*y) + " is not supported; use uint8, int8, uint16, int16, float8e4m3fn or "
           "float8e5m2";
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
    const Dims d = TensorDims(*x);
    std::vector<float> scale;
    std::vector<int32_t> zp;
    ge::DataType yt = ge::DT_UINT8;
    const std::string err = OutputDtype(ctx, zt ? zt->GetDataType() : ge::DT_UNDEFINED, &yt);
    if (!err.empty()) return Fail(ctx, err);
    if (IsFloat8Quant(yt)) return ExecuteFloat8(ctx, *x, st, zt, yt);
    if (!ReadScale(ctx, st, "y_scale", &scale) || !ReadZeroPoint(ctx, zt, "y_zero_point", &zp)) return ge::GRAPH_FAILED;
    int64_t lo = 0, hi = 0;
    QuantRange(yt, &lo, &hi);
    const int64_t axis = AttrInt(ctx, kAxis, 1), block = AttrInt(ctx, kBlockSize, 0);
    QuantParamMap sm, zm;
    if (!ResolveParamMap(ctx, d, st, "y_scale", axis, block, &sm) ||
        !ResolveParamMap(ctx, d, zt, "y_zero_point", axis, block, &zm))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, d, yt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool half_scale = st->GetDataType() == ge::DT_FLOAT16;
    std::vector<int64_t> q(static_cast<size_t>(x->GetShapeSize()));
    for (int64_t i = 0; i < static_cast<int64_t>(q.size()); ++i) {
      const double v = Quotient(*x, i, scale[sm.Index(i)], half_scale);
      q[static_cast<size_t>(i)] = RoundSaturate(std::nearbyint(v) + zp[zm.Index(i)], lo, hi);
    }
    WriteQuantized(q, y);
    return ge::GRAPH_SUCCESS;
  }

 private:
  static ge::graphStatus ExecuteFloat8(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x,
                                       const gert::Tensor *st, const gert::Tensor *zt, ge::DataType yt) {
    const Dims d = TensorDims(x);
    std::vector<float> scale, zp = {0.0f};
    if (!ReadScale(ctx, st, "y_scale", &scale)) return ge::GRAPH_FAILED;
    if (zt != nullptr) {
      if (zt->GetShapeSize() < 1) return Fail(ctx, "y_zero_point is empty");
      zp.assign(static_cast<size_t>(zt->GetShapeSize()), 0.0f);
      for (size_t i = 0; i < zp.size(); ++i) zp[i] = Float8ToFloat(yt, zt->GetData<uint8_t>()[i]);
    }
    const int64_t axis = AttrInt(ctx, kAxis, 1), block = AttrInt(ctx, kBlockSize, 0);
    QuantParamMap sm, zm;
    if (!ResolveParamMap(ctx, d, st, "y_scale", axis, block, &sm) ||
        !ResolveParamMap(ctx, d, zt, "y_zero_point", axis, block, &zm))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, d, yt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool half_scale = st->GetDataType() == ge::DT_FLOAT16;
    const CastOptions opt{AttrInt(ctx, kSaturate, 1) != 0};
    for (int64_t i = 0; i < x.GetShapeSize(); ++i) {
      const double v = Quotient(x, i, scale[sm.Index(i)], half_scale) + zp[zm.Index(i)];
      y->GetData<uint8_t>()[i] = FloatToFloat8(static_cast<float>(v), yt, opt);
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(QuantizeLinear);

}  // namespace openatc_ops
