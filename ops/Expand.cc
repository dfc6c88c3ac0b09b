// Expand (ONNX Expand-13): broadcasts `input` to the int64 1-D `shape` with ONNX multidirectional
// broadcasting: the output shape is broadcast(input.shape, shape), so a 1 in `shape` keeps the
// input's dim. Any dtype, copied bit for bit.
#include "common/movement.h"

namespace ge {
REG_OP(Expand)
    .INPUT(input, TensorType::ALL())
    .INPUT(shape, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .OP_END_FACTORY_REG(Expand);
}  // namespace ge

namespace openatc_ops {

class Expand : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *s = ctx->GetInputShape(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs input and shape expected");
    const Dims in = ToDims(*x), sd = ToDims(*s);
    std::vector<int64_t> shape;
    Dims out;
    if (in.size() == 1 && in[0] == -2) {
      out = in;
    } else if (KnownInts(ctx, 1, &shape)) {
      if (!BroadcastDims(in, shape, &out))
        return Fail(ctx, "input " + DimsToString(in) + " does not broadcast to shape " + DimsToString(shape));
    } else if (sd.size() == 1 && sd[0] >= 0) {
      if (!BroadcastDims(in, Dims(static_cast<size_t>(sd[0]), -1), &out)) out = {-2};
      for (int64_t &v : out) v = v == 1 ? -1 : v;  // an unknown 1 in shape could be any size
    } else {
      out = {-2};
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1);
    std::vector<int64_t> shape;
    if (x == nullptr || !ReadInts(s, &shape)) return Fail(ctx, "inputs input and int64 shape expected");
    const Dims in = TensorDims(*x);
    for (int64_t v : shape)
      if (v < 0) return Fail(ctx, "shape " + DimsToString(shape) + " has a negative dim");
    Dims out;
    if (!BroadcastDims(in, shape, &out))
      return Fail(ctx, "input " + DimsToString(in) + " does not broadcast to shape " + DimsToString(shape));
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    StridedCopy(x->GetAddr(), y->GetAddr(), ElemBytes(x->GetDataType()), out, BroadcastStrides(in, out), 0);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Expand);

}  // namespace openatc_ops
