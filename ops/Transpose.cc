// Transpose (ONNX Transpose-13): output dim i is input dim perm[i]; perm defaults to the
// reversed axes. Any dtype, copied bit for bit.
#include "common/movement.h"

namespace ge {
REG_OP(Transpose)
    .INPUT(data, TensorType::ALL())
    .OUTPUT(transposed, TensorType::ALL())
    .ATTR(perm, ListInt, {})
    .OP_END_FACTORY_REG(Transpose);
}  // namespace ge

namespace openatc_ops {
namespace {
// perm for `rank` (the default reversal when the attribute is empty); fails on a non-permutation.
bool Perm(const gert::ExtendedKernelContext *ctx, size_t rank, std::vector<int64_t> *perm) {
  *perm = AttrInts(ctx, 0);
  if (perm->empty()) {
    for (size_t i = rank; i-- > 0;) perm->push_back(static_cast<int64_t>(i));
    return true;
  }
  std::vector<bool> seen(rank, false);
  bool ok = perm->size() == rank;
  for (size_t i = 0; ok && i < perm->size(); ++i) {
    const int64_t p = (*perm)[i];
    ok = p >= 0 && p < static_cast<int64_t>(rank) && !seen[p];
    if (ok) seen[p] = true;
  }
  if (!ok) Fail(ctx, "perm " + DimsToString(*perm) + " is not a permutation of the " + std::to_string(rank) + " input axes");
  return ok;
}
}  // namespace

class Transpose : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = ToDims(*x);
    if (in.size() == 1 && in[0] == -2) {
      *ctx->GetOutputShape(0) = *x;
      return ge::GRAPH_SUCCESS;
    }
    std::vector<int64_t> perm;
    if (!Perm(ctx, in.size(), &perm)) return ge::GRAPH_FAILED;
    Dims out;
    for (int64_t p : perm) out.push_back(in[p]);
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = TensorDims(*x);
    std::vector<int64_t> perm;
    if (!Perm(ctx, in.size(), &perm)) return ge::GRAPH_FAILED;
    const std::vector<int64_t> in_strides = ContiguousStrides(in);
    Dims out;
    std::vector<int64_t> strides;
    for (int64_t p : perm) {
      out.push_back(in[p]);
      strides.push_back(in_strides[p]);
    }
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    StridedCopy(x->GetAddr(), y->GetAddr(), ElemBytes(x->GetDataType()), out, strides, 0);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Transpose);

}  // namespace openatc_ops
