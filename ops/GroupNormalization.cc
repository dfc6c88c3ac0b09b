// GroupNormalization (ONNX GroupNormalization-18 and -21): X (N, C, spatial...) in `num_groups`
// groups of C / num_groups channels; per (n, group) mean and (biased) variance over the group's
// channels and the spatial axes, Y = scale * (X - mean) / sqrt(var + epsilon) + bias. scale and
// bias are per channel ([C]) since opset 21, per group ([num_groups]) at opset 18. stash_type 1
// (the default, float32 computation) is what OpenATC does: float in, double accumulation.
#include <cmath>

#include "common/dnnl_util.h"

namespace ge {
REG_OP(GroupNormalization)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(scale, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(bias, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(epsilon, Float, 1e-5f)
    .REQUIRED_ATTR(num_groups, Int)
    .ATTR(stash_type, Int, 1)
    .ATTR(onnx_opset, Int, 21)
    .OP_END_FACTORY_REG(GroupNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
// "" when X, scale, bias fit num_groups `g`; `per_channel`: scale/bias are [C] (opset 21).
std::string Check(const Dims &x, const Dims &s, const Dims &b, int64_t g, bool per_channel) {
  if (x.size() < 2) return "X must have rank >= 2 (N, C, spatial...); got " + DimsToString(x);
  if (g <= 0 || (x[1] >= 0 && x[1] % g != 0))
    return "num_groups " + std::to_string(g) + " must be positive and divide C = " + std::to_string(x[1]);
  const int64_t want = per_channel ? x[1] : g;
  for (const Dims *d : {&s, &b})
    if (d->size() != 1 || (want >= 0 && (*d)[0] >= 0 && (*d)[0] != want))
      return std::string(d == &s ? "scale " : "bias ") + DimsToString(*d) + " must have shape [" +
             std::to_string(want) + "] (" + (per_channel ? "C, opset >= 21" : "num_groups, opset 18") + ")";
  return "";
}

int64_t Groups(const gert::ExtendedKernelContext *ctx) { return AttrInt(ctx, 1, 0); }
bool PerChannel(const gert::ExtendedKernelContext *ctx) { return AttrInt(ctx, 3, 21) >= 21; }
}  // namespace

class GroupNormalization : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x || ctx->GetInputDataType(2) != x)
      return Fail(ctx, "scale and bias must have X's dtype");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *s = ctx->GetInputShape(1), *b = ctx->GetInputShape(2);
    if (x == nullptr || s == nullptr || b == nullptr) return Fail(ctx, "inputs X, scale and bias are required");
    const Dims xd = ToDims(*x);
    if (!(xd.size() == 1 && xd[0] == -2)) {
      const std::string err = Check(xd, ToDims(*s), ToDims(*b), Groups(ctx), PerChannel(ctx));
      if (!err.empty()) return Fail(ctx, err);
    }
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1), *b = ctx->GetInputTensor(2);
    if (x == nullptr || s == nullptr || b == nullptr) return Fail(ctx, "inputs X, scale and bias are required");
    const Dims xd = ToDims(x->GetStorageShape());
    const int64_t g = Groups(ctx);
    const bool per_channel = PerChannel(ctx);
    const std::string err = Check(xd, ToDims(s->GetStorageShape()), ToDims(b->GetStorageShape()), g, per_channel);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t c = xd[1], spatial = NumElements(Dims(xd.begin() + 2, xd.end())), per_group = c / g * spatial;
    if (NumElements(xd) == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, ss, sb, sy;
    const float *px = dnnl_util::AsF32(*x, &sx), *ps = dnnl_util::AsF32(*s, &ss), *pb = dnnl_util::AsF32(*b, &sb);
    if (px == nullptr || ps == nullptr || pb == nullptr) return Fail(ctx, "X, scale and bias must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const double eps = AttrFloat(ctx, 0, 1e-5f);
    for (int64_t k = 0; k < xd[0] * g; ++k) {  // one (n, group) block of per_group contiguous values
      const float *in = px + k * per_group;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < per_group; ++i) sum += in[i];
      const double mean = sum / static_cast<double>(per_group);
      for (int64_t i = 0; i < per_group; ++i) sq += (in[i] - mean) * (in[i] - mean);
      const double inv = 1.0 / std::sqrt(sq / static_cast<double>(per_group) + eps);
      for (int64_t i = 0; i < per_group; ++i) {
        const int64_t ch = (k % g) * (c / g) + i / spatial, p = per_channel ? ch : k % g;
        py[k * per_group + i] = static_cast<float>((in[i] - mean) * inv * ps[p] + pb[p]);
      }
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(GroupNormalization);

}  // namespace openatc_ops
