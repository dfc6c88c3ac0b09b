// Tile (ONNX Tile-13): repeats `input` repeats[i] times along each axis i (int64 1-D `repeats`,
// one non-negative value per axis); output dim i = dim i x repeats[i].
#include <cstdint>

#include "common/movement.h"

namespace ge {
REG_OP(Tile)
    .INPUT(input, TensorType::ALL())
    .INPUT(repeats, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .OP_END_FACTORY_REG(Tile);
}  // namespace ge

namespace openatc_ops {
namespace {
bool CheckRepeats(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> &rep) {
  bool ok = rep.size() == in.size();
  for (int64_t r : rep) ok = ok && r >= 0;
  if (!ok)
    Fail(ctx, "repeats " + DimsToString(rep) + " must hold one non-negative value per axis of input " + DimsToString(in));
  return ok;
}
}  // namespace

class Tile : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "inputs input and repeats expected");
    const Dims in = ToDims(*x);
    std::vector<int64_t> rep;
    Dims out(in.size(), -1);
    if (in.size() == 1 && in[0] == -2) {
      out = in;
    } else if (KnownInts(ctx, 1, &rep)) {
      if (!CheckRepeats(ctx, in, rep)) return ge::GRAPH_FAILED;
      for (size_t i = 0; i < in.size(); ++i) out[i] = in[i] < 0 ? -1 : in[i] * rep[i];
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> rep;
    if (x == nullptr || !ReadInts(ctx->GetInputTensor(1), &rep)) return Fail(ctx, "inputs input and int64 repeats expected");
    const Dims in = TensorDims(*x);
    if (!CheckRepeats(ctx, in, rep)) return ge::GRAPH_FAILED;
    // Walk [r0, d0, r1, d1, ...] (stride 0 on the repeat axes): row-major over these pairs is
    // exactly output index r * d + j on each axis. Sizes are checked first (no overflow).
    Dims walk, out;
    std::vector<int64_t> strides;
    const std::vector<int64_t> in_strides = ContiguousStrides(in);
    Dims both = rep;
    both.insert(both.end(), in.begin(), in.end());
    int64_t count = 0;
    bool fits = CheckedCount(both, ElemBytes(x->GetDataType()), &count);
    for (size_t i = 0; i < in.size(); ++i) fits = fits && (in[i] == 0 || rep[i] <= INT64_MAX / in[i]);
    if (!fits) return Fail(ctx, "repeats " + DimsToString(rep) + " make the output larger than the 4 GiB limit of built-in ops");
    for (size_t i = 0; i < in.size(); ++i) {
      walk.push_back(rep[i]);
      walk.push_back(in[i]);
      strides.push_back(0);
      strides.push_back(in_strides[i]);
      out.push_back(in[i] * rep[i]);
    }
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    StridedCopy(x->GetAddr(), y->GetAddr(), ElemBytes(x->GetDataType()), walk, strides, 0);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Tile);

}  // namespace openatc_ops
