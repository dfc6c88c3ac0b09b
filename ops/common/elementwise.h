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

/// Merges adjacent dims of `out` that every input steps through alike (strides[k][d] ==
/// strides[k][d + 1] * out[d + 1]: contiguously, or not at all) and drops size-1 dims, so that
/// the walk's innermost run is as long as the layouts allow (a same-shape or scalar operand: one
/// run over the whole tensor). The walk over the result visits the same elements in the same order.
template <size_t N>
void CollapseBroadcast(Dims *out, std::vector<int64_t> (&strides)[N]) {
  Dims od;
  std::vector<int64_t> st[N];
  for (size_t d = 0; d < out->size(); ++d) {
    if ((*out)[d] == 1) continue;
    bool merge = !od.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = st[k].back() == strides[k][d] * (*out)[d];
    if (merge) {
      od.back() *= (*out)[d];
      for (size_t k = 0; k < N; ++k) st[k].back() = strides[k][d];
    } else {
      od.push_back((*out)[d]);
      for (size_t k = 0; k < N; ++k) st[k].push_back(strides[k][d]);
    }
  }
  *out = od;
  for (size_t k = 0; k < N; ++k) strides[k] = st[k];
}

/// Calls run(out_index, in_offset[0..N-1], n, step[0..N-1]) for each innermost run of `out` (n
/// consecutive outputs; input k advances by step[k] per output), in row-major order, after
/// CollapseBroadcast; `strides` from BroadcastStrides.
template <size_t N, typename Run>
void StridedRuns(Dims out, std::vector<int64_t> (&strides)[N], Run run) {
  const int64_t total = NumElements(out);
  if (total <= 0) return;
  CollapseBroadcast<N>(&out, strides);
  const size_t rank = out.size();
  int64_t off[N] = {}, step[N] = {};
  if (rank == 0) {
    run(int64_t{0}, off, int64_t{1}, step);
    return;
  }
  for (size_t k = 0; k < N; ++k) step[k] = strides[k][rank - 1];
  std::vector<int64_t> idx(rank, 0);
  const int64_t inner = out[rank - 1];
  for (int64_t o = 0; o < total; o += inner) {
    run(o, off, inner, step);
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

/// Calls fn(out_index, in_offset[0..N-1]) for every element of `out` in row-major order, where
/// in_offset[k] follows `strides[k]` (from BroadcastStrides).
template <size_t N, typename Fn>
void StridedWalk(const Dims &out, const std::vector<int64_t> (&strides)[N], Fn fn) {
  std::vector<int64_t> st[N];
  for (size_t k = 0; k < N; ++k) st[k] = strides[k];
  StridedRuns<N>(out, st, [&](int64_t o, const int64_t *off, int64_t n, const int64_t *step) {
    int64_t cur[N];
    for (size_t k = 0; k < N; ++k) cur[k] = off[k];
    for (int64_t j = 0; j < n; ++j) {
      fn(o + j, cur);
      for (size_t k = 0; k < N; ++k) cur[k] += step[k];
    }
  });
}

/// out[i] = f(a[bcast], b[bcast]) where a holds A, b holds B and out holds R. Runs where each
/// operand is contiguous or one repeated value get loops of their own (the compiler vectorises
/// them).
template <typename A, typename B, typename R, typename F>
void BinaryBroadcastMixed(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &out, F f) {
  const Dims od = ToDims(out.GetStorageShape());
  std::vector<int64_t> strides[2] = {BroadcastStrides(ToDims(a.GetStorageShape()), od),
                                     BroadcastStrides(ToDims(b.GetStorageShape()), od)};
  const A *pa = a.GetData<A>();
  const B *pb = b.GetData<B>();
  R *po = out.GetData<R>();
  StridedRuns<2>(od, strides, [&](int64_t o, const int64_t *off, int64_t n, const int64_t *step) {
    const A *x = pa + off[0];
    const B *y = pb + off[1];
    R *z = po + o;
    if (step[0] == 1 && step[1] == 1) {
      for (int64_t j = 0; j < n; ++j) z[j] = f(x[j], y[j]);
    } else if (step[0] == 1 && step[1] == 0) {
      const B v = *y;
      for (int64_t j = 0; j < n; ++j) z[j] = f(x[j], v);
    } else if (step[0] == 0 && step[1] == 1) {
      const A v = *x;
      for (int64_t j = 0; j < n; ++j) z[j] = f(v, y[j]);
    } else {
      for (int64_t j = 0; j < n; ++j) z[j] = f(x[j * step[0]], y[j * step[1]]);
    }
  });
}

/// out[i] = f(a[bcast], b[bcast]) with T in, R out.
template <typename T, typename R, typename F>
void BinaryBroadcast(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &out, F f) {
  BinaryBroadcastMixed<T, T, R>(a, b, out, f);
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
