// ReverseSequence (ONNX ReverseSequence-10): for each batch entry b (along batch_axis, default 1)
// reverses the first sequence_lens[b] elements along time_axis (default 0) and copies the rest.
// input has rank >= 2; batch_axis and time_axis are 0 or 1 and differ; sequence_lens is int64 of
// the batch size, each value in [0, time dim] (0 and 1 leave the entry unchanged). Any dtype.
#include <cstring>

#include "common/index_util.h"

namespace ge {
REG_OP(ReverseSequence)
    .INPUT(input, TensorType::ALL())
    .INPUT(sequence_lens, TensorType({DT_INT64}))
    .OUTPUT(Y, TensorType::ALL())
    .ATTR(batch_axis, Int, 1)
    .ATTR(time_axis, Int, 0)
    .OP_END_FACTORY_REG(ReverseSequence);
}  // namespace ge

namespace openatc_ops {
namespace {
std::string CheckAxes(int64_t batch, int64_t time, size_t rank) {
  if (rank < 2) return "input must have rank >= 2";
  if ((batch != 0 && batch != 1) || (time != 0 && time != 1) || batch == time)
    return "batch_axis " + std::to_string(batch) + " and time_axis " + std::to_string(time) +
           " must be 0 and 1 in some order";
  return "";
}
}  // namespace

class ReverseSequence : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ElemBytes(ctx->GetInputDataType(0)) == 0)
      return Fail(ctx, "unsupported input dtype " + DtypeName(ctx->GetInputDataType(0)));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims d = ToDims(*x);
    if (!(d.size() == 1 && d[0] == -2)) {
      const std::string err = CheckAxes(AttrInt(ctx, 0, 1), AttrInt(ctx, 1, 0), d.size());
      if (!err.empty()) return Fail(ctx, err);
    }
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    std::vector<int64_t> lens;
    if (!ReadIndexInput(ctx, ctx->GetRequiredInputTensor(1), "sequence_lens", &lens)) return ge::GRAPH_FAILED;
    const Dims d = TensorDims(*x);
    const int64_t ba = AttrInt(ctx, 0, 1), ta = AttrInt(ctx, 1, 0);
    const std::string err = CheckAxes(ba, ta, d.size());
    if (!err.empty()) return Fail(ctx, err);
    const int64_t nb = d[static_cast<size_t>(ba)], nt = d[static_cast<size_t>(ta)];
    if (static_cast<int64_t>(lens.size()) != nb)
      return Fail(ctx, "sequence_lens has " + std::to_string(lens.size()) + " values but the batch dim is " +
                           std::to_string(nb));
    for (size_t b = 0; b < lens.size(); ++b)
      if (lens[b] < 0 || lens[b] > nt)
        return Fail(ctx, "sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[b]) + " is outside [0, " +
                             std::to_string(nt) + "]");
    gert::Tensor *y = AllocChecked(ctx, 0, d, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t row = static_cast<size_t>(Prod(d, 2, d.size())) * ElemBytes(x->GetDataType());
    const uint8_t *in = static_cast<const uint8_t *>(x->GetAddr());
    uint8_t *out = static_cast<uint8_t *>(y->GetAddr());
    for (int64_t b = 0; b < nb; ++b)
      for (int64_t t = 0; t < nt; ++t) {
        const int64_t src_t = t < lens[static_cast<size_t>(b)] ? lens[static_cast<size_t>(b)] - 1 - t : t;
        auto flat = [&](int64_t tt) { return static_cast<size_t>(ta == 0 ? tt * nb + b : b * nt + tt); };
        if (row > 0) std::memcpy(out + flat(t) * row, in + flat(src_t) * row, row);
      }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(ReverseSequence);

}  // namespace openatc_ops
