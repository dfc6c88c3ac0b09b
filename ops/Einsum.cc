// Einsum (ONNX Einsum-12): a general contraction of N inputs by an `equation` in numpy's form:
// terms of letters (a-z, A-Z) separated by ',', an optional "->" output term (implicit output:
// the letters occurring once, in ASCII order, after the ellipsis dims), '...' for broadcast
// leading dims (right-aligned across inputs, size-1 dims broadcast), a letter repeated inside
// one term takes that term's diagonal. Every letter not in the output is summed over. Computed
// by explicit index loops with a double accumulator (int64 for integer dtypes); all inputs share
// one numeric dtype.
#include <algorithm>
#include <map>

#include "common/index_util.h"

namespace ge {
REG_OP(Einsum)
    .DYNAMIC_INPUT(Inputs, TensorType::RealNumberType())
    .OUTPUT(Output, TensorType::RealNumberType())
    .REQUIRED_ATTR(equation, String)
    .OP_END_FACTORY_REG(Einsum);
}  // namespace ge

namespace openatc_ops {
namespace {
// Labels: letters keep their char code; ellipsis dim k (of the E broadcast dims) is 256 + k.
constexpr int kEllipsis = 256;

struct Plan {
  std::vector<std::vector<int>> in;  // labels of each input dim
  std::vector<int> out;              // labels of the output dims
  std::map<int, int64_t> size;       // size of every label (-1 unknown)
};

// Letters of one term; '...' becomes the label -1 (expanded later). False on a bad character.
bool ParseTerm(const std::string &t, std::vector<int> *labels, std::string *err) {
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      labels->push_back(c);
    } else if (t.compare(i, 3, "...") == 0) {
      labels->push_back(-1);
      i += 2;
    } else {
      *err = "unexpected character '" + std::string(1, c) + "' in term '" + t + "'";
      return false;
    }
  }
  int dots = 0;
  for (int l : *labels) dots += l == -1;
  if (dots > 1) *err = "more than one '...' in term '" + t + "'";
  return dots <= 1;
}

// Expands '...' of a term with `rank` dims into ellipsis labels; false when the rank does not fit.
bool Expand(const std::vector<int> &term, size_t rank, size_t *ell, std::vector<int> *out) {
  const bool has = std::find(term.begin(), term.end(), -1) != term.end();
  const size_t letters = term.size() - (has ? 1 : 0);
  if (rank < letters || (!has && rank != letters)) return false;
  *ell = has ? rank - letters : 0;
  for (int l : term)
    if (l != -1) out->push_back(l);
    else
      for (size_t k = 0; k < *ell; ++k) out->push_back(-2 - static_cast<int>(k));  // fixed up below
  return true;
}

std::string Strip(const std::string &s) {
  std::string r;
  for (char c : s)
    if (c != ' ') r += c;
  return r;
}

// The input terms of `lhs` as labels (ellipsis dims right-aligned) into p->in; sets *max_ell.
bool InputLabels(const std::string &lhs, const std::string &equation, const std::vector<Dims> &shapes, Plan *p,
                 size_t *max_ell, std::string *err) {
  std::vector<std::string> terms(1);
  for (char c : lhs)
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  if (terms.size() != shapes.size()) {
    *err = "equation '" + equation + "' has " + std::to_string(terms.size()) + " input terms for " +
           std::to_string(shapes.size()) + " inputs";
    return false;
  }
  std::vector<size_t> ells(shapes.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    std::vector<int> t, e;
    if (!ParseTerm(terms[i], &t, err)) return false;
    if (!Expand(t, shapes[i].size(), &ells[i], &e)) {
      *err = "term '" + terms[i] + "' does not fit input " + std::to_string(i) + " of shape " +
             DimsToString(shapes[i]);
      return false;
    }
    *max_ell = std::max(*max_ell, ells[i]);
    p->in.push_back(e);
  }
  for (size_t i = 0; i < p->in.size(); ++i)  // right-align ellipsis dims: dim k of e is label E - e + k
    for (int &l : p->in[i])
      if (l <= -2) l = kEllipsis + static_cast<int>(*max_ell - ells[i]) + (-2 - l);
  return true;
}

