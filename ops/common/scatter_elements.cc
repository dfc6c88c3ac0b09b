// The shared body of ScatterElements and Scatter (see scatter_elements.h).
#include "common/scatter_elements.h"

#include <cstring>


namespace openatc_ops {
namespace {
bool Check(const gert::ExtendedKernelContext *ctx, const Dims &data, const Dims &ind, const Dims &upd, int64_t a,
           int64_t *axis) {
  if (data.empty()) return Fail(ctx, "data must have rank >= 1"), false;
  if (!NormalizeAxis(a, static_cast<int64_t>(data.size()), axis))
    return Fail(ctx, "axis " + std::to_string(a) + " is out of range for data " + DimsToString(data)), false;
  if (ind.size() != data.size())
    return Fail(ctx, "indices " + DimsToString(ind) + " must have the rank of data " + DimsToString(data)), false;
  if (upd != ind)
    return Fail(ctx, "updates " + DimsToString(upd) + " must have the shape of indices " + DimsToString(ind)), false;
  for (size_t i = 0; i < data.size(); ++i)
    if (static_cast<int64_t>(i) != *axis && ind[i] > data[i])
      return Fail(ctx, "indices " + DimsToString(ind) + " is larger than data " + DimsToString(data) + " on axis " +
                           std::to_string(i)),
             false;
  return true;
}

template <typename T>
void Apply(const std::vector<int64_t> &offs, const void *upd, void *out, Reduction r) {
  const T *u = static_cast<const T *>(upd);
  T *o = static_cast<T *>(out);
  for (size_t j = 0; j < offs.size(); ++j) Reduce<T>(o[offs[j]], u[j], r);
}
}  // namespace

ge::graphStatus ScatterElementsDtype(gert::InferDataTypeContext *ctx) {
  const ge::DataType i = ctx->GetInputDataType(1), d = ctx->GetInputDataType(0), u = ctx->GetInputDataType(2);
  if (i != ge::DT_INT32 && i != ge::DT_INT64) return Fail(ctx, "indices must be int32 or int64, got " + DtypeName(i));
  if (u != d) return Fail(ctx, "updates is " + DtypeName(u) + " but data is " + DtypeName(d));
  return SameDtypeAsInput0(ctx);
}

ge::graphStatus ScatterElementsShape(gert::InferShapeContext *ctx, int64_t axis) {
  const gert::Shape *d = ctx->GetInputShape(0), *i = ctx->GetInputShape(1), *u = ctx->GetInputShape(2);
  if (d == nullptr || i == nullptr || u == nullptr) return Fail(ctx, "inputs data, indices and updates expected");
  const Dims dd = ToDims(*d), id = ToDims(*i), ud = ToDims(*u);
  auto known = [](const Dims &x) {
    for (int64_t v : x)
      if (v < 0) return false;
    return true;
  };
  int64_t a = 0;
  if (known(dd) && known(id) && known(ud) && !Check(ctx, dd, id, ud, axis, &a)) return ge::GRAPH_FAILED;
  *ctx->GetOutputShape(0) = ToShape(dd);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ScatterElementsRun(gert::EagerOpExecutionContext *ctx, int64_t axis_attr, Reduction r) {
  const gert::Tensor *x = ctx->GetInputTensor(0), *ut = ctx->GetInputTensor(2);
  if (x == nullptr || ut == nullptr) return Fail(ctx, "inputs data and updates expected");
  std::vector<int64_t> idx;
  if (!ReadIndexInput(ctx, ctx->GetInputTensor(1), "indices", &idx)) return ge::GRAPH_FAILED;
  const Dims dd = TensorDims(*x), id = TensorDims(*ctx->GetInputTensor(1)), ud = TensorDims(*ut);
  int64_t axis = 0;
  if (!Check(ctx, dd, id, ud, axis_attr, &axis)) return ge::GRAPH_FAILED;
  if (ut->GetDataType() != x->GetDataType())
    return Fail(ctx, "updates is " + DtypeName(ut->GetDataType()) + " but data is " + DtypeName(x->GetDataType()));
  const std::vector<int64_t> ds = ContiguousStrides(dd);
  const int64_t n = dd[axis];
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
  const ge::DataType dt = x->GetDataType();
  gert::Tensor *y = AllocChecked(ctx, 0, dd, dt);
  if (y == nullptr) return ge::GRAPH_FAILED;
  const size_t bytes = static_cast<size_t>(x->GetShapeSize()) * ElemBytes(dt);
  if (bytes != 0) std::memcpy(y->GetAddr(), x->GetAddr(), bytes);
  if (r == Reduction::kNone) {
    const bool ok = WithElemType(ElemBytes(dt), [&](auto u) { Apply<decltype(u)>(offs, ut->GetAddr(), y->GetAddr(), r); });
    return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported dtype " + DtypeName(dt));
  }
  switch (dt) {
    OPENATC_OPS_FLOAT_CASES(Apply<T>(offs, ut->GetAddr(), y->GetAddr(), r))
    OPENATC_OPS_INT_CASES(Apply<T>(offs, ut->GetAddr(), y->GetAddr(), r))
    OPENATC_OPS_BOOL_CASES(Apply<T>(offs, ut->GetAddr(), y->GetAddr(), r))
    default:
      return Fail(ctx, "reduction add/mul/max/min does not support dtype " + DtypeName(dt));
  }
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops
