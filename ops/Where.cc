// Where (ONNX Where-16): output = condition ? X : Y elementwise, with multidirectional
// broadcasting of all three inputs; condition is bool, X and Y share any dtype (elements are
// copied as bytes, so every fixed-size dtype works).
#include "common/math_util.h"

namespace ge {
REG_OP(Where)
    .INPUT(condition, TensorType({DT_BOOL}))
    .INPUT(X, TensorType::ALL())
    .INPUT(Y, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .OP_END_FACTORY_REG(Where);
}  // namespace ge

namespace openatc_ops {
namespace {

// c ? a : b as bit operations on whole elements (every load unconditional), which the compiler
// vectorises where a branch, or a load only one side takes, keeps it scalar.
template <typename E>
inline E Pick(uint8_t c, E a, E b) {
  const E m = static_cast<E>(E{0} - static_cast<E>(c != 0));
  return static_cast<E>((a & m) | (b & static_cast<E>(~m)));
}

// One run of n outputs: input k advances by step k (0: one repeated value). The pointers never
// alias (the output is a buffer of its own); the common runs get loops of their own: all
// contiguous, or X or Y one fill value (an attention mask's).
template <typename E>
void SelectRun(const uint8_t *__restrict c, const E *__restrict x, const E *__restrict y, E *__restrict o, int64_t n,
               const int64_t *step) {
  if (step[0] == 1 && step[1] == 1 && step[2] == 1) {
    for (int64_t j = 0; j < n; ++j) o[j] = Pick(c[j], x[j], y[j]);
  } else if (step[0] == 1 && step[1] == 0 && step[2] == 1) {
    const E v = *x;
    for (int64_t j = 0; j < n; ++j) o[j] = Pick(c[j], v, y[j]);
  } else if (step[0] == 1 && step[1] == 1 && step[2] == 0) {
    const E v = *y;
    for (int64_t j = 0; j < n; ++j) o[j] = Pick(c[j], x[j], v);
  } else {
    for (int64_t j = 0; j < n; ++j) o[j] = Pick(c[j * step[0]], x[j * step[1]], y[j * step[2]]);
  }
}

// Over the innermost runs of the broadcast (elementwise.h StridedRuns).
template <typename E>
void Select(const gert::Tensor &c, const gert::Tensor &x, const gert::Tensor &y, gert::Tensor &out) {
  const Dims od = ToDims(out.GetStorageShape());
  std::vector<int64_t> strides[3] = {BroadcastStrides(ToDims(c.GetStorageShape()), od),
                                     BroadcastStrides(ToDims(x.GetStorageShape()), od),
                                     BroadcastStrides(ToDims(y.GetStorageShape()), od)};
  const uint8_t *pc = c.GetData<uint8_t>();
  const E *px = x.GetData<E>();
  const E *py = y.GetData<E>();
  E *po = out.GetData<E>();
  StridedRuns<3>(od, strides, [&](int64_t o, const int64_t *off, int64_t n, const int64_t *step) {
    SelectRun<E>(pc + off[0], px + off[1], py + off[2], po + o, n, step);
  });
}

// Element size in bytes for the dtypes Where copies (0: unsupported).
size_t ElementBytes(ge::DataType d) {
  switch (d) {
    case ge::DT_BOOL:
    case ge::DT_INT8:
    case ge::DT_UINT8:
      return 1;
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
    case ge::DT_INT16:
    case ge::DT_UINT16:
      return 2;
    case ge::DT_FLOAT:
    case ge::DT_INT32:
    case ge::DT_UINT32:
      return 4;
    case ge::DT_DOUBLE:
    case ge::DT_INT64:
    case ge::DT_UINT64:
    case ge::DT_COMPLEX64:
      return 8;
    default:
      return 0;
  }
}

bool Broadcast3(const Dims &a, const Dims &b, const Dims &c, Dims *out) {
  Dims ab;
  return BroadcastDims(a, b, &ab) && BroadcastDims(ab, c, out);
}

}  // namespace

class Where : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType c = ctx->GetInputDataType(0), x = ctx->GetInputDataType(1), y = ctx->GetInputDataType(2);
    if (c != ge::DT_BOOL) return Fail(ctx, "condition must be bool, got dtype " + std::to_string(static_cast<int>(c)));
    if (x != y)
      return Fail(ctx, "X and Y dtypes differ (" + std::to_string(static_cast<int>(x)) + " vs " +
                           std::to_string(static_cast<int>(y)) + ")");
    if (ElementBytes(x) == 0) return Fail(ctx, "unsupported dtype " + std::to_string(static_cast<int>(x)));
    return ctx->SetOutputDataType(0, x);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *c = ctx->GetInputShape(0), *x = ctx->GetInputShape(1), *y = ctx->GetInputShape(2);
    if (c == nullptr || x == nullptr || y == nullptr) return Fail(ctx, "three inputs expected");
    Dims out;
    if (!Broadcast3(ToDims(*c), ToDims(*x), ToDims(*y), &out))
      return Fail(ctx, "shapes " + DimsToString(ToDims(*c)) + ", " + DimsToString(ToDims(*x)) + " and " +
                           DimsToString(ToDims(*y)) + " do not broadcast");
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *c = ctx->GetInputTensor(0), *x = ctx->GetInputTensor(1), *y = ctx->GetInputTensor(2);
    if (c == nullptr || x == nullptr || y == nullptr) return Fail(ctx, "three inputs expected");
    Dims out;
    if (!Broadcast3(ToDims(c->GetStorageShape()), ToDims(x->GetStorageShape()), ToDims(y->GetStorageShape()), &out))
      return Fail(ctx, "shapes do not broadcast");
    gert::Tensor *o = AllocOutput(ctx, 0, out, x->GetDataType());
    if (o == nullptr) return ge::GRAPH_FAILED;
    switch (ElementBytes(x->GetDataType())) {
      case 1:
        Select<uint8_t>(*c, *x, *y, *o);
        break;
      case 2:
        Select<uint16_t>(*c, *x, *y, *o);
        break;
      case 4:
        Select<uint32_t>(*c, *x, *y, *o);
        break;
      case 8:
        Select<uint64_t>(*c, *x, *y, *o);
        break;
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Where);

}  // namespace openatc_ops
