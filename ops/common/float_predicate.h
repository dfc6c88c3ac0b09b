/**
 * @file ops/common/float_predicate.h
 * Base class for elementwise float -> bool tests (ONNX IsNaN-13, IsInf-10): the input is float,
 * double or float16, the output a bool tensor (one byte 0/1) of the input's shape. Derived provides
 *   static bool Test(const gert::ExtendedKernelContext *ctx, double v);
 * called once per element (float16 and float values are widened exactly to double).
 */
#ifndef OPENATC_OPS_COMMON_FLOAT_PREDICATE_H_
#define OPENATC_OPS_COMMON_FLOAT_PREDICATE_H_

#include "common/elementwise.h"

namespace openatc_ops {

template <typename Derived>
class FloatPredicateOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0);
    if (!IsFloat(a)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(a)) + " (float types only)");
    return ctx->SetOutputDataType(0, ge::DT_BOOL);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    gert::Tensor *y = AllocOutput(ctx, 0, ToDims(x->GetStorageShape()), ge::DT_BOOL);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = x->GetShapeSize();
    uint8_t *q = static_cast<uint8_t *>(y->GetAddr());
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(const T *p = x->GetData<T>();
                              for (int64_t i = 0; i < n; ++i) q[i] = Derived::Test(ctx, static_cast<double>(p[i])) ? 1 : 0)
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_FLOAT_PREDICATE_H_
