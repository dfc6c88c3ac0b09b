// GatherElements (ONNX GatherElements-13): output has the shape of `indices` (same rank as
// `data`); output[i..] = data[i.. with axis coordinate replaced by indices[i..]]. Indices are
// int32/int64, negative values count from the end of `axis`; an index outside [-n, n-1] fails.
// Off-axis dims of indices must not exceed data's.
#include "common/index_util.h"

namespace ge {
REG_OP(GatherElements)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(axis, Int, 0)
    .OP_END_FACTORY_REG(GatherElements);
}  // namespace ge

namespace openatc_ops {
namespace {
// Checks ranks/dims; sets the normalised axis.
bool CheckShapes(const gert::ExtendedKernelContext *ctx, const Dims &data, const Dims &ind, int64_t *axis) {
  const int64_t a = AttrInt(ctx, 0, 0);
  if (data.empty()) return Fail(ctx, "data must have rank >= 1"), false;
  if (!NormalizeAxis(a, static_cast<int64_t>(data.size()), axis))
    return Fail(ctx, "axis " + std::to_string(a) + " is out of range for data " + DimsToString(data)), false;
  if (ind.size() != data.size())
    return Fail(ctx, "indices " + DimsToString(ind) + " must have the rank of data " + DimsToString(data)), false;
  for (size_t i = 0; i < data.size(); ++i)
    if (static_cast<int64_t>(i) != *axis && data[i] >= 0 && ind[i] > data[i])
      return Fail(ctx, "indices " + DimsToString(ind) + " is larger than data " + DimsToString(data) + " on axis " +
                           std::to_string(i)),
             false;
  return true;
}
}  // namespace

class GatherElements : public ge::EagerExecuteOp, public ge::ShapeInferOp {
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
    if (!(dd.size() == 1 && dd[0] == -2) && !(id.size() == 1 && id[0] == -2)) {
      int64_t axis = 0;
      if (!CheckShapes(ctx, dd, id, &axis)) return ge::GRAPH_FAILED;
    }
    *ctx->GetOutputShape(0) = ToShape(id);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> idx;
    if (x == nullptr) return Fail(ctx, "input data is missing");
    if (!ReadIndexInput(ctx, ctx->GetInputTensor(1), "indices", &idx)) return ge::GRAPH_FAILED;
    const Dims dd = TensorDims(*x), id = TensorDims(*ctx->GetInputTensor(1));
    int64_t axis = 0;
    if (!CheckShapes(ctx, dd, id, &axis)) return ge::GRAPH_FAILED;
    const std::vector<int64_t> ds = ContiguousStrides(dd);
    const int64_t n = dd[axis];
    // Data offset of every index position, with the axis coordinate taken from idx.
    std::vector<int64_t> offs(idx.size());
    std::vector<int64_t> pos(id.size(), 0);
    for (size_t j = 0; j < idx.size(); ++j) {
      int64_t k = 0;
      if (!NormalizeIndex(ctx, "indices", idx[j], n, j, axis, &k)) return ge::GRAPH_FAILED;
      int64_t off = 0;
      for (size_t a = 0; a < id.size(); ++a) off += (static_cast<int64_t>(a) == axis ? k : pos[a]) * ds[a];
      offs[j] = off;
      for (size_t a = id.size(); a-- > 0;) {
        if (++pos[a] < id[a]) break;
        pos[a] = 0;
      }
    }
    gert::Tensor *y = AllocChecked(ctx, 0, id, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool ok = WithElemType(ElemBytes(x->GetDataType()), [&](auto u) {
      using U = decltype(u);
      const U *src = static_cast<const U *>(x->GetAddr());
      U *dst = static_cast<U *>(y->GetAddr());
      for (size_t j = 0; j < offs.size(); ++j) dst[j] = src[offs[j]];
    });
    return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported dtype " + DtypeName(x->GetDataType()));
  }
};
REG_AUTO_MAPPING_OP(GatherElements);

}  // namespace openatc_ops
