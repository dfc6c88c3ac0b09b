// Gather (ONNX Gather-13): picks slices of `data` along `axis` at `indices` (int32/int64,
// negative values count from the end, any shape); output = data[:axis] + indices + data[axis+1:].
// An index outside [-n, n-1] fails with its position.
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Gather)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, 0)
    .OP_END_FACTORY_REG(Gather);
}  // namespace ge

namespace openatc_ops {
namespace {
bool GatherDims(const gert::ExtendedKernelContext *ctx, const Dims &data, const Dims &indices, Dims *out, int64_t *axis) {
  const int64_t a = AttrInt(ctx, 0, 0);
  if (!NormalizeAxis(a, static_cast<int64_t>(data.size()), axis)) {
    Fail(ctx, "axis " + std::to_string(a) + " is out of range for data " + DimsToString(data));
    return false;
  }
  out->assign(data.begin(), data.begin() + *axis);
  out->insert(out->end(), indices.begin(), indices.end());
  out->insert(out->end(), data.begin() + *axis + 1, data.end());
  return true;
}
}  // namespace

class Gather : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType i = ctx->GetInputDataType(1);
    if (i != ge::DT_INT32 && i != ge::DT_INT64) return Fail(ctx, "indices must be int32 or int64, got " + DtypeName(i));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *d = ctx->GetInputShape(0), *i = ctx->GetInputShape(1);
    if (d == nullptr || i == nullptr) return Fail(ctx, "inputs data and indices expected");
    const Dims dd = ToDims(*d), id = ToDims(*i);
    if ((dd.size() == 1 && dd[0] == -2) || (id.size() == 1 && id[0] == -2)) {
      *ctx->GetOutputShape(0) = ToShape({-2});
      return ge::GRAPH_SUCCESS;
    }
    Dims out;
    int64_t axis = 0;
    if (!GatherDims(ctx, dd, id, &out, &axis)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *ix = ctx->GetInputTensor(1);
    std::vector<int64_t> idx;
    if (x == nullptr || !ReadInts(ix, &idx)) return Fail(ctx, "inputs data and int32/int64 indices expected");
    const Dims dd = TensorDims(*x);
    Dims out;
    int64_t axis = 0;
    if (!GatherDims(ctx, dd, TensorDims(*ix), &out, &axis)) return ge::GRAPH_FAILED;
    const int64_t n = dd[axis];
    for (size_t j = 0; j < idx.size(); ++j) {
      if (idx[j] < -n || idx[j] >= n)
        return Fail(ctx, "index " + std::to_string(idx[j]) + " at flat position " + std::to_string(j) +
                             " is out of range [" + std::to_string(-n) + ", " + std::to_string(n - 1) + "] of axis " +
                             std::to_string(axis) + " of data " + DimsToString(dd));
      if (idx[j] < 0) idx[j] += n;
    }
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= dd[i];
    size_t inner = ElemBytes(x->GetDataType());
    for (size_t i = static_cast<size_t>(axis) + 1; i < dd.size(); ++i) inner *= static_cast<size_t>(dd[i]);
    if (inner == 0) return ge::GRAPH_SUCCESS;
    const auto *src = static_cast<const uint8_t *>(x->GetAddr());
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    for (int64_t o = 0; o < outer; ++o) {
      const uint8_t *base = src + static_cast<size_t>(o * n) * inner;
      for (int64_t k : idx) {
        std::memcpy(dst, base + static_cast<size_t>(k) * inner, inner);
        dst += inner;
      }
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Gather);

}  // namespace openatc_ops
