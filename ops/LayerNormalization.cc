// LayerNormalization (ONNX LayerNormalization-17): normalises X over axes [axis, rank) with
// epsilon, then Y = normalised * Scale + B (Scale and the optional B broadcast to X[axis:]).
// Optional outputs Mean and InvStdDev (float32, X's shape with the normalised axes set to 1).
// Statistics are computed in float (stash_type 1) with double accumulation; a plain loop.
#include <cmath>

#include "common/dnnl_util.h"
#include "common/norm_axes.h"

namespace ge {
REG_OP(LayerNormalization)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(Scale, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Mean, TensorType({DT_FLOAT}))
    .OUTPUT(InvStdDev, TensorType({DT_FLOAT}))
    .ATTR(axis, Int, -1)
    .ATTR(epsilon, Float, 1e-5f)
    .ATTR(stash_type, Int, 1)
    .OP_END_FACTORY_REG(LayerNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAxis, kEpsilon, kStashType };
}  // namespace

class LayerNormalization : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    ge::graphStatus st = ctx->SetOutputDataType(0, x);
    for (size_t i = 1; i < ctx->GetComputeNodeOutputNum() && st == ge::GRAPH_SUCCESS; ++i)
      st = ctx->SetOutputDataType(i, ge::DT_FLOAT);
    return st;
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *s = ctx->GetRequiredInputShape(1);
    const gert::Shape *b = ctx->GetOptionalInputShape(2);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs X and Scale are required");
    int64_t axis = 0;
    Dims stats;
    const Dims bd = b ? ToDims(*b) : Dims{};
    const std::string err =
        ResolveTrailingNorm(ctx, kAxis, kStashType, ToDims(*x), ToDims(*s), b ? &bd : nullptr, &axis, &stats);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    for (size_t i = 1; i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = ToShape(stats);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *s = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs X and Scale are required");
    const Dims xd = ToDims(x->GetStorageShape()), sd = ToDims(s->GetStorageShape());
    const Dims bd = b ? ToDims(b->GetStorageShape()) : Dims{};
    int64_t axis = 0;
    Dims stats;
    const std::string err = ResolveTrailingNorm(ctx, kAxis, kStashType, xd, sd, b ? &bd : nullptr, &axis, &stats);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *out_stats[2] = {nullptr, nullptr};
    for (size_t i = 1; i < 3 && i < ctx->GetComputeNodeOutputNum(); ++i) {
      out_stats[i - 1] = AllocOutput(ctx, i, stats, ge::DT_FLOAT);
      if (out_stats[i - 1] == nullptr) return ge::GRAPH_FAILED;
    }
    const Dims inner(xd.begin() + axis, xd.end());
    const int64_t n = NumElements(inner), outer = NumElements(Dims(xd.begin(), xd.begin() + axis));
    if (n == 0 || outer == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, ss, sb, sy;
    const float *px = dnnl_util::AsF32(*x, &sx), *ps = dnnl_util::AsF32(*s, &ss);
    const float *pb = b ? dnnl_util::AsF32(*b, &sb) : nullptr;
    if (px == nullptr || ps == nullptr || (b && pb == nullptr)) return Fail(ctx, "X, Scale and B must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const std::vector<int64_t> so = InnerOffsets(sd, inner), bo = b ? InnerOffsets(bd, inner) : std::vector<int64_t>{};
    const float eps = AttrFloat(ctx, kEpsilon, 1e-5f);
    for (int64_t o = 0; o < outer; ++o) {
      const float *row = px + o * n;
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += row[i];
      const float mean = static_cast<float>(sum / static_cast<double>(n));
      double sq = 0;
      for (int64_t i = 0; i < n; ++i) sq += static_cast<double>(row[i] - mean) * (row[i] - mean);
      const float inv = 1.0f / std::sqrt(static_cast<float>(sq / static_cast<double>(n)) + eps);
      float *yr = py + o * n;
      for (int64_t i = 0; i < n; ++i) yr[i] = (row[i] - mean) * inv * ps[so[i]] + (pb ? pb[bo[i]] : 0.0f);
      if (out_stats[0]) out_stats[0]->GetData<float>()[o] = mean;
      if (out_stats[1]) out_stats[1]->GetData<float>()[o] = inv;
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(LayerNormalization);

}  // namespace openatc_ops
