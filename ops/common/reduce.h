/**
 * @file ops/common/reduce.h
 * Reductions over a set of axes (ONNX ReduceMean/Sum/Max/Min/Prod/L2-13 semantics): axis
 * resolution and output shape (ReducePlan), and a base class whose subclasses give the scalar fold.
 *
 * Axes: each in [-r, r-1], no repeats (else an error naming the axis); empty axes reduce every axis
 * unless noop_with_empty_axes, which returns the input unchanged. keepdims keeps reduced axes as
 * size 1. A reduction over zero elements yields Derived::Init (0 for sum, 1 for prod, -inf for
 * max, ...), then Finish with count 0.
 */
#ifndef OPENATC_OPS_COMMON_REDUCE_H_
#define OPENATC_OPS_COMMON_REDUCE_H_

#include <string>
#include <type_traits>
#include <vector>

#include "common/math_util.h"

namespace openatc_ops {

struct ReducePlan {
  Dims in;                           ///< input dims
  Dims out;                          ///< output dims (after keepdims)
  std::vector<int64_t> out_strides;  ///< per input axis: output stride, 0 on reduced axes
  int64_t count = 1;                 ///< elements folded into each output element
  bool noop = false;                 ///< noop_with_empty_axes with empty axes: output = input
};

/// Builds the plan for input dims `in` (all known) and `axes`; false with `*error` set on a bad or
/// repeated axis.
bool MakeReducePlan(const Dims &in, const std::vector<int64_t> &axes, bool keepdims, bool noop_with_empty_axes,
                    ReducePlan *plan, std::string *error);

/// True when `plan` reduces exactly the innermost axes (size-1 axes aside): output element r folds
/// the contiguous input run [r * count, (r + 1) * count).
bool InnermostReduce(const ReducePlan &plan);

/// Output dims at compile time: `in` may hold -1 dims; `axes_known` false means only the number of
/// axes `axes_count` is known (-1: not even that), giving -1 dims (or a single -2 for unknown rank).
bool InferReduceDims(const Dims &in, bool axes_known, const std::vector<int64_t> &axes, int64_t axes_count,
                     bool keepdims, bool noop_with_empty_axes, Dims *out, std::string *error);

/// Base of the ReduceXxx ops. Derived provides:
///   static bool Accepts(ge::DataType);
///   static constexpr bool kAxesInput;   true: axes is optional input 1 and the attrs are
///                                       (keepdims, noop_with_empty_axes); false: attrs (axes, keepdims),
///                                       and an optional input 1 `axes`, when given, replaces the axes
///                                       attribute (the opset-18 form whose axes the front end could
///                                       not read at compile time: a value folded later or fed at run
///                                       time; an empty tensor means every axis)
///   template <typename T> using Acc = ...;  accumulator type
///   template <typename A> static A Init();
///   template <typename A> static A Combine(A acc, A value);
///   template <typename A, typename T> static T Finish(A acc, int64_t count);
/// and may declare `static constexpr bool kCombineMerges = true;` when Combine of two partial
/// accumulators is the accumulator of both parts (sums, max, min): a reduction over the innermost
/// axes then folds each run of elements into independent partials, which breaks the chain of
/// dependent adds (a 64-element row of a LayerNorm's ReduceMean: ~8x fewer cycles).
template <typename Derived>
class ReduceOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!Derived::Accepts(d)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(d)));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "data input expected");
    bool keepdims = false, noop = false;
    std::vector<int64_t> axes;
    bool known = true;
    int64_t count = -1;
    ReadAttrs(ctx, &keepdims, &noop, &axes);
    if (Derived::kAxesInput || ctx->GetOptionalInputShape(1) != nullptr) {
      axes.clear();
      const gert::Tensor *t = ctx->GetOptionalInputTensor(1);
      const gert::Shape *s = ctx->GetOptionalInputShape(1);
      if (t != nullptr && t->GetShapeSize() == 0) {
        axes.clear();  // empty axes, known at compile time
      } else if (t != nullptr && t->GetAddr() != nullptr) {
        if (!ReadInts(t, &axes)) return Fail(ctx, "axes must be an int64 tensor");
      } else if (s != nullptr) {
        known = false;
        const Dims sd = ToDims(*s);
        count = sd.size() == 1 ? sd[0] : (sd.empty() ? 1 : -1);
      }
    }
    Dims out;
    std::string error;
    if (!InferReduceDims(ToDims(*x), known, axes, count, keepdims, noop, &out, &error)) return Fail(ctx, error);
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr) return Fail(ctx, "data input expected");
    bool keepdims = false, noop = false;
    std::vector<int64_t> axes;
    ReadAttrs(ctx, &keepdims, &noop, &axes);
    if (const gert::Tensor *t = ctx->GetOptionalInputTensor(1); Derived::kAxesInput || t != nullptr) {
      if (t != nullptr) axes.clear();
      if (t != nullptr && t->GetShapeSize() != 0 && !ReadInts(t, &axes))
        return Fail(ctx, "axes must be an int64 tensor");
    }
    ReducePlan plan;
    std::string error;
    if (!MakeReducePlan(ToDims(x->GetStorageShape()), axes, keepdims, noop, &plan, &error)) return Fail(ctx, error);
    gert::Tensor *y = AllocOutput(ctx, 0, plan.out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (x->GetDataType()) {
      OPENATC_OPS_NUMBER_CASES(Run<T>(plan, *x, *y))
      case ge::DT_BOOL:  // ReduceMax/Min-20: max = or, min = and over 0/1 bytes
        if (!Derived::Accepts(ge::DT_BOOL)) return Fail(ctx, "unsupported dtype");
        Run<uint8_t>(plan, *x, *y);
        for (int64_t i = 0; i < NumElements(plan.out); ++i) y->GetData<uint8_t>()[i] = y->GetData<uint8_t>()[i] != 0;
        break;
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  static void ReadAttrs(const gert::ExtendedKernelContext *ctx, bool *keepdims, bool *noop,
                        std::vector<int64_t> *axes) {
    if (Derived::kAxesInput) {
      *keepdims = AttrInt(ctx, 0, 1) != 0;
      *noop = AttrInt(ctx, 1, 0) != 0;
    } else {
      *axes = AttrInts(ctx, 0);
      *keepdims = AttrInt(ctx, 1, 1) != 0;
      *noop = false;
    }
  }

  template <typename D, typename = void>
  struct CombineMerges : std::false_type {};
  template <typename D>
  struct CombineMerges<D, std::void_t<decltype(D::kCombineMerges)>> : std::bool_constant<D::kCombineMerges> {};

  // The accumulator of p[0..n) from 8 partials (Combine merges them: kCombineMerges).
  template <typename A, typename T>
  static A FoldRun(const T *p, int64_t n) {
    constexpr int kParts = 8;
    A part[kParts];
    for (A &a : part) a = Derived::template Init<A>();
    int64_t i = 0;
    for (; i + kParts <= n; i += kParts)
      for (int j = 0; j < kParts; ++j) part[j] = Derived::Combine(part[j], static_cast<A>(p[i + j]));
    for (; i < n; ++i) part[0] = Derived::Combine(part[0], static_cast<A>(p[i]));
    for (int w = kParts / 2; w > 0; w /= 2)
      for (int j = 0; j < w; ++j) part[j] = Derived::Combine(part[j], part[j + w]);
    return part[0];
  }

  template <typename T>
  static void Run(const ReducePlan &plan, const gert::Tensor &x, gert::Tensor &y) {
    const T *p = x.GetData<T>();
    T *q = y.GetData<T>();
    const int64_t n_out = NumElements(plan.out);
    if (plan.noop) {
      for (int64_t i = 0; i < n_out; ++i) q[i] = p[i];
      return;
    }
    using A = typename Derived::template Acc<T>;
    if constexpr (CombineMerges<Derived>::value) {
      if (InnermostReduce(plan)) {
        for (int64_t r = 0; r < n_out; ++r)
          q[r] = Derived::template Finish<A, T>(FoldRun<A>(p + r * plan.count, plan.count), plan.count);
        return;
      }
    }
    std::vector<A> acc(static_cast<size_t>(n_out), Derived::template Init<A>());
    const std::vector<int64_t> strides[1] = {plan.out_strides};
    StridedWalk<1>(plan.in, strides, [&](int64_t i, const int64_t *off) {
      acc[static_cast<size_t>(off[0])] = Derived::Combine(acc[static_cast<size_t>(off[0])], static_cast<A>(p[i]));
    });
    for (int64_t k = 0; k < n_out; ++k) q[k] = Derived::template Finish<A, T>(acc[static_cast<size_t>(k)], plan.count);
  }
};

/// Accumulator families: floats in double (rounded once at the end), signed integers in int64,
/// unsigned in uint64 (both wrap).
template <typename T>
using WideAcc =
    typename std::conditional<!std::is_integral<T>::value, double,
                              typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type>::type;

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_REDUCE_H_
