// ConstantOfShape (ONNX ConstantOfShape-9): a tensor of the int64 1-D `shape` input (an empty
// shape gives a scalar), every element equal to the one-element `value` tensor attribute, whose
// dtype is the output's; without `value`, float32 zeros.
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(ConstantOfShape)
    .INPUT(input, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(value, Tensor, Tensor())
    .OP_END_FACTORY_REG(ConstantOfShape);
}  // namespace ge

namespace openatc_ops {
namespace {
// The `value` attribute (nullptr when absent); fails unless it has exactly one element.
bool Value(const gert::ExtendedKernelContext *ctx, const gert::Tensor **v) {
  const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
  *v = attrs ? attrs->GetTensor(0) : nullptr;
  if (*v != nullptr && ((*v)->GetShapeSize() != 1 || !IsOnnxDtype((*v)->GetDataType()) || (*v)->GetAddr() == nullptr)) {
    Fail(ctx, "the value attribute must be a one-element numeric or bool tensor, got " +
                  DimsToString(TensorDims(**v)) + " " + DtypeName((*v)->GetDataType()));
    return false;
  }
  return true;
}
}  // namespace

class ConstantOfShape : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const gert::Tensor *v = nullptr;
    if (!Value(ctx, &v)) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, v ? v->GetDataType() : ge::DT_FLOAT);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *s = ctx->GetInputShape(0);
    if (s == nullptr) return Fail(ctx, "input shape expected");
    std::vector<int64_t> shape;
    Dims out = {-2};
    if (KnownInts(ctx, 0, &shape)) {
      for (int64_t v : shape)
        if (v < 0) return Fail(ctx, "shape " + DimsToString(shape) + " has a negative dim");
      out = shape;
    } else if (s->GetDimNum() == 1 && s->GetDim(0) >= 0) {
      out.assign(static_cast<size_t>(s->GetDim(0)), -1);
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<int64_t> shape;
    if (!ReadInts(ctx->GetInputTensor(0), &shape)) return Fail(ctx, "an int64 shape input expected");
    const gert::Tensor *v = nullptr;
    if (!Value(ctx, &v)) return ge::GRAPH_FAILED;
    const ge::DataType dtype = v ? v->GetDataType() : ge::DT_FLOAT;
    gert::Tensor *y = AllocChecked(ctx, 0, shape, dtype);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t esize = ElemBytes(dtype);
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    const int64_t n = y->GetShapeSize();
    if (v == nullptr) {
      if (n > 0) std::memset(dst, 0, static_cast<size_t>(n) * esize);
      return ge::GRAPH_SUCCESS;
    }
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + static_cast<size_t>(i) * esize, v->GetAddr(), esize);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(ConstantOfShape);

}  // namespace openatc_ops
