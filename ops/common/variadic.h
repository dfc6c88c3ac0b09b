/**
 * @file ops/common/variadic.h
 * Base of the variadic elementwise ONNX ops (Sum, Max, Min, Mean; "data_0" is one DYNAMIC_INPUT
 * of 1..n tensors of one dtype, multidirectionally broadcast together). The result is folded
 * input by input into an accumulator of Derived::Acc<T> (float for float16, so float16 rounds
 * once), then Derived::Finish(acc, n) converts it.
 *
 * Derived provides:
 *   static bool Accepts(ge::DataType);
 *   template <typename T> using Acc = ...;                          accumulator type for T
 *   template <typename A> static A Combine(A acc, A value);
 * Fold is instantiated for every numeric dtype; Accepts alone limits what runs.
 *   template <typename A, typename T> static T Finish(A acc, int64_t count);
 */
#ifndef OPENATC_OPS_COMMON_VARIADIC_H_
#define OPENATC_OPS_COMMON_VARIADIC_H_

#include "common/math_util.h"

namespace openatc_ops {

template <typename Derived>
class VariadicElementwiseOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const size_t n = ctx->GetComputeNodeInputNum();
    if (n == 0) return Fail(ctx, "at least one input expected");
    const ge::DataType d = ctx->GetInputDataType(0);
    for (size_t i = 1; i < n; ++i)
      if (ctx->GetInputDataType(i) != d)
        return Fail(ctx, "input dtypes differ (input 0 has " + std::to_string(static_cast<int>(d)) + ", input " +
                             std::to_string(i) + " has " + std::to_string(static_cast<int>(ctx->GetInputDataType(i))) +
                             ")");
    if (!Derived::Accepts(d)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(d)));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const size_t n = ctx->GetComputeNodeInputNum();
    if (n == 0) return Fail(ctx, "at least one input expected");
    Dims out = ToDims(*ctx->GetInputShape(0));
    for (size_t i = 1; i < n; ++i) {
      const Dims d = ToDims(*ctx->GetInputShape(i));
      Dims next;
      if (!BroadcastDims(out, d, &next))
        return Fail(ctx, "input " + std::to_string(i) + " shape " + DimsToString(d) + " does not broadcast with " +
                             DimsToString(out));
      out = next;
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const size_t n = ctx->GetComputeNodeInputNum();
    if (n == 0) return Fail(ctx, "at least one input expected");
    std::vector<const gert::Tensor *> in(n);
    Dims out;
    for (size_t i = 0; i < n; ++i) {
      in[i] = ctx->GetInputTensor(i);
      if (in[i] == nullptr) return Fail(ctx, "input " + std::to_string(i) + " missing");
      const Dims d = ToDims(in[i]->GetStorageShape());
      Dims next = d;
      if (i > 0 && !BroadcastDims(out, d, &next)) return Fail(ctx, "input shapes do not broadcast");
      out = next;
    }
    gert::Tensor *y = AllocOutput(ctx, 0, out, in[0]->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (in[0]->GetDataType()) {
      OPENATC_OPS_NUMBER_CASES(Fold<T>(in, out, *y))
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  template <typename T>
  static void Fold(const std::vector<const gert::Tensor *> &in, const Dims &out, gert::Tensor &y) {
    {
      using A = typename Derived::template Acc<T>;
      std::vector<A> acc(static_cast<size_t>(NumElements(out)));
      for (size_t i = 0; i < in.size(); ++i) {
        const std::vector<int64_t> strides[1] = {BroadcastStrides(ToDims(in[i]->GetStorageShape()), out)};
        const T *p = in[i]->template GetData<T>();
        if (i == 0) {
          StridedWalk<1>(out, strides, [&](int64_t o, const int64_t *off) { acc[o] = static_cast<A>(p[off[0]]); });
        } else {
          StridedWalk<1>(out, strides, [&](int64_t o, const int64_t *off) {
            acc[o] = Derived::Combine(acc[o], static_cast<A>(p[off[0]]));
          });
        }
      }
      T *q = y.GetData<T>();
      const auto count = static_cast<int64_t>(in.size());
      for (size_t k = 0; k < acc.size(); ++k) q[k] = Derived::template Finish<A, T>(acc[k], count);
    }
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_VARIADIC_H_
