// SoftmaxCrossEntropyLoss (ONNX SoftmaxCrossEntropyLoss-13): log_prob = LogSoftmax(scores) along
// the class axis 1, then the NegativeLogLikelihoodLoss of log_prob with labels, optional weights,
// ignore_index and reduction (none/sum/mean; see common/class_loss.h). scores (N, C, d1..dk)
// float/float16/double, labels (N, d1..dk) int32/int64, weights (C). Outputs: output (the loss,
// (N, d1..dk) for "none", else a scalar) and the optional log_prob (the scores' shape).
#include <algorithm>
#include <cmath>

#include "common/class_loss.h"
#include "common/math_util.h"

namespace ge {
REG_OP(SoftmaxCrossEntropyLoss)
    .INPUT(scores, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(labels, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(weights, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(log_prob, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(ignore_index, Int, openatc_ops::kNoIgnoreIndex)
    .ATTR(reduction, String, "mean")
    .OP_END_FACTORY_REG(SoftmaxCrossEntropyLoss);
}  // namespace ge

namespace openatc_ops {
namespace {

// logp[n][c][d] = x[n][c][d] - max_c x - log(sum_c exp(x - max)), in double.
template <typename T>
void LogSoftmaxAxis1(const T *x, const LossLayout &L, std::vector<double> *logp) {
  logp->resize(static_cast<size_t>(L.n * L.c * L.d));
  for (int64_t n = 0; n < L.n; ++n) {
    for (int64_t d = 0; d < L.d; ++d) {
      const int64_t base = n * L.c * L.d + d;
      double mx = -INFINITY;
      for (int64_t c = 0; c < L.c; ++c) mx = std::max(mx, static_cast<double>(x[base + c * L.d]));
      double sum = 0.0;
      for (int64_t c = 0; c < L.c; ++c) sum += std::exp(static_cast<double>(x[base + c * L.d]) - mx);
      const double lse = mx + std::log(sum);
      for (int64_t c = 0; c < L.c; ++c)
        (*logp)[static_cast<size_t>(base + c * L.d)] = static_cast<double>(x[base + c * L.d]) - lse;
    }
  }
}

template <typename T>
void Store(const std::vector<double> &v, gert::Tensor *y) {
  T *p = y->GetData<T>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
}

}  // namespace

class SoftmaxCrossEntropyLoss : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType w = ctx->GetOptionalInputDataType(2);
    const ge::DataType x = ctx->GetInputDataType(0);
    const std::string err = CheckLossDtypes(x, ctx->GetInputDataType(1), w == ge::DT_UNDEFINED ? nullptr : &w);
    if (!err.empty()) return Fail(ctx, err);
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum() && i < 2; ++i)
      if (ctx->SetOutputDataType(i, x) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *t = ctx->GetInputShape(1);
    if (x == nullptr || t == nullptr) return Fail(ctx, "inputs scores and labels expected");
    LossReduction r;
    const std::string red = AttrStr(ctx, 1, "mean");
    if (!ParseLossReduction(red, &r)) return Fail(ctx, "reduction '" + red + "' is not one of none, sum, mean");
    const gert::Shape *w = ctx->GetOptionalInputShape(2);
    const Dims wd = w ? ToDims(*w) : Dims{};
    LossLayout layout;
    const std::string err = CheckLossShapes(ToDims(*x), ToDims(*t), w ? &wd : nullptr, &layout);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(LossOutputDims(layout, r));
    if (ctx->GetComputeNodeOutputNum() > 1) *ctx->GetOutputShape(1) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *t = ctx->GetInputTensor(1);
    if (x == nullptr || t == nullptr) return Fail(ctx, "inputs scores and labels expected");
    const gert::Tensor *w = ctx->GetOptionalInputTensor(2);
    LossReduction r;
    const std::string red = AttrStr(ctx, 1, "mean");
    if (!ParseLossReduction(red, &r)) return Fail(ctx, "reduction '" + red + "' is not one of none, sum, mean");
    const Dims xd = ToDims(x->GetStorageShape());
    const Dims wd = w ? ToDims(w->GetStorageShape()) : Dims{};
    LossLayout layout;
    std::string err = CheckLossShapes(xd, ToDims(t->GetStorageShape()), w ? &wd : nullptr, &layout);
    if (!err.empty()) return Fail(ctx, err);
    std::vector<int64_t> labels;
    if (!ReadInts(t, &labels)) return Fail(ctx, "labels must be an int32 or int64 tensor");
    std::vector<double> weight;
    if (w != nullptr && !ReadFloatsAsDouble(w, &weight)) return Fail(ctx, "weights must be a float tensor");
    const ge::DataType dt = x->GetDataType();
    std::vector<double> logp;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(LogSoftmaxAxis1(x->GetData<T>(), layout, &logp))
      default:
        return Fail(ctx, "scores dtype must be float, float16 or double");
    }
    std::vector<double> loss;
    err = NllReduce(logp.data(), labels, w ? &weight : nullptr, layout, AttrInt(ctx, 0, kNoIgnoreIndex), r, &loss);
    if (!err.empty()) return Fail(ctx, "labels: " + err);
    gert::Tensor *y = AllocOutput(ctx, 0, LossOutputDims(layout, r), dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *lp = nullptr;
    if (ctx->GetComputeNodeOutputNum() > 1 && (lp = AllocOutput(ctx, 1, xd, dt)) == nullptr) return ge::GRAPH_FAILED;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(Store<T>(loss, y); if (lp != nullptr) Store<T>(logp, lp))
      default:
        break;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(SoftmaxCrossEntropyLoss);

}  // namespace openatc_ops
