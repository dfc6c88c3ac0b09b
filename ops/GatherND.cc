// GatherND (ONNX GatherND-13): gathers slices of `data` (rank r) addressed by the last axis of
// `indices` (int64, rank q, last dim k in [1, r - batch_dims]); the first `batch_dims` dims of
// data and indices must agree. Output shape = indices.shape[:-1] + data.shape[batch_dims + k:].
// Negative index values count from the end of their axis; out-of-range values fail.
#include <algorithm>
#include <cstring>

#include "common/index_util.h"

namespace ge {
REG_OP(GatherND)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT64, DT_INT32}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(batch_dims, Int, 0)
    .OP_END_FACTORY_REG(GatherND);
}  // namespace ge

namespace openatc_ops {
namespace {
// Output dims; false (after Fail) on inconsistent shapes. Unknown dims (-1) propagate.
bool OutDims(const gert::ExtendedKernelContext *ctx, const Dims &data, const Dims &ind, int64_t b, Dims *out) {
  const int64_t r = static_cast<int64_t>(data.size()), q = static_cast<int64_t>(ind.size());
  if (r < 1 || q < 1) return Fail(ctx, "data and indices must have rank >= 1"), false;
  if (b < 0 || b >= std::min(q, r))
    return Fail(ctx, "batch_dims " + std::to_string(b) + " must be in [0, min(rank(data), rank(indices)) - 1]"), false;
  const int64_t k = ind.back();
  if (k >= 0 && (k < 1 || k > r - b))
    return Fail(ctx, "the last dim of indices " + DimsToString(ind) + " must be in [1, " + std::to_string(r - b) +
                         "] for data " + DimsToString(data) + " and batch_dims " + std::to_string(b)),
           false;
  for (int64_t i = 0; i < b; ++i)
    if (data[i] >= 0 && ind[i] >= 0 && data[i] != ind[i])
      return Fail(ctx, "batch dim " + std::to_string(i) + " differs: data " + DimsToString(data) + ", indices " +
                           DimsToString(ind)),
             false;
  out->assign(ind.begin(), ind.end() - 1);
  if (k < 0) return out->clear(), out->assign(1, -2), true;
  out->insert(out->end(), data.begin() + b + k, data.end());
  return true;
}
}  // namespace

class GatherND : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType i = ctx->GetInputDataType(1);
    if (i != ge::DT_INT32 && i != ge::DT_INT64) return Fail(ctx, "indices must be int64, got " + DtypeName(i));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *d = ctx->GetInputShape(0), *i = ctx->GetInputShape(1);
    if (d == nullptr || i == nullptr) return Fail(ctx, "inputs data and indices expected");
    const Dims dd = ToDims(*d), id = ToDims(*i);
    Dims out{-2};
    if (!(dd.size() == 1 && dd[0] == -2) && !(id.size() == 1 && id[0] == -2) &&
        !OutDims(ctx, dd, id, AttrInt(ctx, 0, 0), &out))
      return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input data is missing");
    std::vector<int64_t> idx;
    if (!ReadIndexInput(ctx, ctx->GetInputTensor(1), "indices", &idx)) return ge::GRAPH_FAILED;
    const Dims dd = TensorDims(*x), id = TensorDims(*ctx->GetInputTensor(1));
    const int64_t b = AttrInt(ctx, 0, 0);
    Dims out;
    if (!OutDims(ctx, dd, id, b, &out)) return ge::GRAPH_FAILED;
    const size_t ub = static_cast<size_t>(b);
    const int64_t k = id.back();
    const int64_t batches = Prod(dd, 0, ub);
    const int64_t per_batch = batches == 0 ? 0 : Prod(id, ub, id.size() - 1);  // index tuples per batch
    const int64_t inner = Prod(dd, ub + static_cast<size_t>(k), dd.size());
    const int64_t slab = Prod(dd, ub, dd.size());
    const std::vector<int64_t> strides = ContiguousStrides(dd);
    // Element offset (within data) of every index tuple.
    std::vector<int64_t> offs(static_cast<size_t>(batches * per_batch));
    for (int64_t bi = 0; bi < batches; ++bi)
      for (int64_t t = 0; t < per_batch; ++t) {
        const size_t tuple = static_cast<size_t>(bi * per_batch + t);
        int64_t off = bi * slab;
        for (int64_t j = 0; j < k; ++j) {
          const size_t pos = tuple * static_cast<size_t>(k) + static_cast<size_t>(j);
          int64_t v = 0;
          if (!NormalizeIndex(ctx, "indices", idx[pos], dd[ub + j], pos, b + j, &v)) return ge::GRAPH_FAILED;
          off += v * strides[ub + j];
        }
        offs[tuple] = off;
      }
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t eb = ElemBytes(x->GetDataType()), row = static_cast<size_t>(inner) * eb;
    const auto *src = static_cast<const uint8_t *>(x->GetAddr());
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    if (row == 0) return ge::GRAPH_SUCCESS;
    for (size_t t = 0; t < offs.size(); ++t) std::memcpy(dst + t * row, src + static_cast<size_t>(offs[t]) * eb, row);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(GatherND);

}  // namespace openatc_ops
