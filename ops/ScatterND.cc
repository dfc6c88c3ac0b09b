// ScatterND (ONNX ScatterND-18): a copy of `data` (rank r) where the slices addressed by the
// last axis of `indices` (int64, rank q, last dim k <= r) are written (reduction "none"), added
// ("add"), multiplied ("mul") or combined by max/min (opset 18) with `updates` (shape indices.shape[:-1] + data.shape[k:]), in
// row-major order of the index tuples. Negative index values count from the end of their axis;
// out-of-range values fail.
#include <cstring>

#include "common/index_util.h"

namespace ge {
REG_OP(ScatterND)
    .INPUT(data, TensorType::ALL())
    .INPUT(indices, TensorType({DT_INT64, DT_INT32}))
    .INPUT(updates, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(reduction, String, "none")
    .OP_END_FACTORY_REG(ScatterND);
}  // namespace ge

namespace openatc_ops {
namespace {
bool Check(const gert::ExtendedKernelContext *ctx, const Dims &data, const Dims &ind, const Dims &upd) {
  if (data.empty() || ind.empty()) return Fail(ctx, "data and indices must have rank >= 1"), false;
  const int64_t k = ind.back();
  if (k < 1 || k > static_cast<int64_t>(data.size()))
    return Fail(ctx, "the last dim of indices " + DimsToString(ind) + " must be in [1, rank of data " +
                         DimsToString(data) + "]"),
           false;
  Dims want(ind.begin(), ind.end() - 1);
  want.insert(want.end(), data.begin() + k, data.end());
  if (upd != want)
    return Fail(ctx, "updates " + DimsToString(upd) + " must have shape " + DimsToString(want) +
                         " (indices.shape[:-1] + data.shape[k:])"),
           false;
  return true;
}

template <typename T>
void Apply(const std::vector<int64_t> &offs, int64_t inner, const void *upd, void *out, Reduction r) {
  const T *u = static_cast<const T *>(upd);
  T *o = static_cast<T *>(out);
  for (size_t t = 0; t < offs.size(); ++t)
    for (int64_t e = 0; e < inner; ++e) Reduce<T>(o[offs[t] + e], u[static_cast<int64_t>(t) * inner + e], r);
}
}  // namespace

class ScatterND : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType i = ctx->GetInputDataType(1), d = ctx->GetInputDataType(0), u = ctx->GetInputDataType(2);
    if (i != ge::DT_INT32 && i != ge::DT_INT64) return Fail(ctx, "indices must be int64, got " + DtypeName(i));
    if (u != d) return Fail(ctx, "updates is " + DtypeName(u) + " but data is " + DtypeName(d));
    return SameDtypeAsInput0(ctx);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    Reduction r;
    if (!ParseReduction(ctx, AttrStr(ctx, 0, "none"), &r)) return ge::GRAPH_FAILED;
    const gert::Shape *d = ctx->GetInputShape(0);
    if (d == nullptr) return Fail(ctx, "input data expected");
    *ctx->GetOutputShape(0) = *d;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    Reduction r;
    if (!ParseReduction(ctx, AttrStr(ctx, 0, "none"), &r)) return ge::GRAPH_FAILED;
    const gert::Tensor *x = ctx->GetInputTensor(0), *ut = ctx->GetInputTensor(2);
    if (x == nullptr || ut == nullptr) return Fail(ctx, "inputs data and updates expected");
    std::vector<int64_t> idx;
    if (!ReadIndexInput(ctx, ctx->GetInputTensor(1), "indices", &idx)) return ge::GRAPH_FAILED;
    const Dims dd = TensorDims(*x), id = TensorDims(*ctx->GetInputTensor(1)), ud = TensorDims(*ut);
    if (!Check(ctx, dd, id, ud)) return ge::GRAPH_FAILED;
    const ge::DataType dt = x->GetDataType();
    if (ut->GetDataType() != dt)
      return Fail(ctx, "updates is " + DtypeName(ut->GetDataType()) + " but data is " + DtypeName(dt));
    const int64_t k = id.back();
    const int64_t tuples = Prod(id, 0, id.size() - 1);
    const int64_t inner = Prod(dd, static_cast<size_t>(k), dd.size());
    const std::vector<int64_t> strides = ContiguousStrides(dd);
    std::vector<int64_t> offs(static_cast<size_t>(tuples));
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t off = 0;
      for (int64_t j = 0; j < k; ++j) {
        const size_t pos = static_cast<size_t>(t * k + j);
        int64_t v = 0;
        if (!NormalizeIndex(ctx, "indices", idx[pos], dd[j], pos, j, &v)) return ge::GRAPH_FAILED;
        off += v * strides[j];
      }
      offs[t] = off;
    }
    gert::Tensor *y = AllocChecked(ctx, 0, dd, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const size_t bytes = static_cast<size_t>(x->GetShapeSize()) * ElemBytes(dt);
    if (bytes != 0) std::memcpy(y->GetAddr(), x->GetAddr(), bytes);
    if (r == Reduction::kNone) {
      const bool ok =
          WithElemType(ElemBytes(dt), [&](auto u) { Apply<decltype(u)>(offs, inner, ut->GetAddr(), y->GetAddr(), r); });
      return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported dtype " + DtypeName(dt));
    }
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(Apply<T>(offs, inner, ut->GetAddr(), y->GetAddr(), r))
      OPENATC_OPS_INT_CASES(Apply<T>(offs, inner, ut->GetAddr(), y->GetAddr(), r))
      OPENATC_OPS_BOOL_CASES(Apply<T>(offs, inner, ut->GetAddr(), y->GetAddr(), r))
      default:
        return Fail(ctx, "reduction add/mul/max/min does not support dtype " + DtypeName(dt));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(ScatterND);

}  // namespace openatc_ops
