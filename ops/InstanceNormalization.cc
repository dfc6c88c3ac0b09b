// InstanceNormalization (ONNX InstanceNormalization-6): for each (n, c) of X (N, C, spatial...),
// Y = scale[c] * (X - mean) / sqrt(var + epsilon) + B[c], mean and (biased) variance over the
// spatial axes. A plain loop in float with double accumulation.
#include <cmath>

#include "common/dnnl_util.h"

namespace ge {
REG_OP(InstanceNormalization)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(scale, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(epsilon, Float, 1e-5f)
    .OP_END_FACTORY_REG(InstanceNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
std::string Check(const Dims &x, const Dims &s, const Dims &b) {
  if (x.size() < 3) return "input must have rank >= 3 (N, C, spatial...); got " + DimsToString(x);
  if (s.size() != 1 || (x[1] >= 0 && s[0] >= 0 && s[0] != x[1]))
    return "scale " + DimsToString(s) + " must have shape [C] = [" + std::to_string(x[1]) + "]";
  if (b.size() != 1 || (x[1] >= 0 && b[0] >= 0 && b[0] != x[1]))
    return "B " + DimsToString(b) + " must have shape [C] = [" + std::to_string(x[1]) + "]";
  return "";
}
}  // namespace

class InstanceNormalization : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "input must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x || ctx->GetInputDataType(2) != x)
      return Fail(ctx, "scale and B must have the input's dtype");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *s = ctx->GetInputShape(1), *b = ctx->GetInputShape(2);
    if (x == nullptr || s == nullptr || b == nullptr) return Fail(ctx, "inputs input, scale and B are required");
    const std::string err = Check(ToDims(*x), ToDims(*s), ToDims(*b));
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1), *b = ctx->GetInputTensor(2);
    if (x == nullptr || s == nullptr || b == nullptr) return Fail(ctx, "inputs input, scale and B are required");
    const Dims xd = ToDims(x->GetStorageShape());
    const std::string err = Check(xd, ToDims(s->GetStorageShape()), ToDims(b->GetStorageShape()));
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = NumElements(Dims(xd.begin() + 2, xd.end())), c = xd[1], nc = xd[0] * xd[1];
    if (n == 0 || nc == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, ss, sb, sy;
    const float *px = dnnl_util::AsF32(*x, &sx), *ps = dnnl_util::AsF32(*s, &ss), *pb = dnnl_util::AsF32(*b, &sb);
    if (px == nullptr || ps == nullptr || pb == nullptr) return Fail(ctx, "input, scale and B must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const float eps = AttrFloat(ctx, 0, 1e-5f);
    for (int64_t k = 0; k < nc; ++k) {
      const float *row = px + k * n;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < n; ++i) sum += row[i];
      const double mean = sum / static_cast<double>(n);
      for (int64_t i = 0; i < n; ++i) sq += (row[i] - mean) * (row[i] - mean);
      const double inv = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
      const double sc = ps[k % c], sh = pb[k % c];
      for (int64_t i = 0; i < n; ++i) py[k * n + i] = static_cast<float>((row[i] - mean) * inv * sc + sh);
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(InstanceNormalization);

}  // namespace openatc_ops
