// BatchNormalization (ONNX BatchNormalization-15): Y = (X - mean) / sqrt(var + epsilon) * scale + B
// per channel (axis 1) of X (N, C, ...). Inference (training_mode 0): mean and var are the inputs;
// oneDNN's batch_normalization_forward with global statistics over X viewed as (N, C, rest, 1);
// f32 (float16/double tensors via f32). training_mode = 1 (ONNX's operator spec): mean and var are
// X's own per-channel mean and population (biased) variance, and the optional outputs
// running_mean / running_var = input * momentum + current * (1 - momentum); computed in double.
#include <cmath>
#include <cstring>
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

struct BnEntry {
  dnnl::batch_normalization_forward prim;
  dnnl::memory::desc data, stat;
};

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
    // 4-D so oneDNN's jit nchw kernels apply (its 3-D case falls back to the reference kernel).
    const Dims view = {d[0][0], d[0][1], NumElements(Dims(d[0].begin() + 2, d[0].end())), 1};
    try {
      const int threads = dnnl_util::ApplyThreadCount();
      uint32_t eps_bits;
      std::memcpy(&eps_bits, &eps, 4);
      dnnl_util::Key key;
      key.Add("x", view).Add("e", static_cast<int64_t>(eps_bits)).Add("t", threads);
      auto entry = cache_.Get(key, [&] {
        BnEntry e;
        e.data = dnnl_util::PlainF32(view);
        e.stat = dnnl_util::PlainF32({view[1]});
        const auto flags = dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
                           dnnl::normalization_flags::use_shift;
        dnnl::batch_normalization_forward::desc bd(dnnl::prop_kind::forward_inference, e.data, eps, flags);
        e.prim = dnnl::batch_normalization_forward(
            dnnl::batch_normalization_forward::primitive_desc(bd, dnnl_util::Engine()));
        return e;
      });
      std::vector<float> s[5], sy;
      const float *p[5];
      for (int i = 0; i < 5; ++i) {
        p[i] = dnnl_util::AsF32(*t[i], &s[i]);
        if (p[i] == nullptr) return Fail(ctx, "inputs must be float tensors with data");
      }
      float *py = dnnl_util::OutF32(*y, &sy);
      dnnl_util::Run(entry->prim, {{DNNL_ARG_SRC, dnnl_util::Wrap(entry->data, p[0])},
                                   {DNNL_ARG_SCALE, dnnl_util::Wrap(entry->stat, p[1])},
                                   {DNNL_ARG_SHIFT, dnnl_util::Wrap(entry->stat, p[2])},
                                   {DNNL_ARG_MEAN, dnnl_util::Wrap(entry->stat, p[3])},
                                   {DNNL_ARG_VARIANCE, dnnl_util::Wrap(entry->stat, p[4])},
                                   {DNNL_ARG_DST, dnnl_util::Wrap(entry->data, py)}});
      dnnl_util::StoreF32(sy, *y);
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN batch normalization failed: ") + e.what());
    }
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

  dnnl_util::PrimitiveCache<BnEntry> cache_;
};
REG_AUTO_MAPPING_OP(BatchNormalization);

}  // namespace openatc_ops
