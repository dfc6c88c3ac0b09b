// Flatten (ONNX Flatten-13): the input as a 2-D matrix [prod(dims[:axis]), prod(dims[axis:])];
// axis in [-r, r], default 1.
#include "common/movement.h"

namespace ge {
REG_OP(Flatten)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, 1)
    .OP_END_FACTORY_REG(Flatten);
}  // namespace ge

namespace openatc_ops {
namespace {
// Product of d[from, to), -1 when one of them is unknown.
int64_t Product(const Dims &d, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) {
    if (d[i] < 0) return -1;
    p *= d[i];
  }
  return p;
}
bool FlattenDims(const gert::ExtendedKernelContext *ctx, const Dims &in, Dims *out) {
  const int64_t rank = static_cast<int64_t>(in.size());
  int64_t axis = AttrInt(ctx, 0, 1);
  if (axis < -rank || axis > rank) {
    Fail(ctx, "axis " + std::to_string(axis) + " is out of range [" + std::to_string(-rank) + ", " +
                  std::to_string(rank) + "] for input " + DimsToString(in));
    return false;
  }
  if (axis < 0) axis += rank;
  *out = {Product(in, 0, static_cast<size_t>(axis)), Product(in, static_cast<size_t>(axis), in.size())};
  return true;
}
}  // namespace

class Flatten : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    Dims in = ToDims(*x), out;
    if (in.size() == 1 && in[0] == -2) {
      *ctx->GetOutputShape(0) = ToShape({-1, -1});
      return ge::GRAPH_SUCCESS;
    }
    if (!FlattenDims(ctx, in, &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    Dims out;
    if (!FlattenDims(ctx, TensorDims(*x), &out)) return ge::GRAPH_FAILED;
    return Input0AsOutput0(ctx, out);
  }
};
REG_AUTO_MAPPING_OP(Flatten);

}  // namespace openatc_ops
