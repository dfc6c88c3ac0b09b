// LayerNormalization (ONNX LayerNormalization-17): normalises X over axes [axis, rank) with
// epsilon, then Y = normalised * Scale + B (Scale and the optional B broadcast to X[axis:]).
// Optional outputs Mean and InvStdDev (float32, X's shape with the normalised axes set to 1).
// Statistics are computed in float (stash_type 1) with double accumulation (8 partial sums).
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

// The sum of f(i) over i < n in double as 8 interleaved partial sums, combined pairwise at the
// end: a fixed order, so the compiler vectorises it without reassociating (a transformer's 64- or
// 768-wide rows: one dependent chain of double adds took ~2.7 ns an element).
template <class F>
double Sum8(int64_t n, F f) {
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] += f(i + k);
  for (int k = 0; i < n; ++i, ++k) acc[k] += f(i);
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

bool Identity(const std::vector<int64_t> &o) {
  for (size_t i = 0; i < o.size(); ++i)
    if (o[i] != static_cast<int64_t>(i)) return false;
  return true;
}
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
    const bool dense = Identity(so) && (!b || Identity(bo));
    for (int64_t o = 0; o < outer; ++o) {
      const float *row = px + o * n;
      const double sum = Sum8(n, [row](int64_t i) { return static_cast<double>(row[i]); });
      const float mean = static_cast<float>(sum / static_cast<double>(n));
      const double sq = Sum8(n, [row, mean](int64_t i) {
        const double d = static_cast<double>(row[i] - mean);
        return d * d;
      });
      const float inv = 1.0f / std::sqrt(static_cast<float>(sq / static_cast<double>(n)) + eps);
      float *yr = py + o * n;
      if (dense && pb)
        for (int64_t i = 0; i < n; ++i) yr[i] = (row[i] - mean) * inv * ps[i] + pb[i];
      else if (dense)
        for (int64_t i = 0; i < n; ++i) yr[i] = (row[i] - mean) * inv * ps[i];
      else
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
