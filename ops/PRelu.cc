// PRelu (ONNX PRelu-16): Y = X for X >= 0, slope * X otherwise; slope broadcasts unidirectionally
// to X (Y has X's shape). Float types (float16 computed in float) and int32/int64/uint32/uint64
// (integer products wrap). PRelu-1/6 (onnx_opset < 7) had no broadcasting rule: a 1-D slope of
// X's channel count (dim 1) is one slope per channel, as the frameworks that export those opsets
// (PyTorch's PReLU with num_parameters = C) compute it; slope [C] then acts as [C, 1, ..., 1].
#include "common/math_util.h"

namespace ge {
REG_OP(PRelu)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .INPUT(slope, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .ATTR(onnx_opset, Int, 16)
    .OP_END_FACTORY_REG(PRelu);
}  // namespace ge

namespace openatc_ops {
namespace {
// Unidirectional: broadcasting slope to X must give X's shape (unknown dims accepted).
bool SlopeFits(const Dims &x, const Dims &slope) {
  Dims out;
  if (!BroadcastDims(x, slope, &out) || out.size() != x.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] >= 0 && out[i] != x[i]) return false;
  return true;
}

// PRelu-1/6's per-channel slope: X of rank >= 2 and a 1-D slope of X's dim 1 (size > 1; a single
// slope broadcasts in either reading).
bool PerChannel(int64_t opset, const Dims &x, const Dims &slope) {
  return opset < 7 && x.size() >= 2 && slope.size() == 1 && slope[0] > 1 && (x[1] < 0 || x[1] == slope[0]);
}

// Y[i] = f(X[i], slope[channel of i]) for X [N, C, d2...] and slope [C].
template <typename T, typename F>
void ApplyPerChannel(const gert::Tensor &x, const gert::Tensor &s, gert::Tensor &y, F f) {
  const Dims d = ToDims(x.GetStorageShape());
  int64_t inner = 1;
  for (size_t k = 2; k < d.size(); ++k) inner *= d[k];
  const int64_t c = d[1], n = NumElements(d);
  const T *px = x.GetData<T>(), *ps = s.GetData<T>();
  T *py = y.GetData<T>();
  for (int64_t i = 0; i < n; ++i) py[i] = f(px[i], ps[inner == 0 ? 0 : (i / inner) % c]);
}

template <typename T>
T Leaky(T x, T s) {
  using C = ComputeType<T>;
  return static_cast<T>(static_cast<C>(x) < C(0) ? static_cast<C>(s) * static_cast<C>(x) : static_cast<C>(x));
}

}  // namespace

class PRelu : public BinaryElementwiseOp<PRelu> {
 public:
  static bool Accepts(ge::DataType d) {
    return IsFloat(d) || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT32 || d == ge::DT_UINT64;
  }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, Leaky<T>))
      case ge::DT_INT32:
        BinaryBroadcastMixed<int32_t, int32_t, int32_t>(a, b, c,
                                                        [](int32_t x, int32_t s) { return x < 0 ? WrapMul(s, x) : x; });
        break;
      case ge::DT_INT64:
        BinaryBroadcastMixed<int64_t, int64_t, int64_t>(a, b, c,
                                                        [](int64_t x, int64_t s) { return x < 0 ? WrapMul(s, x) : x; });
        break;
      case ge::DT_UINT32:
        BinaryBroadcastMixed<uint32_t, uint32_t, uint32_t>(a, b, c, [](uint32_t x, uint32_t) { return x; });
        break;
      case ge::DT_UINT64:
        BinaryBroadcastMixed<uint64_t, uint64_t, uint64_t>(a, b, c, [](uint64_t x, uint64_t) { return x; });
        break;
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *s = ctx->GetInputShape(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "two inputs expected");
    if (!PerChannel(AttrInt(ctx, 0, 16), ToDims(*x), ToDims(*s)) && !SlopeFits(ToDims(*x), ToDims(*s)))
      return Fail(ctx, "slope shape " + DimsToString(ToDims(*s)) + " does not broadcast to X shape " +
                           DimsToString(ToDims(*x)));
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "two inputs expected");
    if (PerChannel(AttrInt(ctx, 0, 16), ToDims(x->GetStorageShape()), ToDims(s->GetStorageShape())))
      return ExecutePerChannel(ctx, *x, *s);
    if (!SlopeFits(ToDims(x->GetStorageShape()), ToDims(s->GetStorageShape())))
      return Fail(ctx, "slope shape " + DimsToString(ToDims(s->GetStorageShape())) + " does not broadcast to X shape " +
                           DimsToString(ToDims(x->GetStorageShape())));
    return BinaryElementwiseOp<PRelu>::Execute(ctx);
  }

 private:
  static ge::graphStatus ExecutePerChannel(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, const gert::Tensor &s) {
    if (x.GetDataType() != s.GetDataType()) return Fail(ctx, "input dtypes differ");
    gert::Tensor *y = AllocOutput(ctx, 0, ToDims(x.GetStorageShape()), x.GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (x.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(ApplyPerChannel<T>(x, s, *y, Leaky<T>))
      case ge::DT_INT32:
        ApplyPerChannel<int32_t>(x, s, *y, [](int32_t v, int32_t k) { return v < 0 ? WrapMul(k, v) : v; });
        break;
      case ge::DT_INT64:
        ApplyPerChannel<int64_t>(x, s, *y, [](int64_t v, int64_t k) { return v < 0 ? WrapMul(k, v) : v; });
        break;
      default:
        return Fail(ctx, "unsupported dtype for a per-channel slope");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(PRelu);

}  // namespace openatc_ops
