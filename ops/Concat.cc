// Concat (ONNX Concat-13): joins the variadic `inputs` (same dtype, same rank, equal dims except
// on `axis`) along `axis` (negative counts from the end). Any dtype, copied bit for bit.
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Concat)
    .DYNAMIC_INPUT(inputs, TensorType::ALL())
    .OUTPUT(concat_result, TensorType::ALL())
    .REQUIRED_ATTR(axis, Int)
    .OP_END_FACTORY_REG(Concat);
}  // namespace ge

namespace openatc_ops {
namespace {
// Output dims of concatenating `ins` (dims may be -1 at compile time); *axis_out normalised.
bool ConcatDims(const gert::ExtendedKernelContext *ctx, const std::vector<Dims> &ins, Dims *out, int64_t *axis_out) {
  if (ins.empty()) {
    Fail(ctx, "at least one input expected");
    return false;
  }
  const int64_t rank = static_cast<int64_t>(ins[0].size());
  const int64_t axis = AttrInt(ctx, 0, 0);
  if (!NormalizeAxis(axis, rank, axis_out)) {
    Fail(ctx, "axis " + std::to_string(axis) + " is out of range for inputs of rank " + std::to_string(rank));
    return false;
  }
  *out = ins[0];
  for (size_t k = 1; k < ins.size(); ++k) {
    const Dims &d = ins[k];
    bool ok = d.size() == ins[0].size();
    for (size_t i = 0; ok && i < d.size(); ++i) {
      if (static_cast<int64_t>(i) == *axis_out) {
        (*out)[i] = (*out)[i] < 0 || d[i] < 0 ? -1 : (*out)[i] + d[i];
      } else if (d[i] >= 0 && (*out)[i] >= 0) {
        ok = d[i] == (*out)[i];
      } else if ((*out)[i] < 0) {
        (*out)[i] = d[i];
      }
    }
    if (!ok) {
      Fail(ctx, "input " + std::to_string(k) + " " + DimsToString(d) + " does not match input 0 " +
                    DimsToString(ins[0]) + " outside axis " + std::to_string(*axis_out));
      return false;
    }
  }
  return true;
}
}  // namespace

class Concat : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    for (size_t i = 1; i < ctx->GetComputeNodeInputNum(); ++i)
      if (ctx->GetInputDataType(i) != d)
        return Fail(ctx, "input " + std::to_string(i) + " is " + DtypeName(ctx->GetInputDataType(i)) + " but input 0 is " +
                             DtypeName(d));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    std::vector<Dims> ins;
    for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) {
      const gert::Shape *s = ctx->GetInputShape(i);
      if (s == nullptr) return Fail(ctx, "input " + std::to_string(i) + " has no shape");
      ins.push_back(ToDims(*s));
      if (ins.back().size() == 1 && ins.back()[0] == -2) {
        *ctx->GetOutputShape(0) = ToShape({-2});
        return ge::GRAPH_SUCCESS;
      }
    }
    Dims out;
    int64_t axis = 0;
    if (!ConcatDims(ctx, ins, &out, &axis)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<const gert::Tensor *> xs;
    std::vector<Dims> ins;
    for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) {
      const gert::Tensor *t = ctx->GetInputTensor(i);
      if (t == nullptr) return Fail(ctx, "input " + std::to_string(i) + " is missing");
      if (t->GetDataType() != ctx->GetInputTensor(0)->GetDataType()) return Fail(ctx, "input dtypes differ");
      xs.push_back(t);
      ins.push_back(TensorDims(*t));
    }
    Dims out;
    int64_t axis = 0;
    if (!ConcatDims(ctx, ins, &out, &axis)) return ge::GRAPH_FAILED;
    const ge::DataType dtype = xs[0]->GetDataType();
    gert::Tensor *y = AllocChecked(ctx, 0, out, dtype);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t esize = ElemBytes(dtype);
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= out[i];
    size_t inner = esize;
    for (size_t i = static_cast<size_t>(axis) + 1; i < out.size(); ++i) inner *= static_cast<size_t>(out[i]);
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t k = 0; k < xs.size(); ++k) {
        const size_t block = static_cast<size_t>(ins[k][axis]) * inner;
        if (block == 0) continue;
        const uint8_t *src = static_cast<const uint8_t *>(xs[k]->GetAddr()) + static_cast<size_t>(o) * block;
        if (src != dst) std::memmove(dst, src, block);  // equal: atc placed the input there (memory_plan.cc)
        dst += block;
      }
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Concat);

}  // namespace openatc_ops
