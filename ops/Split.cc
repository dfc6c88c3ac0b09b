// Split (ONNX Split-13): cuts `input` along `axis` into the node's outputs (DYNAMIC_OUTPUT), of
// the lengths in the optional `split` input (one per output, summing to the axis dim), or in
// equal parts without it (the dim must then divide evenly, as opset 13 requires). Split-18's
// `num_outputs` (must equal the node's output count) allows an uneven split: every part
// ceil(dim / n) long but the last, which takes what is left.
#include <cstdint>
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Split)
    .INPUT(input, TensorType::ALL())
    .OPTIONAL_INPUT(split, TensorType({DT_INT64}))
    .DYNAMIC_OUTPUT(outputs, TensorType::ALL())
    .ATTR(axis, Int, 0)
    .ATTR(num_outputs, Int, 0)
    .OP_END_FACTORY_REG(Split);
}  // namespace ge

namespace openatc_ops {
namespace {
// Part lengths for `dim` (-1 when unknown) into `n` outputs; `split` null = equal parts.
bool Parts(const gert::ExtendedKernelContext *ctx, int64_t dim, size_t n, const std::vector<int64_t> *split,
           std::vector<int64_t> *parts) {
  if (n == 0) {
    Fail(ctx, "the node has no outputs");
    return false;
  }
  const int64_t num_outputs = AttrInt(ctx, 1, 0);
  if (num_outputs != 0 && (split != nullptr || num_outputs != static_cast<int64_t>(n))) {
    Fail(ctx, "num_outputs " + std::to_string(num_outputs) + (split != nullptr ? " and the split input are both given"
                                                                               : " differs from the node's " +
                                                                                     std::to_string(n) + " outputs"));
    return false;
  }
  if (split != nullptr) {
    int64_t sum = 0;
    for (int64_t v : *split) {
      if (v < 0 || v > INT64_MAX - sum) {
        Fail(ctx, "split " + DimsToString(*split) + " has a negative or overflowing length");
        return false;
      }
      sum += v;
    }
    if (split->size() != n || (dim >= 0 && sum != dim)) {
      Fail(ctx, "split " + DimsToString(*split) + " must have one length per output (" + std::to_string(n) +
                    ") summing to the axis dim " + std::to_string(dim));
      return false;
    }
    *parts = *split;
    return true;
  }
  if (dim < 0) {
    parts->assign(n, -1);
    return true;
  }
  const int64_t chunk = (dim + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
  if (num_outputs != 0 && dim % static_cast<int64_t>(n) != 0) {
    const int64_t last = dim - chunk * (static_cast<int64_t>(n) - 1);
    if (last < 0) {
      Fail(ctx, "axis dim " + std::to_string(dim) + " is too short for " + std::to_string(n) + " parts of " +
                    std::to_string(chunk));
      return false;
    }
    parts->assign(n, chunk);
    parts->back() = last;
    return true;
  }
  if (dim % static_cast<int64_t>(n) != 0) {
    Fail(ctx, "axis dim " + std::to_string(dim) + " does not split into " + std::to_string(n) +
                  " equal parts; give the split input");
    return false;
  }
  parts->assign(n, dim / static_cast<int64_t>(n));
  return true;
}
}  // namespace

class Split : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims in = ToDims(*x);
    const size_t n = ctx->GetComputeNodeOutputNum();
    if (in.size() == 1 && in[0] == -2) {
      for (size_t k = 0; k < n; ++k) *ctx->GetOutputShape(k) = *x;
      return ge::GRAPH_SUCCESS;
    }
    int64_t axis = 0;
    const int64_t a = AttrInt(ctx, 0, 0);
    if (!NormalizeAxis(a, static_cast<int64_t>(in.size()), &axis))
      return Fail(ctx, "axis " + std::to_string(a) + " is out of range for input " + DimsToString(in));
    std::vector<int64_t> split, parts;
    const bool has_split = ctx->GetOptionalInputShape(1) != nullptr;
    if (has_split && !ReadInts(ctx->GetOptionalInputTensor(1), &split)) {
      parts.assign(n, -1);  // lengths known at run time only
    } else if (!Parts(ctx, in[axis], n, has_split ? &split : nullptr, &parts)) {
      return ge::GRAPH_FAILED;
    }
    for (size_t k = 0; k < n; ++k) {
      Dims d = in;
      d[axis] = parts[k];
      *ctx->GetOutputShape(k) = ToShape(d);
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims in = TensorDims(*x);
    int64_t axis = 0;
    const int64_t a = AttrInt(ctx, 0, 0);
    if (!NormalizeAxis(a, static_cast<int64_t>(in.size()), &axis))
      return Fail(ctx, "axis " + std::to_string(a) + " is out of range for input " + DimsToString(in));
    const gert::Tensor *s = ctx->GetOptionalInputTensor(1);
    std::vector<int64_t> split, parts;
    if (s != nullptr && !ReadInts(s, &split)) return Fail(ctx, "split must be an int64 tensor");
    const size_t n = ctx->GetComputeNodeOutputNum();
    if (!Parts(ctx, in[axis], n, s ? &split : nullptr, &parts)) return ge::GRAPH_FAILED;
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= in[i];
    size_t inner = ElemBytes(x->GetDataType());
    for (size_t i = static_cast<size_t>(axis) + 1; i < in.size(); ++i) inner *= static_cast<size_t>(in[i]);
    const size_t row = static_cast<size_t>(in[axis]) * inner;
    size_t start = 0;
    for (size_t k = 0; k < n; ++k) {
      Dims d = in;
      d[axis] = parts[k];
      gert::Tensor *y = AllocChecked(ctx, k, d, x->GetDataType());
      if (y == nullptr) return ge::GRAPH_FAILED;
      const size_t block = static_cast<size_t>(parts[k]) * inner;
      auto *dst = static_cast<uint8_t *>(y->GetAddr());
      for (int64_t o = 0; block != 0 && o < outer; ++o)
        std::memcpy(dst + static_cast<size_t>(o) * block,
                    static_cast<const uint8_t *>(x->GetAddr()) + static_cast<size_t>(o) * row + start, block);
      start += block;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Split);

}  // namespace openatc_ops
