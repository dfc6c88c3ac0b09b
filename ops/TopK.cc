// TopK (ONNX TopK-11): the K largest (largest=1) or smallest (largest=0) elements of X along
// `axis` (default -1) and their int64 indices. K is a 1-element int64 input in [0, dim]. Output
// order: by value (descending for largest, ascending for smallest), equal values by lower index
// first; the sorted=0 form returns the same order (ONNX leaves it unspecified). NaN counts as
// larger than every number. Numeric dtypes (float, float16, double, int8..uint64).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/index_util.h"

namespace ge {
REG_OP(TopK)
    .INPUT(X, TensorType::RealNumberType())
    .INPUT(K, TensorType({DT_INT64}))
    .OUTPUT(Values, TensorType::RealNumberType())
    .OUTPUT(Indices, TensorType({DT_INT64}))
    .ATTR(axis, Int, -1)
    .ATTR(largest, Int, 1)
    .ATTR(sorted, Int, 1)
    .OP_END_FACTORY_REG(TopK);
}  // namespace ge

namespace openatc_ops {
namespace {
template <typename T>
bool Greater(T a, T b) {
  if constexpr (std::is_floating_point<T>::value || std::is_same<T, half>::value) {
    const bool na = std::isnan(static_cast<double>(a)), nb = std::isnan(static_cast<double>(b));
    if (na || nb) return na && !nb;
  }
  return a > b;
}

template <typename T>
void Select(const T *x, T *vals, int64_t *inds, const Dims &d, size_t axis, int64_t k, bool largest) {
  const int64_t outer = Prod(d, 0, axis), n = d[axis], inner = Prod(d, axis + 1, d.size());
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T *base = x + o * n * inner + i;
      std::iota(order.begin(), order.end(), int64_t{0});
      auto before = [&](int64_t a, int64_t b) {
        const T va = base[a * inner], vb = base[b * inner];
        if (largest ? Greater(va, vb) : Greater(vb, va)) return true;
        if (largest ? Greater(vb, va) : Greater(va, vb)) return false;
        return a < b;
      };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        const int64_t o_off = (o * k + j) * inner + i;
        vals[o_off] = base[order[static_cast<size_t>(j)] * inner];
        inds[o_off] = order[static_cast<size_t>(j)];
      }
    }
}

bool Axis(const gert::ExtendedKernelContext *ctx, const Dims &d, int64_t *axis) {
  const int64_t a = AttrInt(ctx, 0, -1);
  if (!NormalizeAxis(a, static_cast<int64_t>(d.size()), axis))
    return Fail(ctx, "axis " + std::to_string(a) + " is out of range for X " + DimsToString(d)), false;
  return true;
}
}  // namespace

class TopK : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (ElemBytes(x) == 0 || x == ge::DT_BOOL || x == ge::DT_BF16) return Fail(ctx, "unsupported X dtype " + DtypeName(x));
    if (ctx->SetOutputDataType(0, x) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(1, ge::DT_INT64);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X expected");
    Dims d = ToDims(*x);
    if (!(d.size() == 1 && d[0] == -2)) {
      int64_t axis = 0;
      if (!Axis(ctx, d, &axis)) return ge::GRAPH_FAILED;
      std::vector<int64_t> k;
      d[static_cast<size_t>(axis)] = KnownInts(ctx, 1, &k) && k.size() == 1 ? k[0] : -1;
    }
    *ctx->GetOutputShape(0) = ToShape(d);
    *ctx->GetOutputShape(1) = ToShape(d);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is missing");
    std::vector<int64_t> kv;
    if (!ReadIndexInput(ctx, ctx->GetInputTensor(1), "K", &kv)) return ge::GRAPH_FAILED;
    const Dims d = TensorDims(*x);
    int64_t axis = 0;
    if (!Axis(ctx, d, &axis)) return ge::GRAPH_FAILED;
    const size_t ax = static_cast<size_t>(axis);
    if (kv.size() != 1) return Fail(ctx, "K must hold one value, got " + std::to_string(kv.size()));
    const int64_t k = kv[0];
    if (k < 0 || k > d[ax])
      return Fail(ctx, "K = " + std::to_string(k) + " is outside [0, " + std::to_string(d[ax]) + "] (axis " +
                           std::to_string(axis) + " of X " + DimsToString(d) + ")");
    Dims od = d;
    od[ax] = k;
    const ge::DataType dt = x->GetDataType();
    gert::Tensor *v = AllocChecked(ctx, 0, od, dt);
    if (v == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *ix = AllocChecked(ctx, 1, od, ge::DT_INT64);
    if (ix == nullptr) return ge::GRAPH_FAILED;
    const bool largest = AttrInt(ctx, 1, 1) != 0;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(Select<T>(x->GetData<T>(), v->GetData<T>(), ix->GetData<int64_t>(), d, ax, k, largest))
      OPENATC_OPS_INT_CASES(Select<T>(x->GetData<T>(), v->GetData<T>(), ix->GetData<int64_t>(), d, ax, k, largest))
      default:
        return Fail(ctx, "unsupported X dtype " + DtypeName(dt));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(TopK);

}  // namespace openatc_ops
