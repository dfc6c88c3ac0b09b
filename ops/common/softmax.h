/**
 * @file ops/common/softmax.h
 * Shared body of Softmax and LogSoftmax (ONNX Softmax/LogSoftmax-1, -11, -13).
 *
 * Attributes: axis (index 0; ONNX default -1 since opset 13, 1 before) and onnx_opset (index 1).
 * Opset >= 13 normalises along the single axis `axis`. Opset < 13 coerces the input to 2-D
 * [prod(d0..d(axis-1)), prod(d(axis)..d(r-1))] and normalises each row. The ONNX front end must
 * write an absent axis of an opset < 13 node explicitly as axis = 1 (the REG_OP default is the
 * opset-13 one, -1). Values are shifted by the maximum first, so large inputs do not overflow;
 * float16 computes in float; sums accumulate in double. Softmax of finite float32 values along
 * the innermost axis runs on oneDNN (common/dnnl_softmax.h).
 */
#ifndef OPENATC_OPS_COMMON_SOFTMAX_H_
#define OPENATC_OPS_COMMON_SOFTMAX_H_

#include <algorithm>

#include "common/dnnl_softmax.h"
#include "common/math_util.h"

namespace openatc_ops {

/// Views dims `d` as [outer, n, inner] around `axis` for the softmax family (Softmax, LogSoftmax,
/// Hardmax): n is d[axis] (opset >= 13), or, with `coerce_2d` (opset < 13), the product of
/// d[axis..]; inner is then 1.
inline void AxisView(const Dims &d, int64_t axis, bool coerce_2d, int64_t *outer, int64_t *n, int64_t *inner) {
  *outer = *n = *inner = 1;
  for (int64_t k = 0; k < static_cast<int64_t>(d.size()); ++k) {
    const int64_t v = d[static_cast<size_t>(k)];
    if (k < axis)
      *outer *= v;
    else if (k == axis || coerce_2d)
      *n *= v;
    else
      *inner *= v;
  }
}

/// kLog: LogSoftmax when true.
template <bool kLog>
class SoftmaxOp : public UnaryElementwiseOp<SoftmaxOp<kLog>> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const auto rank = static_cast<int64_t>(x->GetDimNum());
    const int64_t axis = AttrInt(ctx, 0, -1);
    int64_t a = 0;
    if (!NormalizeAxis(axis, rank, &a) && !(rank == 0 && (axis == 0 || axis == -1)))
      return Fail(ctx, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
                           " (valid: [" + std::to_string(-rank) + ", " + std::to_string(rank - 1) + "])");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const Dims d = ToDims(x.GetStorageShape());
    const auto rank = static_cast<int64_t>(d.size());
    const int64_t axis_attr = AttrInt(ctx, 0, -1);
    const bool coerce_2d = AttrInt(ctx, 1, 17) < 13;
    int64_t axis = 0;
    if (rank == 0) {
      axis = 0;  // a scalar is one row of one element
    } else if (!NormalizeAxis(axis_attr, rank, &axis)) {
      return Fail(ctx, "axis " + std::to_string(axis_attr) + " is out of range for rank " + std::to_string(rank));
    }
    int64_t outer = 1, n = 1, inner = 1;
    AxisView(d, axis, coerce_2d, &outer, &n, &inner);
    if (!kLog && inner == 1 && x.GetDataType() == ge::DT_FLOAT &&
        !AnyNonFinite(x.GetData<float>(), outer * n)) {  // vectorised (common/dnnl_softmax.h)
      try {
        SoftmaxRowsF32(x.GetData<float>(), y.GetData<float>(), outer, n);
      } catch (const dnnl::error &e) {
        return Fail(ctx, std::string("oneDNN softmax failed: ") + e.what());
      }
      return ge::GRAPH_SUCCESS;
    }
    switch (x.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Run<T>(x.GetData<T>(), y.GetData<T>(), outer, n, inner))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  // x viewed as [outer, n, inner], normalised along n; one pass per row keeps memory order.
  template <typename T>
  static void Run(const T *x, T *y, int64_t outer, int64_t n, int64_t inner) {
    using C = ComputeType<T>;
    if (n == 0 || inner == 0) return;
    std::vector<C> mx(static_cast<size_t>(inner));
    std::vector<double> sum(static_cast<size_t>(inner));
    std::vector<C> ex(kLog ? 0 : static_cast<size_t>(n * inner));
    for (int64_t o = 0; o < outer; ++o) {
      const T *xb = x + o * n * inner;
      T *yb = y + o * n * inner;
      std::fill(mx.begin(), mx.end(), -std::numeric_limits<C>::infinity());
      std::fill(sum.begin(), sum.end(), 0.0);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < inner; ++i)
          mx[static_cast<size_t>(i)] = std::max(mx[static_cast<size_t>(i)], static_cast<C>(xb[j * inner + i]));
      // Each exponential is computed once: kept in `ex` for the normalising pass.
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < inner; ++i) {
          const C e = std::exp(static_cast<C>(xb[j * inner + i]) - mx[static_cast<size_t>(i)]);
          if (!kLog) ex[static_cast<size_t>(j * inner + i)] = e;
          sum[static_cast<size_t>(i)] += static_cast<double>(e);
        }
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < inner; ++i) {
          const auto k = static_cast<size_t>(i);
          if (kLog)
            yb[j * inner + i] =
                static_cast<T>(static_cast<C>(xb[j * inner + i]) - mx[k] - static_cast<C>(std::log(sum[k])));
          else
            yb[j * inner + i] = static_cast<T>(ex[static_cast<size_t>(j * inner + i)] / static_cast<C>(sum[k]));
        }
      }
    }
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_SOFTMAX_H_
