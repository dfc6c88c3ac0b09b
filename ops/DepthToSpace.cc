// DepthToSpace (ONNX DepthToSpace-13): rearranges [N, C, H, W] into [N, C/(b*b), H*b, W*b]
// (b = blocksize; C must be a multiple of b*b). mode "DCR" (default) reads the depth as
// [b, b, C/(b*b)], "CRD" as [C/(b*b), b, b]. Any dtype (bytes are moved, not interpreted).
#include "common/block_shuffle.h"

namespace ge {
REG_OP(DepthToSpace)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .REQUIRED_ATTR(blocksize, Int)
    .ATTR(mode, String, "DCR")
    .OP_END_FACTORY_REG(DepthToSpace);
}  // namespace ge

namespace openatc_ops {
namespace {
bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &in, int64_t b, bool *crd, Dims *out) {
  const std::string mode = AttrStr(ctx, 1, "DCR");
  if (mode != "DCR" && mode != "CRD") return Fail(ctx, "mode '" + mode + "' is not DCR or CRD"), false;
  *crd = mode == "CRD";
  if (in.size() != 4) return Fail(ctx, "input " + DimsToString(in) + " must be 4-D [N, C, H, W]"), false;
  if (in[1] >= 0 && in[1] % (b * b) != 0)
    return Fail(ctx, "channels " + std::to_string(in[1]) + " of input " + DimsToString(in) +
                         " are not a multiple of blocksize^2 = " + std::to_string(b * b)),
           false;
  auto mul = [b](int64_t v) { return v < 0 ? -1 : v * b; };
  *out = {in[0], in[1] < 0 ? -1 : in[1] / (b * b), mul(in[2]), mul(in[3])};
  return true;
}
}  // namespace

class DepthToSpace : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    int64_t b = 0;
    bool crd = false;
    Dims out{-2};
    const Dims in = ToDims(*x);
    if (!BlockSize(ctx, 0, &b)) return ge::GRAPH_FAILED;
    if (!(in.size() == 1 && in[0] == -2) && !OutDims(ctx, in, b, &crd, &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    int64_t b = 0;
    bool crd = false;
    Dims out;
    const Dims in = TensorDims(*x);
    if (!BlockSize(ctx, 0, &b) || !OutDims(ctx, in, b, &crd, &out)) return ge::GRAPH_FAILED;
    const int64_t c = out[1];
    if (crd) return BlockShuffle(ctx, *x, {in[0], c, b, b, in[2], in[3]}, {0, 1, 4, 2, 5, 3}, out);
    return BlockShuffle(ctx, *x, {in[0], b, b, c, in[2], in[3]}, {0, 3, 4, 1, 5, 2}, out);
  }
};
REG_AUTO_MAPPING_OP(DepthToSpace);

}  // namespace openatc_ops
