// Reshape (ONNX Reshape-14): the data of `data` under a new shape. In `shape`, -1 (at most once)
// is inferred from the element count, and 0 copies the input's dim at that index unless
// allowzero=1, where 0 is a real zero-sized dim (and -1 may then not appear with a 0).
#include "common/movement.h"

namespace ge {
REG_OP(Reshape)
    .INPUT(data, TensorType::ALL())
    .INPUT(shape, TensorType({DT_INT64}))
    .OUTPUT(reshaped, TensorType::ALL())
    .ATTR(allowzero, Int, 0)
    .OP_END_FACTORY_REG(Reshape);
}  // namespace ge

namespace openatc_ops {
namespace {
// The output dims for input dims `in` (which may hold -1 at compile time) and the `shape` values;
// an empty string on success, else what is wrong.
std::string ReshapeDims(const Dims &in, const std::vector<int64_t> &shape, bool allowzero, Dims *out) {
  Dims r(shape.size());
  int64_t infer_at = -1;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t v = shape[i];
    if (v == -1) {
      if (infer_at >= 0) return "shape " + DimsToString(shape) + " has more than one -1";
      infer_at = static_cast<int64_t>(i);
    } else if (v == 0 && !allowzero) {
      if (i >= in.size())
        return "shape " + DimsToString(shape) + " has 0 at index " + std::to_string(i) +
               " (copy the input dim) but the input " + DimsToString(in) + " has rank " + std::to_string(in.size());
      r[i] = in[i];
    } else if (v < 0) {
      return "shape " + DimsToString(shape) + " has the invalid value " + std::to_string(v) + " (only -1 is allowed)";
    } else {
      has_zero = has_zero || v == 0;
      r[i] = v;
    }
  }
  if (allowzero && has_zero && infer_at >= 0)
    return "shape " + DimsToString(shape) + " has both 0 and -1, which allowzero=1 forbids";
  const int64_t total = NumElements(in);
  if (infer_at >= 0) {
    int64_t known = 1;
    bool unknown = total < 0;
    for (size_t i = 0; i < r.size(); ++i) {
      if (static_cast<int64_t>(i) == infer_at) continue;
      if (r[i] < 0) unknown = true;
      else known *= r[i];
    }
    if (unknown) {
      r[infer_at] = -1;
    } else if (known == 0) {
      if (total != 0) return "shape " + DimsToString(shape) + " cannot infer -1 next to a zero-sized dim";
      r[infer_at] = 0;
    } else {
      if (total % known != 0)
        return "input " + DimsToString(in) + " (" + std::to_string(total) + " elements) cannot be reshaped to " +
               DimsToString(shape);
      r[infer_at] = total / known;
    }
  } else if (total >= 0 && NumElements(r) >= 0 && NumElements(r) != total) {
    return "input " + DimsToString(in) + " (" + std::to_string(total) + " elements) cannot be reshaped to " +
           DimsToString(r) + " (" + std::to_string(NumElements(r)) + " elements)";
  }
  *out = r;
  return {};
}
}  // namespace

class Reshape : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *s = ctx->GetInputShape(1);
    if (x == nullptr || s == nullptr) return Fail(ctx, "inputs data and shape expected");
    std::vector<int64_t> shape;
    Dims out;
    const bool unknown_rank = x->GetDimNum() == 1 && x->GetDim(0) == -2;
    if (KnownInts(ctx, 1, &shape) && unknown_rank) {
      out = shape;  // 0 copies an unknown input dim; -1 stays unknown
      for (int64_t &v : out) v = v == 0 && AttrInt(ctx, 0, 0) == 0 ? -1 : v;
    } else if (KnownInts(ctx, 1, &shape)) {
      const std::string err = ReshapeDims(ToDims(*x), shape, AttrInt(ctx, 0, 0) != 0, &out);
      if (!err.empty()) return Fail(ctx, err);
    } else if (s->GetDimNum() == 1 && s->GetDim(0) >= 0) {
      out.assign(static_cast<size_t>(s->GetDim(0)), -1);
    } else {
      out = {-2};
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *s = ctx->GetInputTensor(1);
    std::vector<int64_t> shape;
    if (x == nullptr || !ReadInts(s, &shape)) return Fail(ctx, "inputs data and an int64 shape expected");
    if (TensorDims(*s).size() != 1) return Fail(ctx, "shape must be 1-D, got " + DimsToString(TensorDims(*s)));
    Dims out;
    const std::string err = ReshapeDims(TensorDims(*x), shape, AttrInt(ctx, 0, 0) != 0, &out);
    if (!err.empty()) return Fail(ctx, err);
    return Input0AsOutput0(ctx, out);
  }
};
REG_AUTO_MAPPING_OP(Reshape);

}  // namespace openatc_ops
