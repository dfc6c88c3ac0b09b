// MaxUnpool (ONNX MaxUnpool-9 and -11): the partial inverse of MaxPool. U is zero except
// U.flat[I[i]] = X[i], I holding MaxPool's flat indices into the whole of U, of the default shape
// [N, C, (in_d - 1) * stride_d + kernel_d - pad_begin_d - pad_end_d]. Y = U, or, when input
// `output_shape` is given (opset 11; N, C and each dim at least U's), U padded with zeros at the
// end of each spatial dim (the element at U[n, c, i, j] stays at Y[n, c, i, j]), as ONNX's test
// data and ONNX Runtime place it. An index outside U fails. float16, float, double.
#include "common/index_util.h"
#include "common/math_util.h"

namespace ge {
REG_OP(MaxUnpool)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(I, TensorType({DT_INT64}))
    .OPTIONAL_INPUT(output_shape, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .REQUIRED_ATTR(kernel_shape, ListInt)
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(MaxUnpool);
}  // namespace ge

namespace openatc_ops {
namespace {
// The default output dims from X's dims and the attributes; false after Fail.
bool DefaultDims(const gert::ExtendedKernelContext *ctx, const Dims &x, Dims *out) {
  const Dims k = AttrInts(ctx, 0), p = AttrInts(ctx, 1), s = AttrInts(ctx, 2);
  const size_t r = x.size() < 2 ? 0 : x.size() - 2;
  if (r == 0 || k.size() != r || (!p.empty() && p.size() != 2 * r) || (!s.empty() && s.size() != r))
    return Fail(ctx, "X must be [N, C, D1..Dr] with kernel_shape of r values, pads of 2r and strides of r; got X " +
                         DimsToString(x) + ", kernel_shape " + DimsToString(k) + ", pads " + DimsToString(p) +
                         ", strides " + DimsToString(s)),
           false;
  *out = {x[0], x[1]};
  for (size_t i = 0; i < r; ++i) {
    const int64_t st = s.empty() ? 1 : s[i], pb = p.empty() ? 0 : p[i], pe = p.empty() ? 0 : p[i + r];
    if (k[i] <= 0 || st <= 0) return Fail(ctx, "kernel_shape and strides must be > 0"), false;
    const int64_t d = x[i + 2] < 0 ? -1 : (x[i + 2] - 1) * st + k[i] - pb - pe;
    if (x[i + 2] >= 0 && d < 0) return Fail(ctx, "the pads leave a negative output size for X " + DimsToString(x)), false;
    out->push_back(d);
  }
  return true;
}

// Flat index in `out` of flat index `u` of a tensor of dims `ud` (same rank, each dim <= out's).
int64_t Reindex(int64_t u, const Dims &ud, const Dims &out) {
  int64_t o = 0, stride = 1;
  for (size_t k = ud.size(); k-- > 0;) {
    o += (u % ud[k]) * stride;
    u /= ud[k];
    stride *= out[k];
  }
  return o;
}

template <typename T>
bool Scatter(const T *x, const int64_t *idx, int64_t n, const Dims &ud, const Dims &out, T *y, int64_t *bad) {
  const int64_t total = NumElements(out), utotal = NumElements(ud);
  for (int64_t o = 0; o < total; ++o) y[o] = T(0);
  for (int64_t i = 0; i < n; ++i) {
    if (idx[i] < 0 || idx[i] >= utotal) return *bad = i, false;
    y[ud == out ? idx[i] : Reindex(idx[i], ud, out)] = x[i];
  }
  return true;
}
}  // namespace

class MaxUnpool : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *os = ctx->GetOptionalInputShape(2);
    if (x == nullptr) return Fail(ctx, "inputs X and I expected");
    Dims out;
    if (!DefaultDims(ctx, ToDims(*x), &out)) return ge::GRAPH_FAILED;
    if (os != nullptr) {
      std::vector<int64_t> v;
      if (ReadInts(ctx->GetOptionalInputTensor(2), &v)) {
        if (v.size() != out.size())
          return Fail(ctx, "output_shape must have " + std::to_string(out.size()) + " values, got " + DimsToString(v));
        out = v;
      } else {
        out.assign(out.size(), -1);
      }
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *i = ctx->GetInputTensor(1), *os = ctx->GetOptionalInputTensor(2);
    if (x == nullptr || i == nullptr) return Fail(ctx, "inputs X and I expected");
    const Dims xd = TensorDims(*x);
    Dims ud;  // the default (unpooled) dims the indices refer to
    if (!DefaultDims(ctx, xd, &ud)) return ge::GRAPH_FAILED;
    Dims out = ud;
    if (os != nullptr) {
      if (!ReadInts(os, &out) || out.size() != ud.size())
        return Fail(ctx, "output_shape must be an int64 tensor of " + std::to_string(ud.size()) + " values");
      bool fits = out[0] == ud[0] && out[1] == ud[1];
      for (size_t k = 2; k < ud.size(); ++k) fits = fits && out[k] >= ud[k];
      if (!fits)
        return Fail(ctx, "output_shape " + DimsToString(out) + " must keep N and C and be at least the unpooled shape " +
                             DimsToString(ud));
    }
    if (TensorDims(*i) != xd || i->GetDataType() != ge::DT_INT64)
      return Fail(ctx, "I must be int64 of X's shape " + DimsToString(xd) + ", got " + DimsToString(TensorDims(*i)));
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = x->GetShapeSize();
    int64_t bad = 0;
    bool ok = true;
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(ok = Scatter<T>(x->GetData<T>(), i->GetData<int64_t>(), n, ud, out, y->GetData<T>(), &bad))
      default:
        return Fail(ctx, "unsupported X dtype " + DtypeName(x->GetDataType()));
    }
    if (!ok)
      return Fail(ctx, "I[" + std::to_string(bad) + "] = " + std::to_string(i->GetData<int64_t>()[bad]) +
                           " is outside the unpooled shape's " + std::to_string(NumElements(ud)) + " elements " +
                           DimsToString(ud));
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(MaxUnpool);

}  // namespace openatc_ops
