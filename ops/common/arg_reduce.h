/**
 * @file ops/common/arg_reduce.h
 * Shared body of ArgMax / ArgMin (ONNX ArgMax-13 / ArgMin-13): the int64 index of the extreme
 * element along `axis` (attr 0, default 0), keepdims (attr 1, default 1) keeping the axis as size 1,
 * select_last_index (attr 2, default 0) choosing the last of equal extremes instead of the first.
 * Float and integer inputs (float16 compared in float). A NaN is the extreme, as in numpy.argmax /
 * argmin (which ONNX's reference uses): the first NaN (the last one with
 * select_last_index) is selected.
 * An empty axis (size 0) is an error: there is no index to return.
 */
#ifndef OPENATC_OPS_COMMON_ARG_REDUCE_H_
#define OPENATC_OPS_COMMON_ARG_REDUCE_H_

#include "common/math_util.h"

namespace openatc_ops {

/// kMax: true for ArgMax, false for ArgMin.
template <bool kMax>
class ArgReduceOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsNumber(d)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(d)));
    return ctx->SetOutputDataType(0, ge::DT_INT64);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "data input expected");
    Dims out;
    int64_t axis = 0;
    if (!OutDims(ctx, ToDims(*x), &out, &axis)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "data input expected");
    const Dims in = ToDims(x->GetStorageShape());
    Dims out;
    int64_t axis = 0;
    if (!OutDims(ctx, in, &out, &axis)) return ge::GRAPH_FAILED;
    if (in[static_cast<size_t>(axis)] == 0 && NumElements(out) > 0)
      return Fail(ctx, "axis " + std::to_string(axis) + " has size 0: no element to select");
    gert::Tensor *y = AllocOutput(ctx, 0, out, ge::DT_INT64);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool last = AttrInt(ctx, 2, 0) != 0;
    switch (x->GetDataType()) {
      OPENATC_OPS_NUMBER_CASES(Run<T>(*x, in, axis, last, y->GetData<int64_t>()))
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  static bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &in, Dims *out, int64_t *axis) {
    const int64_t a = AttrInt(ctx, 0, 0);
    if (!NormalizeAxis(a, static_cast<int64_t>(in.size()), axis)) {
      Fail(ctx, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(in.size()));
      return false;
    }
    const bool keepdims = AttrInt(ctx, 1, 1) != 0;
    out->clear();
    for (size_t k = 0; k < in.size(); ++k) {
      if (static_cast<int64_t>(k) != *axis)
        out->push_back(in[k]);
      else if (keepdims)
        out->push_back(1);
    }
    return true;
  }

  // Better(v, best): v replaces the current best (ties handled by `last`).
  template <typename C>
  static bool Better(C v, C best, bool last) {
    if (std::isnan(static_cast<double>(best))) return last && std::isnan(static_cast<double>(v));
    if (std::isnan(static_cast<double>(v))) return true;
    if (kMax ? v > best : v < best) return true;
    return last && v == best;
  }

  // Walks rows of the axis in memory order: for each outer block, `inner` contiguous candidates.
  template <typename T>
  static void Run(const gert::Tensor &x, const Dims &in, int64_t axis, bool last, int64_t *y) {
    using C = ComputeType<T>;
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < axis; ++k) outer *= in[static_cast<size_t>(k)];
    for (size_t k = static_cast<size_t>(axis) + 1; k < in.size(); ++k) inner *= in[k];
    const int64_t n = in[static_cast<size_t>(axis)];
    if (n == 0) return;
    const T *p = x.GetData<T>();
    std::vector<C> best(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
      const T *block = p + o * n * inner;
      int64_t *yo = y + o * inner;
      for (int64_t i = 0; i < inner; ++i) {
        best[static_cast<size_t>(i)] = static_cast<C>(block[i]);
        yo[i] = 0;
      }
      for (int64_t j = 1; j < n; ++j) {
        const T *row = block + j * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const C v = static_cast<C>(row[i]);
          if (Better(v, best[static_cast<size_t>(i)], last)) {
            best[static_cast<size_t>(i)] = v;
            yo[i] = j;
          }
        }
      }
    }
  }
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_ARG_REDUCE_H_
