// BatchNormalization (ONNX BatchNormalization-15): Y = (X - mean) / sqrt(var + epsilon) * scale + B
// per channel (axis 1) of X (N, C, ...). Inference (training_mode 0): mean and var are the inputs;
// one pass over X in float32 (float16/double tensors via f32), in the formula's order of
// operations (oneDNN 2.6's plain-layout ncsp kernel took ~2 ns an element: light_densenet121's
// 93 unfolded BatchNormalizations 20 ms a run; atc folds the ones that follow a Conv). training_mode = 1 (ONNX's operator spec): mean and var are
// X's own per-channel mean and population (biased) variance, and the optional outputs
// running_mean / running_var = input * momentum + current * (1 - momentum); computed in double.
// openatc_chain_layout = 1 (atc's LayoutPlanningPass, inference only): a float32 X [N, C, H, W] and
// Y in the chain layout of openatc_chain_block (ops/common/conv_layout.h); same formula.
// openatc_post_ops / openatc_post_alpha / openatc_post_beta (atc's ConvActivationFusionPass,
// inference only): activations applied to each result in order (ops/common/dnnl_post_ops.h;
// no binary_add).
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/conv_layout.h"
#include "common/dnnl_post_ops.h"
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
    .ATTR(openatc_chain_layout, Int, 0)
    .ATTR(openatc_chain_block, Int, 8)
    .ATTR(openatc_post_ops, ListString, {})
    .ATTR(openatc_post_alpha, ListFloat, {})
    .ATTR(openatc_post_beta, ListFloat, {})
    .OP_END_FACTORY_REG(BatchNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kEpsilon, kMomentum, kTrainingMode, kChain, kChainBlock, kPostOps, kPostAlpha, kPostBeta };

// The inference formula of one channel, then the fused activations: kRelu, the one post-op
// Relu(0) (light_densenet121's BatchNormalization -> Relu), in line; else each in order.
struct Affine {
  const std::vector<dnnl_util::PostOpSpec> *post = nullptr;
  template <bool kRelu>
  float Apply(float x, float mean, float den, float scale, float bias) const {
    float v = (x - mean) / den * scale + bias;
    if constexpr (kRelu) {
      return v < 0.0f ? 0.0f : v;  // NaN stays NaN
    } else {
      for (const auto &op : *post) v = dnnl_util::ApplyPostOp(op, v, 0.0f);
      return v;
    }
  }
};

// Y of plain X (N, C, inner...) per channel.
template <bool kRelu>
void PlainBn(const Affine &f, const float *x, const float *mean, const float *den, const float *scale,
             const float *bias, int64_t n, int64_t c, int64_t inner, float *y) {
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t b = 0; b < n; ++b) {
      const float *xr = x + (b * c + ch) * inner;
      float *yr = y + (b * c + ch) * inner;
      for (int64_t k = 0; k < inner; ++k) yr[k] = f.Apply<kRelu>(xr[k], mean[ch], den[ch], scale[ch], bias[ch]);
    }
}

// Y of X in the chain layout of block `b` ([N, C/b, H, W, b]); the per-channel values are indexed
// by the block's lane.
template <int64_t b, bool kRelu>
void ChainBn(const Affine &f, const float *x, const float *mean, const float *den, const float *scale,
             const float *bias, const Dims &d, float *y) {
  const int64_t blocks = d[1] / b, hw = d[2] * d[3];
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t cb = 0; cb < blocks; ++cb) {
      const float *m = mean + cb * b, *dn = den + cb * b, *s = scale + cb * b, *t = bias + cb * b;
      const int64_t base = (n * blocks + cb) * hw * b;
      for (int64_t p = 0; p < hw; ++p)
        for (int64_t k = 0; k < b; ++k) {
          const int64_t o = base + p * b + k;
          y[o] = f.Apply<kRelu>(x[o], m[k], dn[k], s[k], t[k]);
        }
    }
}

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
    std::vector<dnnl_util::PostOpSpec> post;
    const std::string bad = dnnl_util::ParsePostOps(AttrStrings(ctx, kPostOps), AttrFloats(ctx, kPostAlpha),
                                                    AttrFloats(ctx, kPostBeta), &post);
    if (!bad.empty()) return Fail(ctx, bad);
    if (dnnl_util::BinaryAddIndex(post) >= 0) return Fail(ctx, "openatc_post_ops: binary_add is not applied here");
    const bool relu = post.size() == 1 && post[0].alg == "eltwise_relu" && post[0].alpha == 0.0f;
    const Affine f{&post};
    std::vector<float> den(static_cast<size_t>(c));
    for (int64_t ch = 0; ch < c; ++ch) den[static_cast<size_t>(ch)] = std::sqrt(p[4][ch] + eps);
    if (const int64_t block = NodeChainBlock(ctx, kChain, kChainBlock); block > 0) {
      if (t[0]->GetDataType() != ge::DT_FLOAT || d[0].size() != 4 || c % block != 0)
        return Fail(ctx, "openatc_chain_layout needs a 4-D float32 X whose channel count is a multiple of " +
                             std::to_string(block) + "; X is " + DimsToString(d[0]));
      auto run = [&](auto chain) {
        constexpr int64_t kB = decltype(chain)::value;
        if (relu)
          ChainBn<kB, true>(f, p[0], p[3], den.data(), p[1], p[2], d[0], py);
        else
          ChainBn<kB, false>(f, p[0], p[3], den.data(), p[1], p[2], d[0], py);
      };
      if (block == 16)
        run(std::integral_constant<int64_t, 16>{});
      else
        run(std::integral_constant<int64_t, 8>{});
      return ge::GRAPH_SUCCESS;
    }
    if (relu)
      PlainBn<true>(f, p[0], p[3], den.data(), p[1], p[2], n, c, inner, py);
    else
      PlainBn<false>(f, p[0], p[3], den.data(), p[1], p[2], n, c, inner, py);
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
