// SpaceToDepth (ONNX SpaceToDepth-13): rearranges [N, C, H, W] into [N, C*b*b, H/b, W/b]
// (b = blocksize; H and W must be multiples of b); the new depth is ordered [b, b, C]. Any dtype.
#include "common/block_shuffle.h"

namespace ge {
REG_OP(SpaceToDepth)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .REQUIRED_ATTR(blocksize, Int)
    .OP_END_FACTORY_REG(SpaceToDepth);
}  // namespace ge

namespace openatc_ops {
namespace {
bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &in, int64_t b, Dims *out) {
  if (in.size() != 4) return Fail(ctx, "input " + DimsToString(in) + " must be 4-D [N, C, H, W]"), false;
  for (size_t i = 2; i < 4; ++i)
    if (in[i] >= 0 && in[i] % b != 0)
      return Fail(ctx, "dim " + std::to_string(i) + " of input " + DimsToString(in) + " is not a multiple of blocksize " +
                           std::to_string(b)),
             false;
  auto div = [b](int64_t v) { return v < 0 ? -1 : v / b; };
  *out = {in[0], in[1] < 0 ? -1 : in[1] * b * b, div(in[2]), div(in[3])};
  return true;
}
}  // namespace

class SpaceToDepth : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    int64_t b = 0;
    Dims out{-2};
    const Dims in = ToDims(*x);
    if (!BlockSize(ctx, 0, &b)) return ge::GRAPH_FAILED;
    if (!(in.size() == 1 && in[0] == -2) && !OutDims(ctx, in, b, &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    int64_t b = 0;
    Dims out;
    const Dims in = TensorDims(*x);
    if (!BlockSize(ctx, 0, &b) || !OutDims(ctx, in, b, &out)) return ge::GRAPH_FAILED;
    return BlockShuffle(ctx, *x, {in[0], in[1], out[2], b, out[3], b}, {0, 3, 5, 1, 2, 4}, out);
  }
};
REG_AUTO_MAPPING_OP(SpaceToDepth);

}  // namespace openatc_ops
