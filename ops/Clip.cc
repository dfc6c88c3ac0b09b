// Clip (ONNX Clip-13): output = min(max(input, min), max) elementwise; `min` and `max` are optional
// scalar inputs of input's dtype (absent: the dtype's lowest / highest value). Float and integer
// types (float16 compared in float). When min > max every element becomes max, as the spec says.
// Clip-1/6 (min/max attributes) reaches this op rewritten into inputs by the ONNX front end.
#include "common/math_util.h"

namespace ge {
REG_OP(Clip)
    .INPUT(input, TensorType::RealNumberType())
    .OPTIONAL_INPUT(min, TensorType::RealNumberType())
    .OPTIONAL_INPUT(max, TensorType::RealNumberType())
    .OUTPUT(output, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Clip);
}  // namespace ge

namespace openatc_ops {
namespace {

template <typename T>
void ClipAll(const gert::Tensor &x, const gert::Tensor *lo_t, const gert::Tensor *hi_t, gert::Tensor &y) {
  using C = ComputeType<T>;  // T itself for integers
  constexpr bool kFloat = !std::is_integral<T>::value;
  const C lo = lo_t ? static_cast<C>(lo_t->GetData<T>()[0])
                    : (kFloat ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest());
  const C hi = hi_t ? static_cast<C>(hi_t->GetData<T>()[0])
                    : (kFloat ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max());
  const int64_t n = x.GetShapeSize();
  const T *p = x.GetData<T>();
  T *q = y.GetData<T>();
  if (lo > hi) {
    for (int64_t i = 0; i < n; ++i) q[i] = static_cast<T>(hi);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const C v = static_cast<C>(p[i]);
    q[i] = static_cast<T>(v < lo ? lo : (v > hi ? hi : v));  // NaN passes through
  }
}

}  // namespace

class Clip : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsNumber(d)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(d)));
    for (size_t ir = 1; ir <= 2; ++ir) {
      if (ctx->GetOptionalInputDesc(ir) == nullptr) continue;
      const ge::DataType b = ctx->GetOptionalInputDataType(ir);
      if (b != d)
        return Fail(ctx, std::string(ir == 1 ? "min" : "max") + " has dtype " + std::to_string(static_cast<int>(b)) +
                             " but input has " + std::to_string(static_cast<int>(d)) + "; give both the same dtype");
    }
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    for (size_t ir = 1; ir <= 2; ++ir) {
      const gert::Shape *s = ctx->GetOptionalInputShape(ir);
      if (s != nullptr && NumElements(ToDims(*s)) > 1)
        return Fail(ctx,
                    std::string(ir == 1 ? "min" : "max") + " must be a scalar, got shape " + DimsToString(ToDims(*s)));
    }
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const gert::Tensor *lo = ctx->GetOptionalInputTensor(1), *hi = ctx->GetOptionalInputTensor(2);
    for (const gert::Tensor *b : {lo, hi}) {
      if (b == nullptr) continue;
      if (b->GetShapeSize() != 1)
        return Fail(ctx, std::string(b == lo ? "min" : "max") + " must hold exactly one value, got shape " +
                             DimsToString(ToDims(b->GetStorageShape())));
      if (b->GetDataType() != x->GetDataType()) return Fail(ctx, "min/max dtype differs from input's");
    }
    gert::Tensor *y = AllocOutput(ctx, 0, ToDims(x->GetStorageShape()), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (x->GetDataType()) {
      OPENATC_OPS_NUMBER_CASES(ClipAll<T>(*x, lo, hi, *y))
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Clip);

}  // namespace openatc_ops
