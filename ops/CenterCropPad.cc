// CenterCropPad (ONNX CenterCropPad-18): crops or zero-pads `input_data` to `shape` (int64, one
// length per axis of `axes`, default every axis; negative axes count from the back), centred: an
// axis of length d cropped to t < d starts at floor((d - t) / 2); padded to t > d, the data starts
// at floor((t - d) / 2) and the rest is zeros. Any dtype (bytes are moved).
#include <cstdint>
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(CenterCropPad)
    .INPUT(input_data, TensorType::ALL())
    .INPUT(shape, TensorType({DT_INT64, DT_INT32}))
    .OUTPUT(output_data, TensorType::ALL())
    .ATTR(axes, ListInt, {})
    .OP_END_FACTORY_REG(CenterCropPad);
}  // namespace ge

namespace openatc_ops {
namespace {
// Output dims for input `in` (all known) and `shape` over `axes`; false with a message.
bool TargetDims(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> &shape, Dims *out) {
  std::vector<int64_t> axes = AttrInts(ctx, 0);
  if (axes.empty())
    for (size_t i = 0; i < in.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (shape.size() != axes.size()) {
    Fail(ctx, "shape " + DimsToString(shape) + " must have one length per axis (" + std::to_string(axes.size()) + ")");
    return false;
  }
  *out = in;
  std::vector<bool> seen(in.size(), false);
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a = 0;
    if (!NormalizeAxis(axes[k], static_cast<int64_t>(in.size()), &a) || seen[static_cast<size_t>(a)] || shape[k] < 0) {
      Fail(ctx, "axes " + DimsToString(axes) + " / shape " + DimsToString(shape) +
                    ": an axis is out of range or repeated, or a length is negative");
      return false;
    }
    seen[static_cast<size_t>(a)] = true;
    (*out)[static_cast<size_t>(a)] = shape[k];
  }
  return true;
}
}  // namespace

class CenterCropPad : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input_data expected");
    const Dims in = ToDims(*x);
    std::vector<int64_t> shape;
    Dims out;
    if (in.size() == 1 && in[0] == -2) out = in;
    else if (!KnownInts(ctx, 1, &shape)) out.assign(in.size(), -1);
    else if (!TargetDims(ctx, in, shape, &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> shape;
    if (x == nullptr || !ReadInts(ctx->GetRequiredInputTensor(1), &shape)) return Fail(ctx, "input_data and shape expected");
    const Dims in = TensorDims(*x);
    Dims out;
    if (!TargetDims(ctx, in, shape, &out)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t eb = ElemBytes(x->GetDataType());
    const int64_t total = NumElements(out);
    if (total == 0) return ge::GRAPH_SUCCESS;
    std::memset(y->GetAddr(), 0, static_cast<size_t>(total) * eb);
    const std::vector<int64_t> in_strides = ContiguousStrides(in);
    // Per axis: output index o reads input o + shift (crop: shift > 0, pad: shift < 0).
    std::vector<int64_t> shift(in.size());
    for (size_t a = 0; a < in.size(); ++a)
      shift[a] = in[a] >= out[a] ? (in[a] - out[a]) / 2 : -((out[a] - in[a]) / 2);
    std::vector<int64_t> idx(out.size(), 0);
    const auto *src = static_cast<const uint8_t *>(x->GetAddr());
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    for (int64_t o = 0; o < total; ++o) {
      int64_t s = 0;
      bool inside = true;
      for (size_t a = 0; a < out.size() && inside; ++a) {
        const int64_t i = idx[a] + shift[a];
        inside = i >= 0 && i < in[a];
        s += i * in_strides[a];
      }
      if (inside) std::memcpy(dst + static_cast<size_t>(o) * eb, src + static_cast<size_t>(s) * eb, eb);
      for (size_t a = out.size(); a-- > 0;) {  // odometer over the output index
        if (++idx[a] < out[a]) break;
        idx[a] = 0;
      }
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(CenterCropPad);

}  // namespace openatc_ops
