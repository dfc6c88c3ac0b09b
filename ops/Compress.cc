// Compress (ONNX Compress-11): the slices of `input` along `axis` whose entry in the 1-D bool
// `condition` is true (numpy.compress); without `axis` the input is flattened first. condition
// may be shorter than the axis (missing entries count as false); a true entry beyond the axis
// fails. Any dtype (bytes are moved, not interpreted).
#include <cstring>
#include <limits>

#include "common/index_util.h"

namespace ge {
REG_OP(Compress)
    .INPUT(input, TensorType::ALL())
    .INPUT(condition, TensorType({DT_BOOL}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, INT64_MIN)  // INT64_MIN: absent (flatten)
    .OP_END_FACTORY_REG(Compress);
}  // namespace ge

namespace openatc_ops {
namespace {
constexpr int64_t kNoAxis = std::numeric_limits<int64_t>::min();

// Output dims for `count` selected slices; sets *axis (-1: flattened).
bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &in, int64_t count, Dims *out, int64_t *axis) {
  const int64_t a = AttrInt(ctx, 0, kNoAxis);
  if (a == kNoAxis) {
    *axis = -1;
    *out = {count};
    return true;
  }
  if (!NormalizeAxis(a, static_cast<int64_t>(in.size()), axis))
    return Fail(ctx, "axis " + std::to_string(a) + " is out of range for input " + DimsToString(in)), false;
  *out = in;
  (*out)[static_cast<size_t>(*axis)] = count;
  return true;
}
}  // namespace

class Compress : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ctx->GetInputDataType(1) != ge::DT_BOOL)
      return Fail(ctx, "condition must be bool, got " + DtypeName(ctx->GetInputDataType(1)));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims in = ToDims(*x);
    Dims out{-2};
    int64_t axis = 0;
    if (!(in.size() == 1 && in[0] == -2) && !OutDims(ctx, in, -1, &out, &axis)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *c = ctx->GetInputTensor(1);
    if (x == nullptr || c == nullptr) return Fail(ctx, "inputs input and condition expected");
    if (c->GetDataType() != ge::DT_BOOL) return Fail(ctx, "condition must be bool, got " + DtypeName(c->GetDataType()));
    const Dims cd = TensorDims(*c);
    if (cd.size() != 1) return Fail(ctx, "condition " + DimsToString(cd) + " must be 1-D");
    const Dims in = TensorDims(*x);
    Dims out;
    int64_t axis = 0;
    if (!OutDims(ctx, in, 0, &out, &axis)) return ge::GRAPH_FAILED;
    const Dims flat{NumElements(in)};
    const Dims &view = axis < 0 ? flat : in;
    const size_t ax = axis < 0 ? 0 : static_cast<size_t>(axis);
    const int64_t n = view[ax];
    std::vector<int64_t> picked;
    const uint8_t *cv = static_cast<const uint8_t *>(c->GetAddr());
    for (int64_t i = 0; i < cd[0]; ++i) {
      if (cv[i] == 0) continue;
      if (i >= n)
        return Fail(ctx, "condition has a true entry at " + std::to_string(i) + ", beyond size " + std::to_string(n) +
                             " of the compressed axis");
      picked.push_back(i);
    }
    Dims od = view;
    od[ax] = static_cast<int64_t>(picked.size());
    if (axis >= 0) out = od;
    else out = {static_cast<int64_t>(picked.size())};
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t eb = ElemBytes(x->GetDataType());
    const int64_t outer = Prod(view, 0, ax);
    const size_t row = static_cast<size_t>(Prod(view, ax + 1, view.size())) * eb;
    if (row == 0 || picked.empty()) return ge::GRAPH_SUCCESS;
    const auto *src = static_cast<const uint8_t *>(x->GetAddr());
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t p : picked) {
        std::memcpy(dst, src + (static_cast<size_t>(o * n + p)) * row, row);
        dst += row;
      }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Compress);

}  // namespace openatc_ops
