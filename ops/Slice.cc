// Slice (ONNX Slice-13): for each listed axis, elements start, start+step, ... before end.
// starts/ends/axes/steps are int32/int64 1-D inputs of one length (axes default 0..n-1, steps
// default 1, step 0 is an error, axes may repeat nowhere). Negative starts/ends add the dim;
// then, for step > 0, both clamp to [0, dim]; for step < 0, start clamps to [0, dim-1] and end to
// [-1, dim-1] (ONNX Slice-13 "clamping").
#include <cstdint>

#include "common/movement.h"

namespace ge {
REG_OP(Slice)
    .INPUT(data, TensorType::ALL())
    .INPUT(starts, TensorType({DT_INT32, DT_INT64}))
    .INPUT(ends, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(axes, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(steps, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .OP_END_FACTORY_REG(Slice);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Window {
  std::vector<int64_t> start, step;  // per input axis (step 1 / start 0 on untouched axes)
  Dims out;
};

int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The window for input dims `in` (a -1 dim gives a -1 output dim at compile time).
bool SliceWindow(const gert::ExtendedKernelContext *ctx, const Dims &in, const std::vector<int64_t> &starts,
                 const std::vector<int64_t> &ends, const std::vector<int64_t> *axes_in,
                 const std::vector<int64_t> *steps_in, Window *w) {
  const size_t n = starts.size();
  if (ends.size() != n || (axes_in && axes_in->size() != n) || (steps_in && steps_in->size() != n)) {
    Fail(ctx, "starts, ends, axes and steps must have the same length (starts has " + std::to_string(n) + ")");
    return false;
  }
  const int64_t rank = static_cast<int64_t>(in.size());
  w->out = in;
  w->start.assign(in.size(), 0);
  w->step.assign(in.size(), 1);
  std::vector<bool> seen(in.size(), false);
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = axes_in ? (*axes_in)[i] : static_cast<int64_t>(i);
    int64_t axis = 0;
    if (!NormalizeAxis(a, rank, &axis)) {
      Fail(ctx, "axis " + std::to_string(a) + " is out of range for data " + DimsToString(in));
      return false;
    }
    if (seen[axis]) {
      Fail(ctx, "axis " + std::to_string(a) + " is listed twice");
      return false;
    }
    seen[axis] = true;
    const int64_t step = steps_in ? (*steps_in)[i] : 1;
    if (step == 0) {
      Fail(ctx, "step 0 on axis " + std::to_string(a) + " is invalid");
      return false;
    }
    const int64_t dim = in[axis];
    w->step[axis] = step;
    if (dim < 0) {
      w->out[axis] = -1;
      continue;
    }
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    int64_t count = 0;
    if (step > 0) {
      s = Clamp(s, 0, dim);
      e = Clamp(e, 0, dim);
      if (e > s) count = (e - s - 1) / step + 1;
    } else if (dim > 0) {
      s = Clamp(s, 0, dim - 1);
      e = Clamp(e, -1, dim - 1);
      const uint64_t mag = uint64_t{0} - static_cast<uint64_t>(step);
      if (s > e) count = static_cast<int64_t>(static_cast<uint64_t>(s - e - 1) / mag + 1);
    }
    w->start[axis] = count > 0 ? s : 0;
    w->out[axis] = count;
  }
  return true;
}

// Reads input `index` (optional ones may be absent: *present false).
bool ReadOptional(const gert::Tensor *t, std::vector<int64_t> *v, bool *present) {
  *present = t != nullptr;
  return t == nullptr || ReadInts(t, v);
}
}  // namespace

class Slice : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    const Dims in = ToDims(*x);
    if (in.size() == 1 && in[0] == -2) {
      *ctx->GetOutputShape(0) = *x;
      return ge::GRAPH_SUCCESS;
    }
    std::vector<int64_t> starts, ends, axes, steps;
    const bool has_axes = ctx->GetOptionalInputShape(3) != nullptr, has_steps = ctx->GetOptionalInputShape(4) != nullptr;
    const bool known = ReadInts(ctx->GetRequiredInputTensor(1), &starts) && ReadInts(ctx->GetRequiredInputTensor(2), &ends) &&
                       (!has_axes || ReadInts(ctx->GetOptionalInputTensor(3), &axes)) &&
                       (!has_steps || ReadInts(ctx->GetOptionalInputTensor(4), &steps));
    Window w;
    if (known) {
      if (!SliceWindow(ctx, in, starts, ends, has_axes ? &axes : nullptr, has_steps ? &steps : nullptr, &w))
        return ge::GRAPH_FAILED;
      *ctx->GetOutputShape(0) = ToShape(w.out);
    } else if (has_axes && ReadInts(ctx->GetOptionalInputTensor(3), &axes)) {
      Dims out = in;  // only the listed axes change
      for (int64_t a : axes) {
        int64_t axis = 0;
        if (!NormalizeAxis(a, static_cast<int64_t>(in.size()), &axis))
          return Fail(ctx, "axis " + std::to_string(a) + " is out of range for data " + DimsToString(in));
        out[axis] = -1;
      }
      *ctx->GetOutputShape(0) = ToShape(out);
    } else {
      *ctx->GetOutputShape(0) = ToShape(Dims(in.size(), -1));
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> starts, ends, axes, steps;
    bool has_axes = false, has_steps = false;
    if (x == nullptr || !ReadInts(ctx->GetRequiredInputTensor(1), &starts) ||
        !ReadInts(ctx->GetRequiredInputTensor(2), &ends) || !ReadOptional(ctx->GetOptionalInputTensor(3), &axes, &has_axes) ||
        !ReadOptional(ctx->GetOptionalInputTensor(4), &steps, &has_steps))
      return Fail(ctx, "data and int32/int64 starts, ends (axes, steps) expected");
    const Dims in = TensorDims(*x);
    Window w;
    if (!SliceWindow(ctx, in, starts, ends, has_axes ? &axes : nullptr, has_steps ? &steps : nullptr, &w))
      return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, w.out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(w.out) == 0) return ge::GRAPH_SUCCESS;
    const std::vector<int64_t> in_strides = ContiguousStrides(in);
    std::vector<int64_t> strides(in.size());
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      strides[i] = w.out[i] > 1 ? in_strides[i] * w.step[i] : 0;  // a step past the end is never taken
      offset += in_strides[i] * w.start[i];
    }
    StridedCopy(x->GetAddr(), y->GetAddr(), ElemBytes(x->GetDataType()), w.out, strides, offset);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Slice);

}  // namespace openatc_ops
