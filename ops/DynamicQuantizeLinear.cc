// DynamicQuantizeLinear (ONNX DynamicQuantizeLinear-11): quantizes float32 x to uint8 with a scale
// and zero point computed from x: the range [min(0, min x), max(0, max x)] maps onto [0, 255],
// y_scale = (max - min) / 255 (1/255 when the range is empty, as the reference does),
// y_zero_point = round(saturate(0 - min / y_scale)), y = saturate(round(x / y_scale) + zp), all
// rounding half to even and the arithmetic in float32. An empty x gives y_scale 1/255 and zp 0.
#include <algorithm>

#include "common/quant_util.h"

namespace ge {
REG_OP(DynamicQuantizeLinear)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_UINT8}))
    .OUTPUT(y_scale, TensorType({DT_FLOAT}))
    .OUTPUT(y_zero_point, TensorType({DT_UINT8}))
    .OP_END_FACTORY_REG(DynamicQuantizeLinear);
}  // namespace ge

namespace openatc_ops {

class DynamicQuantizeLinear : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ctx->GetInputDataType(0) != ge::DT_FLOAT)
      return Fail(ctx, "x must be float32, got " + DtypeName(ctx->GetInputDataType(0)));
    if (ctx->SetOutputDataType(0, ge::DT_UINT8) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (ctx->SetOutputDataType(1, ge::DT_FLOAT) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(2, ge::DT_UINT8);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input x expected");
    *ctx->GetOutputShape(0) = *x;
    *ctx->GetOutputShape(1) = ToShape({});
    *ctx->GetOutputShape(2) = ToShape({});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr || x->GetDataType() != ge::DT_FLOAT) return Fail(ctx, "input x (float32) is missing");
    const Dims d = TensorDims(*x);
    const int64_t n = x->GetShapeSize();
    const float *p = x->GetData<float>();
    float lo = 0.0f, hi = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
      if (std::isnan(p[i])) return Fail(ctx, "x holds NaN at element " + std::to_string(i) + "; no range to quantize");
      lo = std::min(lo, p[i]);
      hi = std::max(hi, p[i]);
    }
    const float scale = (hi == lo ? 1.0f : hi - lo) / 255.0f;
    const float zf = 0.0f - lo / scale;
    const int64_t zp = RoundSaturate(zf, 0, 255);
    gert::Tensor *y = AllocChecked(ctx, 0, d, ge::DT_UINT8);
    gert::Tensor *ys = y ? AllocChecked(ctx, 1, {}, ge::DT_FLOAT) : nullptr;
    gert::Tensor *yz = ys ? AllocChecked(ctx, 2, {}, ge::DT_UINT8) : nullptr;
    if (yz == nullptr) return ge::GRAPH_FAILED;
    uint8_t *q = y->GetData<uint8_t>();
    for (int64_t i = 0; i < n; ++i)
      q[i] = static_cast<uint8_t>(RoundSaturate(std::nearbyint(p[i] / scale) + static_cast<double>(zp), 0, 255));
    ys->GetData<float>()[0] = scale;
    yz->GetData<uint8_t>()[0] = static_cast<uint8_t>(zp);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(DynamicQuantizeLinear);

}  // namespace openatc_ops
