// BatchNormalization (ONNX BatchNormalization-15): Y = (X - mean) / sqrt(var + epsilon) * scale + B
// per channel (axis 1) of X (N, C, ...). Inference (training_mode 0): mean and var are the inputs;
// one pass over X in float32 (float16/double tensors via f32), in the formula's order of
// operations (oneDNN 2.6's plain-layout ncsp kernel took ~2 ns an element: light_densenet121's
// 93 unfolded BatchNormalizations 20 ms a run; atc folds the ones that follow a Conv). training_mode = 1 (ONNX's operator spec): mean and var are
// X's own per-channel mean and population (biased) variance, and the optional outputs
// running_mean / running_var = input * momentum + current * (1 - momentum); computed in double.
#include <cmath>
#include <vector>

#include "common/dnnl_util.h"

namespace ge {
REG_OP(BatchNormalization)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(scale, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(input_mean, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(input_var, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(running_mean, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(running_var, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(epsilon, Float, 1e-5f)
    .ATTR(momentum, Float, 0.9f)
    .ATTR(training_mode, Int, 0)
    .OP_END_FACTORY_REG(BatchNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kEpsilon, kMomentum, kTrainingMode };

std::string Check(const gert::ExtendedKernelContext *ctx, const Dims &x, const Dims *params[4]) {
  if (AttrInt(ctx, kTrainingMode, 0) == 0 && ctx->GetComputeNodeOutputNum() > 1)
    return "running_mean/running_var outputs exist only with training_mode = 1";
  if (x.size() < 2) return "X must have rank >= 2 (N, C, ...); got " + DimsToString(x);
  static const char *kNames[4] = {"scale", "B", "input_mean", "input_var"};
  for (int i = 0; i < 4; ++i) {
    const Dims &p = *params[i];
    if (p.size() != 1 || (x[1] >= 0 && p[0] >= 0 && p[0] != x[1]))
      return std::string(kNames[i]) + " " + DimsToString(p) + " must have shape [C] = [" + std::to_string(x[1]) + "]";
  }
  return "";
}
}  // namespace

class BatchNormalization : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    for (size_t i = 1; i < 5; ++i)
      if (!dnnl_util::IsFloatDtype(ctx->GetInputDataType(i)))
        return Fail(ctx, "scale, B, input_mean and input_var must be float32, float16 or double");
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i) {
      const ge::graphStatus st = ctx->SetOutputDataType(i, i == 0 ? x : ctx->GetInputDataType(3));
      if (st != ge::GRAPH_SUCCESS) return st;
    }
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    Dims d[5];
    for (size_t i = 0; i < 5; ++i) {
      const gert::Shape *s = ctx->GetInputShape(i);
      if (s == nullptr) return Fail(ctx, "inputs X, scale, B, input_mean and input_var are required");
      d[i] = ToDims(*s);
    }
    const Dims *params[4] = {&d[1], &d[2], &d[3], &d[4]};
    const std::string err = Check(ctx, d[0], params);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(d[0]);
    for (size_t i = 1; i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = ToShape(d[3]);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *t[5];
    Dims d[5];
    for (size_t i = 0; i < 5; ++i) {
      t[i] = ctx->GetInputTensor(i);
      if (t[i] == nullptr) return Fail(ctx, "inputs X, scale, B, input_mean and input_var are required");
      d[i] = ToDims(t[i]->GetStorageShape());
    }
    const Dims *params[4] = {&d[1], &d[2], &d[3], &d[4]};
    const std::string err = Check(ctx, d[0], params);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, d[0], t[0]->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (AttrInt(ctx, kTrainingMode, 0) != 0) return ExecuteTraining(ctx, t, d[0], *y);
    if (NumElements(d[0]) == 0) return ge::GRAPH_SUCCESS;
    const float eps = AttrFloat(ctx, kEpsilon, 1e-5f);
    std::vector<float> s[5], sy;
    const float *p[5];
    for (int i = 0; i < 5; ++i) {
      p[i] = dnnl_util::AsF32(*t[i], &s[i]);
      if (p[i] == nullptr) return Fail(ctx, "inputs must be float tensors with data");
    }
    float *py = dnnl_util::OutF32(*y, &sy);
    const int64_t n = d[0][0], c = d[0][1], inner = NumElements(Dims(d[0].begin() + 2, d[0].end()));
    for (int64_t ch = 0; ch < c; ++ch) {
      const float mean = p[3][ch], den = std::sqrt(p[4][ch] + eps), scale = p[1][ch], bias = p[2][ch];
      for (int64_t b = 0; b < n; ++b) {
        const float *xr = p[0] + (b * c + ch) * inner;
        float *yr = py + (b * c + ch) * inner;
        for (int64_t k = 0; k < inner; ++k) yr[k] = (xr[k] - mean) / den * scale + bias;
      }
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }

 private:
  // training_mode = 1: per-channel statistics of X (double sums), Y and the running outputs.
  static ge::graphStatus ExecuteTraining(gert::EagerOpExecutionContext *ctx, const gert::Tensor *const t[5],
                                         const Dims &x, gert::Tensor &y) {
    const int64_t n = x[0], c = x[1], inner = NumElements(Dims(x.begin() + 2, x.end()));
    std::vector<float> s[5], sy;
    const float *p[5];
    for (int i = 0; i < 5; ++i) {
      p[i] = dnnl_util::AsF32(*t[i], &s[i]);
      if (p[i] == nullptr && NumElements(ToDims(t[i]->GetStorageShape())) > 0)
        return Fail(ctx, "inputs must be float tensors with data");
    }
    float *py = dnnl_util::OutF32(y, &sy);
    const double eps = AttrFloat(ctx, kEpsilon, 1e-5f), momentum = AttrFloat(ctx, kMomentum, 0.9f);
    const double count = static_cast<double>(n * inner);
    std::vector<double> mean(static_cast<size_t>(c), 0.0), var(static_cast<size_t>(c), 0.0);
    for (int64_t ch = 0; ch < c; ++ch) {
      double sum = 0, sq = 0;
      for (int64_t b = 0; b < n; ++b) {
        const float *row = p[0] + (b * c + ch) * inner;
        for (int64_t k = 0; k < inner; ++k) sum += row[k];
      }
      const double m = count > 0 ? sum / count : 0.0;
      for (int64_t b = 0; b < n; ++b) {
        const float *row = p[0] + (b * c + ch) * inner;
        for (int64_t k = 0; k < inner; ++k) sq += (row[k] - m) * (row[k] - m);
      }
      mean[static_cast<size_t>(ch)] = m;
      var[static_cast<size_t>(ch)] = count > 0 ? sq / count : 0.0;
      const double inv = 1.0 / std::sqrt(var[static_cast<size_t>(ch)] + eps);
      for (int64_t b = 0; b < n; ++b) {
        const int64_t at = (b * c + ch) * inner;
        for (int64_t k = 0; k < inner; ++k)
          py[at + k] = static_cast<float>((p[0][at + k] - m) * inv * p[1][ch] + p[2][ch]);
      }
    }
    dnnl_util::StoreF32(sy, y);
    for (size_t o = 1; o < 3 && o < ctx->GetComputeNodeOutputNum(); ++o) {
      gert::Tensor *r = AllocOutput(ctx, o, {c}, t[3]->GetDataType());
      if (r == nullptr) return ge::GRAPH_FAILED;
      std::vector<float> sr;
      float *pr = dnnl_util::OutF32(*r, &sr);
      const std::vector<double> &cur = o == 1 ? mean : var;
      const float *in = p[o == 1 ? 3 : 4];
      for (int64_t ch = 0; ch < c; ++ch)
        pr[ch] = static_cast<float>(in[ch] * momentum + cur[static_cast<size_t>(ch)] * (1.0 - momentum));
      dnnl_util::StoreF32(sr, *r);
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(BatchNormalization);

}  // namespace openatc_ops
