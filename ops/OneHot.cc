// OneHot (ONNX OneHot-11): output[..., d, ...] = values[1] (on) where d == indices[...] and
// values[0] (off) elsewhere, with the new depth axis inserted at `axis` (default -1: last; range
// [-r-1, r] for indices of rank r). indices and depth may be any numeric type (values truncate
// to integers); depth is a scalar or 1-element tensor >= 1; indices in [-depth, -1] count from
// the end; other out-of-range indices give an all-off row (ONNX spec). Output dtype = values'.
#include <cmath>
#include <cstring>

#include "common/index_util.h"

namespace ge {
REG_OP(OneHot)
    .INPUT(indices, TensorType::ALL())
    .INPUT(depth, TensorType::ALL())
    .INPUT(values, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, -1)
    .OP_END_FACTORY_REG(OneHot);
}  // namespace ge

namespace openatc_ops {
namespace {
constexpr double kMaxDepth = double(int64_t{1} << 40);

bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &ind, int64_t depth, Dims *out, int64_t *axis) {
  const int64_t a = AttrInt(ctx, 0, -1);
  const int64_t r = static_cast<int64_t>(ind.size());
  if (!NormalizeAxis(a, r + 1, axis))
    return Fail(ctx, "axis " + std::to_string(a) + " is out of range [" + std::to_string(-r - 1) + ", " +
                         std::to_string(r) + "] for indices " + DimsToString(ind)),
           false;
  *out = ind;
  out->insert(out->begin() + *axis, depth);
  return true;
}

// The depth value; false after Fail when not a scalar >= 1.
bool ReadDepth(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, int64_t *depth) {
  std::vector<double> v;
  if (!ReadAsDouble(t, &v)) return Fail(ctx, "depth must be a numeric tensor"), false;
  if (v.size() != 1) return Fail(ctx, "depth must hold one value, got " + std::to_string(v.size())), false;
  if (!(v[0] >= 1 && v[0] < kMaxDepth))
    return Fail(ctx, "depth " + std::to_string(v[0]) + " must be in [1, 2^40)"), false;
  *depth = static_cast<int64_t>(v[0]);
  return true;
}
}  // namespace

class OneHot : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType v = ctx->GetInputDataType(2);
    if (!IsOnnxDtype(v)) return Fail(ctx, "unsupported values dtype " + DtypeName(v));
    return ctx->SetOutputDataType(0, v);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *i = ctx->GetInputShape(0);
    if (i == nullptr) return Fail(ctx, "input indices expected");
    const Dims id = ToDims(*i);
    if (id.size() == 1 && id[0] == -2) {
      *ctx->GetOutputShape(0) = ToShape({-2});
      return ge::GRAPH_SUCCESS;
    }
    int64_t depth = -1;
    const gert::Tensor *dt = ctx->GetInputTensor(1);
    if (dt != nullptr && dt->GetAddr() != nullptr && !ReadDepth(ctx, dt, &depth)) return ge::GRAPH_FAILED;
    Dims out;
    int64_t axis = 0;
    if (!OutDims(ctx, id, depth, &out, &axis)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *it = ctx->GetInputTensor(0), *vt = ctx->GetInputTensor(2);
    if (it == nullptr || vt == nullptr) return Fail(ctx, "inputs indices, depth and values expected");
    int64_t depth = 0;
    if (!ReadDepth(ctx, ctx->GetInputTensor(1), &depth)) return ge::GRAPH_FAILED;
    std::vector<double> idx;
    if (!ReadAsDouble(it, &idx)) return Fail(ctx, "indices must be numeric, got " + DtypeName(it->GetDataType()));
    if (vt->GetShapeSize() != 2) return Fail(ctx, "values must hold 2 elements [off, on], got " +
                                                   std::to_string(vt->GetShapeSize()));
    const Dims id = TensorDims(*it);
    Dims out;
    int64_t axis = 0;
    if (!OutDims(ctx, id, depth, &out, &axis)) return ge::GRAPH_FAILED;
    const ge::DataType dt = vt->GetDataType();
    gert::Tensor *y = AllocChecked(ctx, 0, out, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t outer = Prod(id, 0, static_cast<size_t>(axis));
    const int64_t inner = Prod(id, static_cast<size_t>(axis), id.size());
    const bool ok = WithElemType(ElemBytes(dt), [&](auto u) {
      using U = decltype(u);
      U off, on;
      std::memcpy(&off, static_cast<const uint8_t *>(vt->GetAddr()), sizeof(U));
      std::memcpy(&on, static_cast<const uint8_t *>(vt->GetAddr()) + sizeof(U), sizeof(U));
      U *dst = static_cast<U *>(y->GetAddr());
      const int64_t total = outer * depth * inner;
      for (int64_t e = 0; e < total; ++e) dst[e] = off;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const double v = std::trunc(idx[static_cast<size_t>(o * inner + i)]);
          if (!(v >= -static_cast<double>(depth) && v < static_cast<double>(depth))) continue;
          const int64_t d = static_cast<int64_t>(v) < 0 ? static_cast<int64_t>(v) + depth : static_cast<int64_t>(v);
          dst[(o * depth + d) * inner + i] = on;
        }
    });
    return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported values dtype " + DtypeName(dt));
  }
};
REG_AUTO_MAPPING_OP(OneHot);

}  // namespace openatc_ops
