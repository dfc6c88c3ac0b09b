// Shape (ONNX Shape-15): the input's dims as an int64 1-D tensor, sliced to [start, end) (both
// attributes optional; negative values add the rank, then clamp to [0, rank]; an absent end is
// the rank). Size (ONNX Size-13) is in Size.cc.
#include <cstdint>

#include "common/movement.h"

namespace ge {
REG_OP(Shape)
    .INPUT(data, TensorType::ALL())
    .OUTPUT(shape, TensorType({DT_INT64}))
    .ATTR(start, Int, 0)
    .ATTR(end, Int, INT64_MAX)
    .OP_END_FACTORY_REG(Shape);
}  // namespace ge

namespace openatc_ops {
namespace {
// [begin, end) of the dims of a rank-`rank` input.
void Range(const gert::ExtendedKernelContext *ctx, int64_t rank, int64_t *b, int64_t *e) {
  int64_t s = AttrInt(ctx, 0, 0), t = AttrInt(ctx, 1, INT64_MAX);
  if (s < 0) s += rank;
  if (t < 0) t += rank;
  *b = s < 0 ? 0 : (s > rank ? rank : s);
  *e = t < 0 ? 0 : (t > rank ? rank : t);
  if (*e < *b) *e = *b;
}
}  // namespace

class Shape : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return ctx->SetOutputDataType(0, ge::DT_INT64); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = ToDims(*x);
    if (in.size() == 1 && in[0] == -2) {
      *ctx->GetOutputShape(0) = ToShape({-1});
      return ge::GRAPH_SUCCESS;
    }
    int64_t b = 0, e = 0;
    Range(ctx, static_cast<int64_t>(in.size()), &b, &e);
    *ctx->GetOutputShape(0) = ToShape({e - b});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = TensorDims(*x);
    int64_t b = 0, e = 0;
    Range(ctx, static_cast<int64_t>(in.size()), &b, &e);
    gert::Tensor *y = AllocChecked(ctx, 0, {e - b}, ge::DT_INT64);
    if (y == nullptr) return ge::GRAPH_FAILED;
    for (int64_t i = b; i < e; ++i) y->GetData<int64_t>()[i - b] = in[i];
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Shape);

}  // namespace openatc_ops
