// Unique (ONNX Unique-11): the distinct elements of X (no `axis`: X flattened) or the distinct
// slices of X along `axis` (negative counts from the end), with four outputs: Y (the unique
// values/slices), indices (int64, where each first occurs in X), inverse_indices (int64, for
// every element/slice of X its position in Y) and counts (int64, occurrences of each).
// sorted=1 (default): Y ascending (slices compared lexicographically in row-major order);
// sorted=0: Y in order of first occurrence. NaN sorts after every number and equals NaN (as
// numpy.unique does). Every output's size depends on the data (InferShape writes -1). A node
// may name fewer outputs (Y only, ...); only those are written.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "common/index_util.h"

namespace ge {
REG_OP(Unique)
    .INPUT(X, TensorType::ALL())
    .OUTPUT(Y, TensorType::ALL())
    .OUTPUT(indices, TensorType({DT_INT64}))
    .OUTPUT(inverse_indices, TensorType({DT_INT64}))
    .OUTPUT(counts, TensorType({DT_INT64}))
    .ATTR(axis, Int, INT64_MIN)  // INT64_MIN: absent (flatten)
    .ATTR(sorted, Int, 1)
    .OP_END_FACTORY_REG(Unique);
}  // namespace ge

namespace openatc_ops {
namespace {
constexpr int64_t kNoAxis = std::numeric_limits<int64_t>::min();

// -1 a < b, 0 equal, 1 a > b; NaN is above every number and equal to NaN.
template <typename T>
int Compare(T a, T b) {
  if constexpr (!std::is_integral<T>::value) {
    const bool na = std::isnan(static_cast<double>(a)), nb = std::isnan(static_cast<double>(b));
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

struct Layout {
  int64_t outer = 1, n = 0, inner = 1;
};

struct Groups {
  std::vector<int64_t> first;    // per unique slice: first index in X
  std::vector<int64_t> inverse;  // per X slice: its unique slice
  std::vector<int64_t> counts;
};

template <typename T>
Groups FindUnique(const T *x, const Layout &l, bool sorted) {
  auto cmp = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        const int c = Compare(x[(o * l.n + a) * l.inner + i], x[(o * l.n + b) * l.inner + i]);
        if (c != 0) return c;
      }
    return 0;
  };
  std::vector<int64_t> order(static_cast<size_t>(l.n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
  std::vector<int64_t> group_of(order.size());  // sorted group of each slice
  std::vector<int64_t> firsts;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || cmp(order[k - 1], order[k]) != 0) firsts.push_back(order[k]);
    group_of[static_cast<size_t>(order[k])] = static_cast<int64_t>(firsts.size()) - 1;
  }
  std::vector<int64_t> rank(firsts.size());  // output position of each sorted group
  std::iota(rank.begin(), rank.end(), int64_t{0});
  if (!sorted) {
    std::vector<int64_t> by_first(firsts.size());
    std::iota(by_first.begin(), by_first.end(), int64_t{0});
    std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) { return firsts[a] < firsts[b]; });
    for (size_t p = 0; p < by_first.size(); ++p) rank[static_cast<size_t>(by_first[p])] = static_cast<int64_t>(p);
  }
  Groups g;
  g.first.assign(firsts.size(), 0);
  g.counts.assign(firsts.size(), 0);
  for (size_t s = 0; s < firsts.size(); ++s) g.first[static_cast<size_t>(rank[s])] = firsts[s];
  for (size_t j = 0; j < group_of.size(); ++j) {
    const int64_t u = rank[static_cast<size_t>(group_of[j])];
    g.inverse.push_back(u);
    ++g.counts[static_cast<size_t>(u)];
  }
  return g;
}

// Y = the slices g.first of X (elements of `bytes` bytes).
template <typename U>
void GatherSlices(const U *x, U *y, const Layout &l, const std::vector<int64_t> &first) {
  const int64_t u = static_cast<int64_t>(first.size());
  for (int64_t o = 0; o < l.outer; ++o)
    for (int64_t k = 0; k < u; ++k)
      std::copy(x + (o * l.n + first[static_cast<size_t>(k)]) * l.inner,
                x + (o * l.n + first[static_cast<size_t>(k)] + 1) * l.inner, y + (o * u + k) * l.inner);
}

