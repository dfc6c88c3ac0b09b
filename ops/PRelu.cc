// PRelu (ONNX PRelu-16): Y = X for X >= 0, slope * X otherwise; slope broadcasts unidirectionally
// to X (Y has X's shape). Float types (float16 computed in float) and int32/int64/uint32/uint64
// (integer products wrap).
#include "common/math_util.h"

namespace ge {
REG_OP(PRelu)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .INPUT(slope, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
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
}  // namespace

class PRelu : public BinaryElementwiseOp<PRelu> {
 public:
  static bool Accepts(ge::DataType d) {
    return IsFloat(d) || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT32 || d == ge::DT_UINT64;
  }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T s) {
        using C = ComputeType<T>;
        return static_cast<T>(static_cast<C>(x) < C(0) ? static_cast<C>(s) * static_cast<C>(x) : static_cast<C>(x));
      }))
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
    if (!SlopeFits(ToDims(*x), ToDims(*s)))
      return Fail(ctx, "slope shape " + DimsToString(ToDims(*s)) + " does not broadcast to X shape " +
                           DimsToString(ToDims(*x)));
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "two inputs expected");
    if (!SlopeFits(ToDims(x->GetStorageShape()), ToDims(s->GetStorageShape())))
      return Fail(ctx, "slope shape " + DimsToString(ToDims(s->GetStorageShape())) + " does not broadcast to X shape " +
                           DimsToString(ToDims(x->GetStorageShape())));
    return BinaryElementwiseOp<PRelu>::Execute(ctx);
  }
};
REG_AUTO_MAPPING_OP(PRelu);

}  // namespace openatc_ops
