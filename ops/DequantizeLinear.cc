// DequantizeLinear (ONNX DequantizeLinear-10..21): y = (x - x_zero_point) * x_scale, y of x_scale's
// dtype (float32, or float16 since opset 19, computed as numpy does in float16). x uint8, int8,
// uint16, int16 or int32; x_zero_point has x's dtype (absent: 0; for int32 x it must be 0). The
// scale and zero point are one value (per tensor), a 1-D tensor of x's `axis` dim (per axis,
// default 1), or, with block_size > 0 (opset 21), x's shape with ceil(d / block_size) on `axis`.
// Opset 19: x may be float8 E4M3FN or E5M2; x and x_zero_point are then widened exactly to float32
// and y = (x - zero_point) * x_scale in float32 (rounded once to float16 for a float16 scale).
#include "common/cast_convert.h"
#include "common/quant_util.h"

namespace ge {
REG_OP(DequantizeLinear)
    .INPUT(x, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2}))
    .INPUT(x_scale, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OPTIONAL_INPUT(x_zero_point, TensorType({DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_FLOAT8_E4M3FN,
                                           DT_FLOAT8_E5M2}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16}))
    .ATTR(axis, Int, 1)
    .ATTR(block_size, Int, 0)
    .OP_END_FACTORY_REG(DequantizeLinear);
}  // namespace ge

namespace openatc_ops {
namespace {
bool IsFloat8Quant(ge::DataType d) { return d == ge::DT_FLOAT8_E4M3FN || d == ge::DT_FLOAT8_E5M2; }

// x's values (and the zero point's, when present) as float32; float8 x only.
std::vector<float> Float8Values(const gert::Tensor &t) {
  std::vector<float> v(static_cast<size_t>(t.GetShapeSize()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = Float8ToFloat(t.GetDataType(), t.GetData<uint8_t>()[i]);
  return v;
}
}  // namespace

class DequantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0), s = ctx->GetInputDataType(1);
    int64_t lo = 0, hi = 0;
    if (!QuantRange(x, &lo, &hi) && !IsFloat8Quant(x))
      return Fail(ctx, "x must be uint8, int8, uint16, int16, int32, float8e4m3fn or float8e5m2, got " + DtypeName(x));
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
    const Dims d = TensorDims(*x);
    std::vector<float> scale;
    std::vector<int32_t> zp;
    int64_t lo = 0, hi = 0;
    if (IsFloat8Quant(x->GetDataType())) return ExecuteFloat8(ctx, *x, st, zt);
    if (!QuantRange(x->GetDataType(), &lo, &hi)) return Fail(ctx, "unsupported x dtype " + DtypeName(x->GetDataType()));
    if (!ReadScale(ctx, st, "x_scale", &scale) || !ReadZeroPoint(ctx, zt, "x_zero_point", &zp)) return ge::GRAPH_FAILED;
    if (zt != nullptr && zt->GetDataType() != x->GetDataType())
      return Fail(ctx, "x_zero_point's dtype differs from x's");
    if (x->GetDataType() == ge::DT_INT32)
      for (int32_t z : zp)
        if (z != 0) return Fail(ctx, "x is int32, so x_zero_point must be 0, got " + std::to_string(z));
    const int64_t axis = AttrInt(ctx, 0, 1), block = AttrInt(ctx, 1, 0);
    QuantParamMap sm, zm;
    if (!ResolveParamMap(ctx, d, st, "x_scale", axis, block, &sm) ||
        !ResolveParamMap(ctx, d, zt, "x_zero_point", axis, block, &zm))
      return ge::GRAPH_FAILED;
    const bool to_half = st->GetDataType() == ge::DT_FLOAT16;
    gert::Tensor *y = AllocChecked(ctx, 0, d, st->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const std::vector<int32_t> xv = ReadInt8Like(*x);
    for (int64_t i = 0; i < static_cast<int64_t>(xv.size()); ++i) {
      const float diff = static_cast<float>(xv[static_cast<size_t>(i)]) - static_cast<float>(zp[zm.Index(i)]);
      if (to_half)  // both factors rounded to float16 first; their product is exact in float32
        y->GetData<half>()[i] = static_cast<half>(static_cast<float>(static_cast<half>(diff)) * scale[sm.Index(i)]);
      else
        y->GetData<float>()[i] = diff * scale[sm.Index(i)];
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  static ge::graphStatus ExecuteFloat8(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x,
                                       const gert::Tensor *st, const gert::Tensor *zt) {
    const Dims d = TensorDims(x);
    std::vector<float> scale, zp = {0.0f};
    if (!ReadScale(ctx, st, "x_scale", &scale)) return ge::GRAPH_FAILED;
    if (zt != nullptr) {
      if (zt->GetDataType() != x.GetDataType()) return Fail(ctx, "x_zero_point's dtype differs from x's");
      if (zt->GetShapeSize() < 1) return Fail(ctx, "x_zero_point is empty");
      zp = Float8Values(*zt);
    }
    const int64_t axis = AttrInt(ctx, 0, 1), block = AttrInt(ctx, 1, 0);
    QuantParamMap sm, zm;
    if (!ResolveParamMap(ctx, d, st, "x_scale", axis, block, &sm) ||
        !ResolveParamMap(ctx, d, zt, "x_zero_point", axis, block, &zm))
      return ge::GRAPH_FAILED;
    const bool to_half = st->GetDataType() == ge::DT_FLOAT16;
    gert::Tensor *y = AllocChecked(ctx, 0, d, st->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const std::vector<float> xv = Float8Values(x);
    for (int64_t i = 0; i < static_cast<int64_t>(xv.size()); ++i) {
      const float v = (xv[static_cast<size_t>(i)] - zp[zm.Index(i)]) * scale[sm.Index(i)];
      if (to_half) y->GetData<half>()[i] = static_cast<half>(v);
      else y->GetData<float>()[i] = v;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(DequantizeLinear);

}  // namespace openatc_ops
