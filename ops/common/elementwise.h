/**
 * @file ops/common/elementwise.h
 * Building blocks for elementwise built-in ops with ONNX multidirectional broadcasting: a strided
 * N-d walk, and base classes for unary and binary ops whose subclasses only give the scalar
 * function and the dtypes they accept.
 */
#ifndef OPENATC_OPS_COMMON_ELEMENTWISE_H_
#define OPENATC_OPS_COMMON_ELEMENTWISE_H_

#include <cmath>
#include <type_traits>

#include "common/op_util.h"

namespace openatc_ops {

/// Calls fn(out_index, in_offset[0..N-1]) for every element of `out` in row-major order, where
/// in_offset[k] follows `strides[k]` (from BroadcastStrides).
template <size_t N, typename Fn>
void StridedWalk(const Dims &out, const std::vector<int64_t> (&strides)[N], Fn fn) {
  const int64_t total = NumElements(out);
  if (total <= 0) return;
  const size_t rank = out.size();
  if (rank == 0) {
    int64_t off[N] = {};
    fn(int64_t{0}, off);
    return;
  }
  std::vector<int64_t> idx(rank, 0);
  int64_t off[N] = {};
  const int64_t inner = out[rank - 1];
  for (int64_t o = 0; o < total; o += inner) {
    int64_t cur[N];
    for (size_t k = 0; k < N; ++k) cur[k] = off[k];
    for (int64_t j = 0; j < inner; ++j) {
      fn(o + j, cur);
      for (size_t k = 0; k < N; ++k) cur[k] += strides[k][rank - 1];
    }
    // Advance the outer index (all dims but the last).
    for (size_t d = rank - 1; d-- > 0;) {
      ++idx[d];
      for (size_t k = 0; k < N; ++k) off[k] += strides[k][d];
      if (idx[d] < out[d]) break;
      for (size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * out[d];
      idx[d] = 0;
    }
  }
}

/// out[i] = f(a[bcast], b[bcast]) with T in, R out.
template <typename T, typename R, typename F>
void BinaryBroadcast(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &out, F f) {
  const Dims od = ToDims(out.GetStorageShape());
  const std::vector<int64_t> strides[2] = {BroadcastStrides(ToDims(a.GetStorageShape()), od),
                                           BroadcastStrides(ToDims(b.GetStorageShape()), od)};
  const T *pa = a.GetData<T>();
  const T *pb = b.GetData<T>();
  R *po = out.GetData<R>();
  StridedWalk<2>(od, strides, [&](int64_t o, const int64_t *off) { po[o] = f(pa[off[0]], pb[off[1]]); });
}

/// Base of binary elementwise ops (Add, Mul, Equal, ...). Derived provides:
///   static bool Accepts(ge::DataType);              dtypes it computes on
///   static ge::DataType OutType(ge::DataType in);   result dtype (in, or DT_BOOL for comparisons)
///   static ge::graphStatus Compute(const gert::Tensor&, const gert::Tensor&, gert::Tensor&);
template <typename Derived>
class BinaryElementwiseOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0), b = ctx->GetInputDataType(1);
    if (a != b) return Fail(ctx, "input dtypes differ");
    if (!Derived::Accepts(a)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(a)));
    return ctx->SetOutputDataType(0, Derived::OutType(a));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetInputShape(0), *b = ctx->GetInputShape(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "two inputs expected");
    Dims out;
    if (!BroadcastDims(ToDims(*a), ToDims(*b), &out))
      return Fail(ctx, "shapes " + DimsToString(ToDims(*a)) + " and " + DimsToString(ToDims(*b)) + " do not broadcast");
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "two inputs expected");
    Dims out;
    if (!BroadcastDims(ToDims(a->GetStorageShape()), ToDims(b->GetStorageShape()), &out))
      return Fail(ctx, "shapes do not broadcast");
    gert::Tensor *y = AllocOutput(ctx, 0, out, Derived::OutType(a->GetDataType()));
    if (y == nullptr) return ge::GRAPH_FAILED;
    return Derived::Compute(*a, *b, *y);
  }
};

/// Base of unary elementwise ops (Relu, Exp, ...). Derived provides:
///   static bool Accepts(ge::DataType);
///   static ge::graphStatus Compute(gert::EagerOpExecutionContext*, const gert::Tensor &x, gert::Tensor &y);
/// Output dtype and shape equal the input's.
template <typename Derived>
class UnaryElementwiseOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0);
    if (!Derived::Accepts(a)) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(a)));
    return ctx->SetOutputDataType(0, a);
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
    gert::Tensor *y = AllocOutput(ctx, 0, ToDims(x->GetStorageShape()), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    return Derived::Compute(ctx, *x, *y);
  }
};

/// y[i] = f(x[i]) computed in float for half inputs, natively otherwise.
template <typename F>
ge::graphStatus MapFloat(const gert::Tensor &x, gert::Tensor &y, F f) {
  const int64_t n = x.GetShapeSize();
  switch (x.GetDataType()) {
    case ge::DT_FLOAT: {
      const float *p = x.GetData<float>();
      float *q = y.GetData<float>();
      for (int64_t i = 0; i < n; ++i) q[i] = f(p[i]);
      break;
    }
    case ge::DT_DOUBLE: {
      const double *p = x.GetData<double>();
      double *q = y.GetData<double>();
      for (int64_t i = 0; i < n; ++i) q[i] = f(p[i]);
      break;
    }
    case ge::DT_FLOAT16: {
      const half *p = x.GetData<half>();
      half *q = y.GetData<half>();
      for (int64_t i = 0; i < n; ++i) q[i] = static_cast<half>(f(static_cast<float>(p[i])));
      break;
    }
    default:
      return ge::GRAPH_FAILED;
  }
  return ge::GRAPH_SUCCESS;
}

inline bool IsFloat(ge::DataType d) { return d == ge::DT_FLOAT || d == ge::DT_FLOAT16 || d == ge::DT_DOUBLE; }
inline bool IsInt(ge::DataType d) {
  return d == ge::DT_INT8 || d == ge::DT_INT16 || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT8 ||
         d == ge::DT_UINT16 || d == ge::DT_UINT32 || d == ge::DT_UINT64;
}
inline bool IsNumber(ge::DataType d) { return IsFloat(d) || IsInt(d); }

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_ELEMENTWISE_H_