// p->size from the inputs' dims: a letter's dims must agree, ellipsis dims of size 1 broadcast.
bool LabelSizes(const std::vector<Dims> &shapes, Plan *p, std::string *err) {
  for (size_t i = 0; i < p->in.size(); ++i)
    for (size_t k = 0; k < p->in[i].size(); ++k) {
      const int l = p->in[i][k];
      const int64_t s = shapes[i][k];
      auto it = p->size.find(l);
      if (it == p->size.end()) {
        p->size[l] = s;
        continue;
      }
      int64_t &cur = it->second;
      if (cur == s || s < 0 || (l >= kEllipsis && s == 1)) continue;
      if (cur < 0 || (l >= kEllipsis && cur == 1)) {
        cur = s;
        continue;
      }
      *err = "dimension " + std::to_string(k) + " of input " + std::to_string(i) + " is " + std::to_string(s) +
             " where its label has size " + std::to_string(cur);
      return false;
    }
  return true;
}

// p->out from the explicit output term `rhs`, or (implicit) the ellipsis dims and the letters used once.
bool OutputLabels(bool has_rhs, const std::string &rhs, size_t max_ell, Plan *p, std::string *err) {
  std::vector<int> out;
  if (has_rhs) {
    std::vector<int> t;
    if (!ParseTerm(rhs, &t, err)) return false;
    for (int l : t)
      if (l != -1) out.push_back(l);
      else
        for (size_t k = 0; k < max_ell; ++k) out.push_back(kEllipsis + static_cast<int>(k));
    for (int l : out) {
      const std::string name = "output label '" + std::string(1, static_cast<char>(l)) + "'";
      if (std::count(out.begin(), out.end(), l) > 1) return *err = name + " occurs more than once", false;
      if (!p->size.count(l)) return *err = name + " does not occur in any input term", false;
    }
  } else {
    for (size_t k = 0; k < max_ell; ++k) out.push_back(kEllipsis + static_cast<int>(k));
    std::map<int, int> uses;
    for (const auto &t : p->in)
      for (int l : t) ++uses[l];
    for (const auto &[l, n] : uses)
      if (l < kEllipsis && n == 1) out.push_back(l);
  }
  p->out = out;
  return true;
}

// Parses the equation for inputs of `shapes`; false with `err` set on a bad equation or shapes.
bool MakePlan(const std::string &equation, const std::vector<Dims> &shapes, Plan *p, std::string *err) {
  const std::string eq = Strip(equation);
  const size_t arrow = eq.find("->");
  size_t max_ell = 0;
  if (!InputLabels(eq.substr(0, arrow), equation, shapes, p, &max_ell, err)) return false;
  if (!LabelSizes(shapes, p, err)) return false;
  const bool has_rhs = arrow != std::string::npos;
  return OutputLabels(has_rhs, has_rhs ? eq.substr(arrow + 2) : "", max_ell, p, err);
}

Dims OutDims(const Plan &p) {
  Dims d;
  for (int l : p.out) d.push_back(p.size.at(l));
  return d;
}

// Strides of each label over one input (repeated labels add up: the diagonal; size-1 broadcast: 0).
std::map<int, int64_t> LabelStrides(const std::vector<int> &labels, const Dims &d) {
  std::map<int, int64_t> s;
  int64_t stride = 1;
  for (size_t k = labels.size(); k-- > 0;) {
    if (d[k] != 1) s[labels[k]] += stride;
    stride *= d[k];
  }
  return s;
}

