// BatchNormalization (ONNX BatchNormalization-15, inference): Y = (X - mean) / sqrt(var +
// epsilon) * scale + B per channel (axis 1) of X (N, C, ...). training_mode = 1 is refused.
// oneDNN's batch_normalization_forward with global statistics over X viewed as (N, C, rest, 1);
// f32 (float16/double tensors via f32).
#include <cstring>

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
  if (AttrInt(ctx, kTrainingMode, 0) != 0)
    return "training_mode = 1 is not supported (inference only); export the model in eval mode";
  if (ctx->GetComputeNodeOutputNum() > 1)
    return "running_mean/running_var outputs exist only in training mode, which is not supported";
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
    return ctx->SetOutputDataType(0, x);
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
  dnnl_util::PrimitiveCache<BnEntry> cache_;
};
REG_AUTO_MAPPING_OP(BatchNormalization);

}  // namespace openatc_ops
