// Squeeze (ONNX Squeeze-13): removes the size-1 dims listed in the optional `axes` input
// (negative axes count from the end; each must be size 1), or every size-1 dim without it.
#include <algorithm>

#include "common/movement.h"

namespace ge {
REG_OP(Squeeze)
    .INPUT(data, TensorType::ALL())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(squeezed, TensorType::ALL())
    .OP_END_FACTORY_REG(Squeeze);
}  // namespace ge

namespace openatc_ops {
namespace {
// The squeezed dims; `axes` null = all size-1 dims. Unknown (-1) dims listed in axes are taken to
// be 1 (checked again at run time). Fails with a message on a bad axis.
bool SqueezeDims(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> *axes, Dims *out) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes == nullptr) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  } else {
    for (int64_t a : *axes) {
      int64_t n = 0;
      if (!NormalizeAxis(a, rank, &n)) {
        Fail(ctx, "axis " + std::to_string(a) + " is out of range for input " + DimsToString(in));
        return false;
      }
      if (drop[n]) {
        Fail(ctx, "axis " + std::to_string(a) + " is listed twice in axes");
        return false;
      }
      if (in[n] >= 0 && in[n] != 1) {
        Fail(ctx, "cannot squeeze axis " + std::to_string(a) + " of input " + DimsToString(in) + ": its size is " +
                      std::to_string(in[n]) + ", not 1");
        return false;
      }
      drop[n] = true;
    }
  }
  out->clear();
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i]) out->push_back(in[i]);
  return true;
}
}  // namespace

class Squeeze : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    const Dims in = ToDims(*x);
    const gert::Shape *axes_shape = ctx->GetOptionalInputShape(1);
    std::vector<int64_t> axes;
    Dims out;
    const bool unknown_rank = in.size() == 1 && in[0] == -2;
    if (axes_shape != nullptr && !ReadInts(ctx->GetOptionalInputTensor(1), &axes)) {
      // Axes known only at run time: the rank is known when their count is.
      const Dims ad = ToDims(*axes_shape);
      if (!unknown_rank && ad.size() == 1 && ad[0] >= 0 && ad[0] <= static_cast<int64_t>(in.size()))
        out.assign(in.size() - static_cast<size_t>(ad[0]), -1);
      else
        out = {-2};
    } else if (unknown_rank || (axes_shape == nullptr && std::count(in.begin(), in.end(), -1) > 0)) {
      out = {-2};  // which dims are 1 is unknown
    } else if (!SqueezeDims(ctx, in, axes_shape ? &axes : nullptr, &out)) {
      return ge::GRAPH_FAILED;
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    const gert::Tensor *a = ctx->GetOptionalInputTensor(1);
    std::vector<int64_t> axes;
    if (a != nullptr && !ReadInts(a, &axes)) return Fail(ctx, "axes must be an int64 tensor");
    Dims out;
    if (!SqueezeDims(ctx, TensorDims(*x), a ? &axes : nullptr, &out)) return ge::GRAPH_FAILED;
    return Input0AsOutput0(ctx, out);
  }
};
REG_AUTO_MAPPING_OP(Squeeze);

}  // namespace openatc_ops