template <typename T>
void Contract(const Plan &p, const std::vector<const T *> &x, const std::vector<Dims> &shapes, T *y) {
  using Acc = typename std::conditional<std::is_integral<T>::value, int64_t, double>::type;
  std::vector<int> loop = p.out;  // output labels, then the summed ones
  for (const auto &[l, n] : p.size)
    if (std::find(p.out.begin(), p.out.end(), l) == p.out.end()) loop.push_back(l);
  std::vector<int64_t> extent;
  for (int l : loop) extent.push_back(p.size.at(l));
  std::vector<std::vector<int64_t>> st(x.size(), std::vector<int64_t>(loop.size(), 0));
  for (size_t i = 0; i < x.size(); ++i) {
    const auto s = LabelStrides(p.in[i], shapes[i]);
    for (size_t k = 0; k < loop.size(); ++k) st[i][k] = s.count(loop[k]) ? s.at(loop[k]) : 0;
  }
  const int64_t out_n = NumElements(OutDims(p)), sum_n = Prod(extent, p.out.size(), extent.size());
  std::vector<int64_t> idx(loop.size(), 0);
  for (int64_t o = 0; o < out_n; ++o) {
    Acc acc = 0;
    for (int64_t s = 0; s < sum_n; ++s) {
      Acc term = 1;
      for (size_t i = 0; i < x.size(); ++i) {
        int64_t off = 0;
        for (size_t k = 0; k < loop.size(); ++k) off += idx[k] * st[i][k];
        term *= static_cast<Acc>(x[i][off]);
      }
      acc += term;
      for (size_t k = loop.size(); k-- > 0;) {  // next index; the carry out of the summed part
        if (++idx[k] < extent[k]) break;         // moves on to the next output element
        idx[k] = 0;
      }
    }
    if (sum_n == 0)
      for (size_t k = p.out.size(); k-- > 0;) {
        if (++idx[k] < extent[k]) break;
        idx[k] = 0;
      }
    y[o] = static_cast<T>(acc);
  }
}
}  // namespace

class Einsum : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (ElemBytes(d) == 0 || d == ge::DT_BOOL || d == ge::DT_BF16) return Fail(ctx, "unsupported dtype " + DtypeName(d));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    std::vector<Dims> shapes;
    for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) {
      const gert::Shape *s = ctx->GetInputShape(i);
      if (s == nullptr) return Fail(ctx, "input " + std::to_string(i) + " expected");
      shapes.push_back(ToDims(*s));
      if (shapes.back().size() == 1 && shapes.back()[0] == -2) {
        *ctx->GetOutputShape(0) = ToShape({-2});
        return ge::GRAPH_SUCCESS;
      }
    }
    Plan p;
    std::string err;
    if (!MakePlan(AttrStr(ctx, 0, ""), shapes, &p, &err)) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(OutDims(p));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    std::vector<Dims> shapes;
    std::vector<const gert::Tensor *> in;
    for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) {
      in.push_back(ctx->GetInputTensor(i));
      if (in.back() == nullptr) return Fail(ctx, "input " + std::to_string(i) + " is missing");
      shapes.push_back(TensorDims(*in.back()));
      if (in.back()->GetDataType() != in[0]->GetDataType()) return Fail(ctx, "all inputs must share one dtype");
    }
    if (in.empty()) return Fail(ctx, "at least one input expected");
    Plan p;
    std::string err;
    if (!MakePlan(AttrStr(ctx, 0, ""), shapes, &p, &err)) return Fail(ctx, err);
    const ge::DataType dt = in[0]->GetDataType();
    gert::Tensor *y = AllocChecked(ctx, 0, OutDims(p), dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(std::vector<const T *> xs; for (auto *t : in) xs.push_back(t->GetData<T>());
                              Contract<T>(p, xs, shapes, y->GetData<T>()))
      OPENATC_OPS_INT_CASES(std::vector<const T *> xs; for (auto *t : in) xs.push_back(t->GetData<T>());
                            Contract<T>(p, xs, shapes, y->GetData<T>()))
      default:
        return Fail(ctx, "unsupported dtype " + DtypeName(dt));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Einsum);

}  // namespace openatc_ops
