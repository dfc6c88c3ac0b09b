// Range (ONNX Range-11): start, start + delta, ... while before `limit`, from three scalars of one
// dtype (float, double, int16, int32, int64); count = max(ceil((limit - start) / delta), 0)
// (computed in double for float types, exactly for integers); element i = start + i * delta in
// the dtype. delta 0 is an error.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/movement.h"

namespace ge {
REG_OP(Range)
    .INPUT(start, TensorType({DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64}))
    .INPUT(limit, TensorType({DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64}))
    .INPUT(delta, TensorType({DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64}))
    .OP_END_FACTORY_REG(Range);
}  // namespace ge

namespace openatc_ops {
namespace {
bool Scalars(const gert::Tensor *const t[3]) {
  for (int k = 0; k < 3; ++k)
    if (t[k] == nullptr || t[k]->GetAddr() == nullptr || t[k]->GetShapeSize() != 1 ||
        t[k]->GetDataType() != t[0]->GetDataType())
      return false;
  return true;
}

template <typename T>
bool Count(const gert::Tensor *const t[3], int64_t *n) {
  const T s = *t[0]->GetData<T>(), l = *t[1]->GetData<T>(), d = *t[2]->GetData<T>();
  if (d == T(0)) return false;
  if constexpr (std::is_floating_point<T>::value) {
    const double c = std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(d));
    *n = !(c > 0) ? 0 : (c > 9.0e18 ? INT64_MAX : static_cast<int64_t>(c));
  } else {
    const __int128 span = static_cast<__int128>(l) - s;
    __int128 c = span / d;
    if (c * d != span && ((span > 0) == (d > 0))) ++c;  // ceil
    *n = c < 0 ? 0 : static_cast<int64_t>(c);
  }
  return true;
}

template <typename T>
void Fill(const gert::Tensor *const t[3], gert::Tensor *y, int64_t n) {
  const T s = *t[0]->GetData<T>(), d = *t[2]->GetData<T>();
  T *o = y->GetData<T>();
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point<T>::value) o[i] = static_cast<T>(s + static_cast<T>(i) * d);
    else  // two's complement arithmetic: no signed overflow in the intermediate product
      o[i] = static_cast<T>(static_cast<uint64_t>(static_cast<int64_t>(s)) +
                            static_cast<uint64_t>(i) * static_cast<uint64_t>(static_cast<int64_t>(d)));
  }
}

// Dispatches F<T> on the dtype of the three scalars; false for other dtypes.
#define OPENATC_RANGE_DISPATCH(dtype, call)                      \
  switch (dtype) {                                              \
    case ge::DT_FLOAT: { using T = float; call; break; }         \
    case ge::DT_DOUBLE: { using T = double; call; break; }       \
    case ge::DT_INT16: { using T = int16_t; call; break; }       \
    case ge::DT_INT32: { using T = int32_t; call; break; }       \
    case ge::DT_INT64: { using T = int64_t; call; break; }       \
    default: ok = false;                                         \
  }

bool CountAny(const gert::Tensor *const t[3], int64_t *n) {
  bool ok = true;
  OPENATC_RANGE_DISPATCH(t[0]->GetDataType(), ok = Count<T>(t, n))
  return ok;
}
}  // namespace

class Range : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (d != ge::DT_FLOAT && d != ge::DT_DOUBLE && d != ge::DT_INT16 && d != ge::DT_INT32 && d != ge::DT_INT64)
      return Fail(ctx, "unsupported dtype " + DtypeName(d) + " (float32, float64, int16, int32, int64 expected)");
    if (ctx->GetInputDataType(1) != d || ctx->GetInputDataType(2) != d)
      return Fail(ctx, "start, limit and delta must have the same dtype");
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Tensor *t[3] = {ctx->GetInputTensor(0), ctx->GetInputTensor(1), ctx->GetInputTensor(2)};
    int64_t n = -1;
    if (Scalars(t) && !CountAny(t, &n)) return Fail(ctx, "delta must not be 0");
    *ctx->GetOutputShape(0) = ToShape({n});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *t[3] = {ctx->GetInputTensor(0), ctx->GetInputTensor(1), ctx->GetInputTensor(2)};
    if (!Scalars(t)) return Fail(ctx, "start, limit and delta must be one-element tensors of one dtype");
    int64_t n = 0;
    if (!CountAny(t, &n)) return Fail(ctx, "delta must not be 0");
    gert::Tensor *y = AllocChecked(ctx, 0, {n}, t[0]->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    bool ok = true;
    OPENATC_RANGE_DISPATCH(t[0]->GetDataType(), Fill<T>(t, y, n))
    return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported dtype");
  }
};
REG_AUTO_MAPPING_OP(Range);

}  // namespace openatc_ops