// Layout of X for `axis` (kNoAxis: flattened); false (after Fail) for an axis out of range.
bool MakeLayout(const gert::ExtendedKernelContext *ctx, const Dims &d, int64_t axis, Layout *l, int64_t *ax) {
  if (axis == kNoAxis) {
    l->n = NumElements(d);
    return true;
  }
  if (!NormalizeAxis(axis, static_cast<int64_t>(d.size()), ax))
    return Fail(ctx, "axis " + std::to_string(axis) + " is out of range for X " + DimsToString(d)), false;
  const size_t a = static_cast<size_t>(*ax);
  *l = {Prod(d, 0, a), d[a], Prod(d, a + 1, d.size())};
  return true;
}

ge::graphStatus WriteInts(gert::EagerOpExecutionContext *ctx, size_t index, const std::vector<int64_t> &v) {
  gert::Tensor *t = AllocChecked(ctx, index, {static_cast<int64_t>(v.size())}, ge::DT_INT64);
  if (t == nullptr) return ge::GRAPH_FAILED;
  std::copy(v.begin(), v.end(), t->GetData<int64_t>());
  return ge::GRAPH_SUCCESS;
}
}  // namespace

class Unique : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsOnnxDtype(d) || d == ge::DT_BF16) return Fail(ctx, "unsupported X dtype " + DtypeName(d));
    if (ctx->SetOutputDataType(0, d) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    for (size_t i = 1; i < 4 && i < ctx->GetComputeNodeOutputNum(); ++i)
      if (ctx->SetOutputDataType(i, ge::DT_INT64) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X expected");
    Dims d = ToDims(*x);
    const int64_t axis = AttrInt(ctx, 0, kNoAxis);
    int64_t ax = 0;
    if (axis == kNoAxis) {
      d = {-1};
    } else if (!(d.size() == 1 && d[0] == -2)) {
      if (!NormalizeAxis(axis, static_cast<int64_t>(d.size()), &ax))
        return Fail(ctx, "axis " + std::to_string(axis) + " is out of range for X " + DimsToString(d));
      d[static_cast<size_t>(ax)] = -1;
    }
    *ctx->GetOutputShape(0) = ToShape(d);
    for (size_t i = 1; i < 4 && i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = ToShape({-1});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is missing");
    const Dims d = TensorDims(*x);
    Layout l;
    int64_t ax = 0;
    const int64_t axis = AttrInt(ctx, 0, kNoAxis);
    if (!MakeLayout(ctx, d, axis, &l, &ax)) return ge::GRAPH_FAILED;
    const bool sorted = AttrInt(ctx, 1, 1) != 0;
    const ge::DataType dt = x->GetDataType();
    Groups g;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(g = FindUnique<T>(x->GetData<T>(), l, sorted))
      OPENATC_OPS_INT_CASES(g = FindUnique<T>(x->GetData<T>(), l, sorted))
      case ge::DT_BOOL: g = FindUnique<uint8_t>(static_cast<const uint8_t *>(x->GetAddr()), l, sorted); break;
      default:
        return Fail(ctx, "unsupported X dtype " + DtypeName(dt));
    }
    Dims yd = {static_cast<int64_t>(g.first.size())};
    if (axis != kNoAxis) {
      yd = d;
      yd[static_cast<size_t>(ax)] = static_cast<int64_t>(g.first.size());
    }
    gert::Tensor *y = AllocChecked(ctx, 0, yd, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool ok = WithElemType(ElemBytes(dt), [&](auto u) {
      using U = decltype(u);
      GatherSlices<U>(static_cast<const U *>(x->GetAddr()), static_cast<U *>(y->GetAddr()), l, g.first);
    });
    if (!ok) return Fail(ctx, "unsupported X dtype " + DtypeName(dt));
    const std::vector<int64_t> *extra[] = {&g.first, &g.inverse, &g.counts};
    for (size_t i = 1; i < 4 && i < ctx->GetComputeNodeOutputNum(); ++i)
      if (WriteInts(ctx, i, *extra[i - 1]) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Unique);

}  // namespace openatc_ops
