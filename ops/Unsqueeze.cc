// Unsqueeze (ONNX Unsqueeze-13): inserts size-1 dims at the positions of the `axes` input, which
// index the OUTPUT (rank r + len(axes)); negative axes count from its end; no duplicates.
#include "common/movement.h"

namespace ge {
REG_OP(Unsqueeze)
    .INPUT(data, TensorType::ALL())
    .INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(expanded, TensorType::ALL())
    .OP_END_FACTORY_REG(Unsqueeze);
}  // namespace ge

namespace openatc_ops {
namespace {
bool UnsqueezeDims(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> &axes, Dims *out) {
  const int64_t rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> ones(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t n = 0;
    if (!NormalizeAxis(a, rank, &n)) {
      Fail(ctx, "axis " + std::to_string(a) + " is out of range [" + std::to_string(-rank) + ", " +
                    std::to_string(rank - 1) + "] for output rank " + std::to_string(rank));
      return false;
    }
    if (ones[n]) {
      Fail(ctx, "axis " + std::to_string(a) + " is listed twice in axes " + DimsToString(axes));
      return false;
    }
    ones[n] = true;
  }
  out->clear();
  size_t k = 0;
  for (size_t i = 0; i < ones.size(); ++i) out->push_back(ones[i] ? 1 : in[k++]);
  return true;
}
}  // namespace

class Unsqueeze : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *a = ctx->GetInputShape(1);
    if (x == nullptr || a == nullptr) return Fail(ctx, "inputs data and axes expected");
    const Dims in = ToDims(*x), ad = ToDims(*a);
    const bool unknown_rank = in.size() == 1 && in[0] == -2;
    std::vector<int64_t> axes;
    Dims out;
    if (!unknown_rank && KnownInts(ctx, 1, &axes)) {
      if (!UnsqueezeDims(ctx, in, axes, &out)) return ge::GRAPH_FAILED;
    } else if (!unknown_rank && ad.size() <= 1 && (ad.empty() || ad[0] >= 0)) {
      out.assign(in.size() + static_cast<size_t>(ad.empty() ? 1 : ad[0]), -1);
    } else {
      out = {-2};
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> axes;
    if (x == nullptr || !ReadInts(ctx->GetInputTensor(1), &axes)) return Fail(ctx, "inputs data and int64 axes expected");
    Dims out;
    if (!UnsqueezeDims(ctx, TensorDims(*x), axes, &out)) return ge::GRAPH_FAILED;
    return Input0AsOutput0(ctx, out);
  }
};
REG_AUTO_MAPPING_OP(Unsqueeze);

}  // namespace openatc_ops
