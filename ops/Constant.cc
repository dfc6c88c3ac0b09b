// Constant (ONNX Constant-13): a constant output given by exactly one of the attributes `value`
// (a tensor), `value_float` / `value_int` (scalars: float32 / int64) or `value_floats` /
// `value_ints` (1-D). The front end usually folds Constant into Const; this op covers the rest.
// Absence is detected by sentinel defaults (REG_OP defaults must be values): value_float NaN,
// value_int INT64_MIN, the lists empty; an explicit attribute equal to its sentinel therefore
// reads as absent. sparse_value and string values are not supported.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "common/movement.h"

namespace ge {
REG_OP(Constant)
    .OUTPUT(output, TensorType::ALL())
    .ATTR(value, Tensor, Tensor())
    .ATTR(value_float, Float, std::numeric_limits<float>::quiet_NaN())
    .ATTR(value_floats, ListFloat, {})
    .ATTR(value_int, Int, INT64_MIN)
    .ATTR(value_ints, ListInt, {})
    .OP_END_FACTORY_REG(Constant);
}  // namespace ge

namespace openatc_ops {
namespace {
struct ConstantValue {
  ge::DataType dtype = ge::DT_FLOAT;
  Dims dims;
  const void *data = nullptr;
  float f = 0;
  int64_t i = 0;
  std::vector<float> fs;
  std::vector<int64_t> is;
};

bool Resolve(const gert::ExtendedKernelContext *ctx, ConstantValue *c) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const gert::Tensor *t = a ? a->GetTensor(0) : nullptr;
  c->f = AttrFloat(ctx, 1, std::numeric_limits<float>::quiet_NaN());
  c->fs = AttrFloats(ctx, 2);
  c->i = AttrInt(ctx, 3, INT64_MIN);
  c->is = AttrInts(ctx, 4);
  const int present = (t != nullptr) + !std::isnan(c->f) + !c->fs.empty() + (c->i != INT64_MIN) + !c->is.empty();
  if (present != 1) {
    Fail(ctx, "exactly one of value, value_float, value_floats, value_int, value_ints must be set (found " +
                  std::to_string(present) + ")");
    return false;
  }
  if (t != nullptr) {
    if (!IsOnnxDtype(t->GetDataType()) || (t->GetAddr() == nullptr && t->GetShapeSize() != 0)) {
      Fail(ctx, "the value attribute's dtype " + DtypeName(t->GetDataType()) + " is not supported");
      return false;
    }
    c->dtype = t->GetDataType();
    c->dims = TensorDims(*t);
    c->data = t->GetAddr();
  } else if (!std::isnan(c->f)) {
    c->data = &c->f;
  } else if (!c->fs.empty()) {
    c->dims = {static_cast<int64_t>(c->fs.size())};
    c->data = c->fs.data();
  } else if (c->i != INT64_MIN) {
    c->dtype = ge::DT_INT64;
    c->data = &c->i;
  } else {
    c->dtype = ge::DT_INT64;
    c->dims = {static_cast<int64_t>(c->is.size())};
    c->data = c->is.data();
  }
  return true;
}
}  // namespace

class Constant : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    ConstantValue c;
    if (!Resolve(ctx, &c)) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, c.dtype);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    ConstantValue c;
    if (!Resolve(ctx, &c)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(c.dims);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    ConstantValue c;
    if (!Resolve(ctx, &c)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, c.dims, c.dtype);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t bytes = static_cast<size_t>(NumElements(c.dims)) * ElemBytes(c.dtype);
    if (bytes != 0) std::memcpy(y->GetAddr(), c.data, bytes);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Constant);

}  // namespace openatc_ops
