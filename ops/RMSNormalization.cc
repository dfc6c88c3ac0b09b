// RMSNormalization (ONNX RMSNormalization-23): Y = X / sqrt(mean(X^2 over axes [axis, rank)) +
// epsilon) * scale, scale broadcast to X[axis:]. Float types; statistics in float (stash_type 1)
// with double accumulation; a plain loop. A NaN in a row makes that row NaN.
#include <cmath>

#include "common/dnnl_util.h"
#include "common/norm_axes.h"

namespace ge {
REG_OP(RMSNormalization)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(scale, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(axis, Int, -1)
    .ATTR(epsilon, Float, 1e-5f)
    .ATTR(stash_type, Int, 1)
    .OP_END_FACTORY_REG(RMSNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAxis, kEpsilon, kStashType };
}  // namespace

class RMSNormalization : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *s = ctx->GetRequiredInputShape(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs X and scale are required");
    int64_t axis = 0;
    Dims stats;
    const std::string err = ResolveTrailingNorm(ctx, kAxis, kStashType, ToDims(*x), ToDims(*s), nullptr, &axis, &stats);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *s = ctx->GetRequiredInputTensor(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs X and scale are required");
    const Dims xd = ToDims(x->GetStorageShape()), sd = ToDims(s->GetStorageShape());
    int64_t axis = 0;
    Dims stats;
    const std::string err = ResolveTrailingNorm(ctx, kAxis, kStashType, xd, sd, nullptr, &axis, &stats);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const Dims inner(xd.begin() + axis, xd.end());
    const int64_t n = NumElements(inner), outer = NumElements(Dims(xd.begin(), xd.begin() + axis));
    if (n == 0 || outer == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, ss, sy;
    const float *px = dnnl_util::AsF32(*x, &sx), *ps = dnnl_util::AsF32(*s, &ss);
    if (px == nullptr || ps == nullptr) return Fail(ctx, "X and scale must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const std::vector<int64_t> so = InnerOffsets(sd, inner);
    const float eps = AttrFloat(ctx, kEpsilon, 1e-5f);
    for (int64_t o = 0; o < outer; ++o) {
      const float *row = px + o * n;
      double sq = 0;
      for (int64_t i = 0; i < n; ++i) sq += static_cast<double>(row[i]) * row[i];
      const float inv = 1.0f / std::sqrt(static_cast<float>(sq / static_cast<double>(n)) + eps);
      float *yr = py + o * n;
      for (int64_t i = 0; i < n; ++i) yr[i] = row[i] * inv * ps[so[i]];
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(RMSNormalization);

}  // namespace openatc_ops
