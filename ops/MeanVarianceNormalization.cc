// MeanVarianceNormalization (ONNX MeanVarianceNormalization-13): Y = (X - mean) / (std + 1e-9)
// where mean and the (population) variance are taken over `axes` (default [0, 2, 3]; an
// explicit empty list means every axis, as the ReduceMean of ONNX's function body reads it).
// ONNX's body computes variance as E[X^2] - E[X]^2; here it is E[(X - mean)^2] in double (the
// same value, without cancellation). Float, double and float16 (computed in double, rounded once).
#include "common/reduce.h"

namespace ge {
REG_OP(MeanVarianceNormalization)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(axes, ListInt, {0, 2, 3})
    .OP_END_FACTORY_REG(MeanVarianceNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {

template <typename T>
void Normalize(const ReducePlan &plan, const gert::Tensor &x, gert::Tensor &y) {
  const T *p = x.GetData<T>();
  T *q = y.GetData<T>();
  const size_t groups = static_cast<size_t>(NumElements(plan.out));
  std::vector<double> mean(groups, 0.0), var(groups, 0.0);
  const std::vector<int64_t> strides[1] = {plan.out_strides};
  const double count = static_cast<double>(plan.count);
  StridedWalk<1>(plan.in, strides, [&](int64_t i, const int64_t *off) { mean[static_cast<size_t>(off[0])] += static_cast<double>(p[i]); });
  for (double &m : mean) m /= count;
  StridedWalk<1>(plan.in, strides, [&](int64_t i, const int64_t *off) {
    const double d = static_cast<double>(p[i]) - mean[static_cast<size_t>(off[0])];
    var[static_cast<size_t>(off[0])] += d * d;
  });
  for (double &v : var) v = std::sqrt(v / count) + 1e-9;
  StridedWalk<1>(plan.in, strides, [&](int64_t i, const int64_t *off) {
    const size_t g = static_cast<size_t>(off[0]);
    q[i] = static_cast<T>((static_cast<double>(p[i]) - mean[g]) / var[g]);
  });
}

}  // namespace

class MeanVarianceNormalization : public UnaryElementwiseOp<MeanVarianceNormalization> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  // Output = input shape; checks the axes against the rank when the rank is known.
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = ToDims(*x);
    Dims out;
    std::string error;
    if (!(in.size() == 1 && in[0] == -2) && !InferReduceDims(in, true, AttrInts(ctx, 0), 0, true, false, &out, &error))
      return Fail(ctx, error);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    ReducePlan plan;
    std::string error;
    if (!MakeReducePlan(ToDims(x.GetStorageShape()), AttrInts(ctx, 0), true, false, &plan, &error))
      return Fail(ctx, error);
    if (plan.count == 0) return ge::GRAPH_SUCCESS;  // no elements at all
    switch (x.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Normalize<T>(plan, x, y))
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(MeanVarianceNormalization);

}  // namespace openatc_ops
