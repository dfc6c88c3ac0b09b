// LRN (ONNX LRN-13): local response normalisation across channels of X (N, C, spatial...):
// Y[c] = X[c] / (bias + alpha / size * sum of X[c']^2 for c' in [c - floor((size-1)/2),
// c + ceil((size-1)/2)] within [0, C-1]) ^ beta. A plain loop in float (any size, odd or even).
#include <cmath>

#include "common/dnnl_util.h"

namespace ge {
REG_OP(LRN)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(alpha, Float, 1e-4f)
    .ATTR(beta, Float, 0.75f)
    .ATTR(bias, Float, 1.0f)
    .REQUIRED_ATTR(size, Int)
    .OP_END_FACTORY_REG(LRN);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAlpha, kBeta, kBias, kSize };

std::string Check(const gert::ExtendedKernelContext *ctx, const Dims &x) {
  if (x.size() < 3) return "X must have rank >= 3 (N, C, spatial...); got " + DimsToString(x);
  const int64_t size = AttrInt(ctx, kSize, 0);
  if (size < 1) return "size " + std::to_string(size) + " must be >= 1";
  return "";
}
}  // namespace

class LRN : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    const std::string err = Check(ctx, ToDims(*x));
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    const Dims xd = ToDims(x->GetStorageShape());
    const std::string err = Check(ctx, xd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(xd) == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, sy;
    const float *px = dnnl_util::AsF32(*x, &sx);
    if (px == nullptr) return Fail(ctx, "X must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const int64_t size = AttrInt(ctx, kSize, 1), c = xd[1], n = NumElements(Dims(xd.begin() + 2, xd.end()));
    const float alpha = AttrFloat(ctx, kAlpha, 1e-4f), beta = AttrFloat(ctx, kBeta, 0.75f),
                bias = AttrFloat(ctx, kBias, 1.0f);
    const int64_t lo = (size - 1) / 2, hi = size / 2;  // floor((size-1)/2), ceil((size-1)/2)
    for (int64_t b = 0; b < xd[0]; ++b) {
      const float *xb = px + b * c * n;
      float *yb = py + b * c * n;
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t i = 0; i < n; ++i) {
          float sq = 0;
          for (int64_t k = std::max<int64_t>(0, ch - lo); k <= std::min<int64_t>(c - 1, ch + hi); ++k)
            sq += xb[k * n + i] * xb[k * n + i];
          yb[ch * n + i] = xb[ch * n + i] / std::pow(bias + alpha / static_cast<float>(size) * sq, beta);
        }
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(LRN);

}  // namespace openatc_ops
