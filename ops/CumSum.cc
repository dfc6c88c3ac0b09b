// CumSum (ONNX CumSum-14): running sums of x along the axis given by the 0-D (or one-element)
// int32/int64 input `axis`, in [-rank, rank-1]. exclusive=1 leaves the current element out (the
// first sum is 0); reverse=1 sums from the end of the axis. Float types sum in double and round
// once per output; integer sums wrap (two's complement). Dtypes: float, float16, double, int32,
// int64, uint32, uint64.
#include "common/math_util.h"
#include "common/movement.h"

namespace ge {
REG_OP(CumSum)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .INPUT(axis, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .ATTR(exclusive, Int, 0)
    .ATTR(reverse, Int, 0)
    .OP_END_FACTORY_REG(CumSum);
}  // namespace ge

namespace openatc_ops {
namespace {

bool Accepted(ge::DataType d) {
  return IsFloat(d) || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT32 || d == ge::DT_UINT64;
}

// Acc: the accumulator type (double for float types, T for integers with wrapping adds).
template <typename T, typename Acc>
void Scan(const T *x, T *y, int64_t outer, int64_t n, int64_t inner, bool exclusive, bool reverse) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      Acc acc = Acc(0);
      for (int64_t s = 0; s < n; ++s) {
        const int64_t k = reverse ? n - 1 - s : s;
        const int64_t at = base + k * inner;
        const Acc v = static_cast<Acc>(x[at]);
        if (exclusive) y[at] = static_cast<T>(acc);
        if constexpr (std::is_integral<Acc>::value)
          acc = WrapAdd(acc, v);
        else
          acc += v;
        if (!exclusive) y[at] = static_cast<T>(acc);
      }
    }
  }
}

}  // namespace

class CumSum : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0), a = ctx->GetInputDataType(1);
    if (!Accepted(d))
      return Fail(ctx,
                  "x dtype " + DtypeName(d) + " is not one of float, float16, double, int32, int64, uint32, uint64");
    if (a != ge::DT_INT32 && a != ge::DT_INT64)
      return Fail(ctx, "axis dtype must be int32 or int64, got " + DtypeName(a));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "inputs x and axis expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *a = ctx->GetInputTensor(1);
    if (x == nullptr || a == nullptr) return Fail(ctx, "inputs x and axis expected");
    std::vector<int64_t> axis_v;
    if (!ReadInts(a, &axis_v) || axis_v.size() != 1)
      return Fail(ctx, "axis must hold exactly one int32/int64 value (a 0-D tensor), got " +
                           std::to_string(axis_v.size()) + " values");
    const Dims d = ToDims(x->GetStorageShape());
    const auto rank = static_cast<int64_t>(d.size());
    int64_t axis = 0;
    if (rank == 0) {
      if (axis_v[0] != 0 && axis_v[0] != -1)
        return Fail(ctx, "axis " + std::to_string(axis_v[0]) + " is out of range for a scalar");
    } else if (!NormalizeAxis(axis_v[0], rank, &axis)) {
      return Fail(ctx, "axis " + std::to_string(axis_v[0]) + " is out of range for rank " + std::to_string(rank) +
                           " (valid: [" + std::to_string(-rank) + ", " + std::to_string(rank - 1) + "])");
    }
    int64_t outer = 1, n = 1, inner = 1;
    for (int64_t k = 0; k < rank; ++k) {
      const int64_t v = d[static_cast<size_t>(k)];
      if (k < axis)
        outer *= v;
      else if (k == axis)
        n *= v;
      else
        inner *= v;
    }
    gert::Tensor *y = AllocOutput(ctx, 0, d, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool exclusive = AttrInt(ctx, 0, 0) != 0, reverse = AttrInt(ctx, 1, 0) != 0;
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Scan<T, double>(x->GetData<T>(), y->GetData<T>(), outer, n, inner, exclusive, reverse))
      OPENATC_OPS_INT_CASES(Scan<T, T>(x->GetData<T>(), y->GetData<T>(), outer, n, inner, exclusive, reverse))
      default:
        return Fail(ctx, "unsupported x dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(CumSum);

}  // namespace openatc_ops
