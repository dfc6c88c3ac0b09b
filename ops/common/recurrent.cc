// The shared part of RNN, GRU and LSTM (see recurrent.h for the ONNX facts it implements).
#include "common/recurrent.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/movement.h"

namespace openatc_ops::recurrent {
namespace {

enum Kind { kRelu, kTanh, kSigmoid, kAffine, kLeakyRelu, kThresholdedRelu, kScaledTanh, kHardSigmoid, kElu,
            kSoftsign, kSoftplus };

struct KindInfo {
  const char *name;
  Kind kind;
  int params;  // 0: none, 1: alpha, 2: alpha and beta
  double alpha, beta;
};

const KindInfo kKinds[] = {
    {"relu", kRelu, 0, 0, 0},           {"tanh", kTanh, 0, 0, 0},
    {"sigmoid", kSigmoid, 0, 0, 0},     {"affine", kAffine, 2, 1.0, 0.0},
    {"leakyrelu", kLeakyRelu, 1, 0.01, 0}, {"thresholdedrelu", kThresholdedRelu, 1, 1.0, 0},
    {"scaledtanh", kScaledTanh, 2, 1.0, 1.0}, {"hardsigmoid", kHardSigmoid, 2, 0.2, 0.5},
    {"elu", kElu, 1, 1.0, 0},           {"softsign", kSoftsign, 0, 0, 0},
    {"softplus", kSoftplus, 0, 0, 0},
};

std::string Lower(std::string s) {
  for (char &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The activations of every direction; "" or what is wrong.
std::string ParseActivations(const gert::ExtendedKernelContext *ctx, const OpSpec &spec, Problem *pb) {
  std::vector<std::string> names = AttrStrings(ctx, kActivations);
  const std::vector<float> alpha = AttrFloats(ctx, kAlpha), beta = AttrFloats(ctx, kBeta);
  const size_t per = spec.default_acts.size(), dirs = static_cast<size_t>(pb->dirs);
  if (names.empty()) names = spec.default_acts;
  const bool shared = names.size() == per && dirs == 2;  // one direction's list serves both
  if (!shared && names.size() != per * dirs) {
    return "activations lists " + std::to_string(names.size()) + " functions; this node needs " +
           std::to_string(per) + " per direction (" + std::to_string(per * dirs) + ")";
  }
  size_t ai = 0, bi = 0;
  pb->acts.clear();
  pb->per_dir = per;
  for (const std::string &n : names) {
    const std::string l = Lower(n);
    const KindInfo *k = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindInfo &i) { return l == i.name; });
    if (k == std::end(kKinds)) return "unknown activation '" + n + "'";
    Activation a;
    a.kind = k->kind;
    a.alpha = k->alpha;
    a.beta = k->beta;
    if (k->params >= 1 && ai < alpha.size()) a.alpha = alpha[ai++];
    if (k->params >= 2 && bi < beta.size()) a.beta = beta[bi++];
    pb->acts.push_back(a);
  }
  if (ai != alpha.size() || bi != beta.size())
    return "activation_alpha / activation_beta hold " + std::to_string(alpha.size()) + " / " + std::to_string(beta.size()) +
           " values but the activations take " + std::to_string(ai) + " / " + std::to_string(bi) +
           " (values are consumed in order by the activations that have an alpha / beta)";
  if (shared) {
    const std::vector<Activation> one = pb->acts;
    pb->acts.insert(pb->acts.end(), one.begin(), one.end());
  }
  return "";
}

// X, W, R, B, initial states, P into doubles; false when the dtype is not a float type.
bool ToDoubles(const gert::Tensor *t, std::vector<double> *out) {
  const size_t n = static_cast<size_t>(t->GetShapeSize());
  out->resize(n);
  switch (t->GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(const T *p = t->GetData<T>(); for (size_t i = 0; i < n; ++i)(*out)[i] = static_cast<double>(p[i]))
    default:
      return false;
  }
  return true;
}

bool IsFloat(ge::DataType d) { return d == ge::DT_FLOAT || d == ge::DT_FLOAT16 || d == ge::DT_DOUBLE; }

// Reads optional input `index` of shape `want` into `out` (zeros of that size when absent). `swap01`
// swaps the first two axes (layout 1 initial states) into layout 0.
bool ReadOptional(gert::EagerOpExecutionContext *ctx, size_t index, const char *name, Dims want, bool swap01,
                  ge::DataType dt, std::vector<double> *out) {
  const gert::Tensor *t = ctx->GetOptionalInputTensor(index);
  const int64_t n = NumElements(want);
  if (t == nullptr) {
    out->assign(static_cast<size_t>(n), 0.0);
    return true;
  }
  Dims given_want = want;
  if (swap01) std::swap(given_want[0], given_want[1]);
  if (TensorDims(*t) != given_want)
    return Fail(ctx, std::string(name) + " has shape " + DimsToString(TensorDims(*t)) + "; expected " +
                         DimsToString(given_want)), false;
  if (t->GetDataType() != dt)
    return Fail(ctx, std::string(name) + " has dtype " + DtypeName(t->GetDataType()) + "; X has " + DtypeName(dt)), false;
  std::vector<double> v;
  ToDoubles(t, &v);
  if (!swap01) {
    *out = std::move(v);
    return true;
  }
  out->resize(v.size());
  const int64_t a = want[0], b = want[1], inner = NumElements(Dims(want.begin() + 2, want.end()));
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b; ++j)
      std::copy_n(&v[static_cast<size_t>((j * a + i) * inner)], inner, &(*out)[static_cast<size_t>((i * b + j) * inner)]);
  return true;
}

// direction, hidden_size, layout and clip; false after Fail.
bool ReadAttrs(gert::EagerOpExecutionContext *ctx, Problem *pb) {
  const std::string dir = AttrStr(ctx, kDirection, "forward");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    return Fail(ctx, "direction '" + dir + "' is not forward, reverse or bidirectional"), false;
  pb->dirs = dir == "bidirectional" ? 2 : 1;
  pb->reverse = dir == "reverse";
  const int64_t layout = AttrInt(ctx, kLayout, 0);
  if (layout != 0 && layout != 1) return Fail(ctx, "layout " + std::to_string(layout) + " is not 0 or 1"), false;
  pb->layout1 = layout == 1;
  const float clip = AttrFloat(ctx, kClip, INFINITY);
  if (!(clip >= 0.0f)) return Fail(ctx, "clip " + std::to_string(clip) + " must be a non-negative threshold"), false;
  pb->has_clip = std::isfinite(clip);
  pb->clip = clip;
  return true;
}

// Shapes of X, W, R against each other; false after Fail.
bool ReadSizes(gert::EagerOpExecutionContext *ctx, const OpSpec &spec, Problem *pb) {
  const gert::Tensor *x = ctx->GetInputTensor(0), *w = ctx->GetInputTensor(1), *r = ctx->GetInputTensor(2);
  if (x == nullptr || w == nullptr || r == nullptr) return Fail(ctx, "inputs X, W and R are required"), false;
  const Dims xd = TensorDims(*x), wd = TensorDims(*w), rd = TensorDims(*r);
  if (xd.size() != 3 || wd.size() != 3 || rd.size() != 3)
    return Fail(ctx, "X " + DimsToString(xd) + ", W " + DimsToString(wd) + " and R " + DimsToString(rd) +
                         " must all have rank 3"), false;
  pb->gates = spec.gates;
  pb->seq = pb->layout1 ? xd[1] : xd[0];
  pb->batch = pb->layout1 ? xd[0] : xd[1];
  pb->input = xd[2];
  pb->hidden = rd[2];
  const int64_t hs = AttrInt(ctx, kHiddenSize, 0);
  if (hs != 0 && hs != pb->hidden)
    return Fail(ctx, "hidden_size " + std::to_string(hs) + " differs from R's last dim " + std::to_string(pb->hidden)), false;
  const Dims want_w{pb->dirs, spec.gates * pb->hidden, pb->input}, want_r{pb->dirs, spec.gates * pb->hidden, pb->hidden};
  if (wd != want_w || rd != want_r)
    return Fail(ctx, "W " + DimsToString(wd) + " / R " + DimsToString(rd) + " do not fit X " + DimsToString(xd) +
                         " and the direction: expected W " + DimsToString(want_w) + " and R " + DimsToString(want_r)), false;
  const ge::DataType dt = x->GetDataType();
  if (!IsFloat(dt)) return Fail(ctx, "unsupported X dtype " + DtypeName(dt)), false;
  if (w->GetDataType() != dt || r->GetDataType() != dt)
    return Fail(ctx, "W and R must have X's dtype " + DtypeName(dt)), false;
  std::vector<double> xv;
  ToDoubles(x, &xv);
  ToDoubles(w, &pb->w);
  ToDoubles(r, &pb->r);
  if (!pb->layout1) {
    pb->x = std::move(xv);
  } else {
    pb->x.resize(xv.size());
    for (int64_t b = 0; b < pb->batch; ++b)
      for (int64_t t = 0; t < pb->seq; ++t)
        std::copy_n(&xv[static_cast<size_t>((b * pb->seq + t) * pb->input)], pb->input,
                    &pb->x[static_cast<size_t>((t * pb->batch + b) * pb->input)]);
  }
  return true;
}

bool ReadLens(gert::EagerOpExecutionContext *ctx, Problem *pb) {
  const gert::Tensor *t = ctx->GetOptionalInputTensor(4);
  if (t == nullptr) {
    pb->lens.assign(static_cast<size_t>(pb->batch), pb->seq);
    return true;
  }
  if (!ReadInts(t, &pb->lens) || TensorDims(*t) != Dims{pb->batch})
    return Fail(ctx, "sequence_lens must be an int32 tensor of shape [" + std::to_string(pb->batch) + "], got " +
                         DtypeName(t->GetDataType()) + " " + DimsToString(TensorDims(*t))), false;
  for (size_t i = 0; i < pb->lens.size(); ++i)
    if (pb->lens[i] < 0 || pb->lens[i] > pb->seq)
      return Fail(ctx, "sequence_lens[" + std::to_string(i) + "] = " + std::to_string(pb->lens[i]) + " is outside [0, " +
                           std::to_string(pb->seq) + "]"), false;
  return true;
}

// Writes `v` (layout 0, dims `d0`) into output `index` in X's dtype, permuted by `perm` for layout 1.
bool WriteOutput(gert::EagerOpExecutionContext *ctx, size_t index, const std::vector<double> &v, const Dims &d0,
                 const std::vector<size_t> &perm, bool layout1, ge::DataType dt) {
  Dims od = d0;
  std::vector<double> out = v;
  if (layout1) {
    for (size_t i = 0; i < perm.size(); ++i) od[i] = d0[perm[i]];
    std::vector<int64_t> stride0(d0.size(), 1);
    for (size_t i = d0.size() - 1; i > 0; --i) stride0[i - 1] = stride0[i] * d0[i];
    std::vector<int64_t> idx(od.size(), 0);
    for (size_t flat = 0; flat < out.size(); ++flat) {
      int64_t src = 0;
      for (size_t i = 0; i < od.size(); ++i) src += idx[i] * stride0[perm[i]];
      out[flat] = v[static_cast<size_t>(src)];
      for (size_t i = od.size(); i-- > 0;) {
        if (++idx[i] < od[i]) break;
        idx[i] = 0;
      }
    }
  }
  gert::Tensor *t = AllocChecked(ctx, index, od, dt);
  if (t == nullptr) return false;
  switch (dt) {
    OPENATC_OPS_FLOAT_CASES(T *p = t->GetData<T>(); for (size_t i = 0; i < out.size(); ++i) p[i] = static_cast<T>(out[i]))
    default:
      return false;
  }
  return true;
}

}  // namespace

double Activation::operator()(double x) const {
  switch (kind) {
    case kRelu: return x > 0 ? x : (std::isnan(x) ? x : 0.0);
    case kTanh: return std::tanh(x);
    case kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case kAffine: return alpha * x + beta;
    case kLeakyRelu: return x >= 0 ? x : alpha * x;
    case kThresholdedRelu: return x > alpha ? x : (std::isnan(x) ? x : 0.0);
    case kScaledTanh: return alpha * std::tanh(beta * x);
    case kHardSigmoid: return std::isnan(x) ? x : std::max(0.0, std::min(1.0, alpha * x + beta));
    case kElu: return x >= 0 ? x : alpha * (std::exp(x) - 1.0);
    case kSoftsign: return x / (1.0 + std::fabs(x));
    case kSoftplus: return x > 30.0 ? x : std::log1p(std::exp(x));
    default: return x;
  }
}

bool ReadProblem(gert::EagerOpExecutionContext *ctx, const OpSpec &spec, Problem *pb) {
  if (!ReadAttrs(ctx, pb) || !ReadSizes(ctx, spec, pb) || !ReadLens(ctx, pb)) return false;
  const std::string err = ParseActivations(ctx, spec, pb);
  if (!err.empty()) return Fail(ctx, err), false;
  const ge::DataType dt = ctx->GetInputTensor(0)->GetDataType();
  const int64_t gh = spec.gates * pb->hidden;
  if (!ReadOptional(ctx, 3, "B", {pb->dirs, 2 * gh}, false, dt, &pb->b)) return false;
  const Dims state{pb->dirs, pb->batch, pb->hidden};
  if (!ReadOptional(ctx, 5, "initial_h", state, pb->layout1, dt, &pb->h0)) return false;
  if (!spec.lstm) return true;
  if (!ReadOptional(ctx, 6, "initial_c", state, pb->layout1, dt, &pb->c0)) return false;
  return ReadOptional(ctx, 7, "P", {pb->dirs, 3 * pb->hidden}, false, dt, &pb->p);
}

ge::graphStatus Run(gert::EagerOpExecutionContext *ctx, const Problem &pb, const Cell &cell) {
  const int64_t H = pb.hidden, GH = pb.gates * H, B = pb.batch;
  std::vector<double> y(static_cast<size_t>(pb.seq * pb.dirs * B * H), 0.0);
  std::vector<double> yh(static_cast<size_t>(pb.dirs * B * H)), yc(yh.size());
  std::vector<double> gx(static_cast<size_t>(GH));
  for (int64_t d = 0; d < pb.dirs; ++d) {
    const bool rev = pb.reverse || d == 1;
    const double *w = &pb.w[static_cast<size_t>(d * GH * pb.input)], *wb = &pb.b[static_cast<size_t>(d * 2 * GH)];
    for (int64_t b = 0; b < B; ++b) {
      const size_t st = static_cast<size_t>((d * B + b) * H);
      std::vector<double> h(pb.h0.begin() + static_cast<std::ptrdiff_t>(st), pb.h0.begin() + static_cast<std::ptrdiff_t>(st + H));
      std::vector<double> c(H, 0.0);
      if (!pb.c0.empty()) std::copy_n(&pb.c0[st], H, c.data());
      const int64_t len = pb.lens[static_cast<size_t>(b)];
      for (int64_t s = 0; s < len; ++s) {
        const int64_t t = rev ? len - 1 - s : s;
        const double *xt = &pb.x[static_cast<size_t>((t * B + b) * pb.input)];
        for (int64_t g = 0; g < GH; ++g) gx[static_cast<size_t>(g)] = Dot(w + g * pb.input, xt, pb.input) + wb[g];
        cell(pb, d, gx.data(), h.data(), c.data());
        std::copy(h.begin(), h.end(), &y[static_cast<size_t>(((t * pb.dirs + d) * B + b) * H)]);
      }
      std::copy(h.begin(), h.end(), &yh[st]);
      std::copy(c.begin(), c.end(), &yc[st]);
    }
  }
  const ge::DataType dt = ctx->GetInputTensor(0)->GetDataType();
  const size_t outs = ctx->GetComputeNodeOutputNum();
  const Dims state{pb.dirs, B, H};
  if (outs > 0 && !WriteOutput(ctx, 0, y, {pb.seq, pb.dirs, B, H}, {2, 0, 1, 3}, pb.layout1, dt)) return ge::GRAPH_FAILED;
  if (outs > 1 && !WriteOutput(ctx, 1, yh, state, {1, 0, 2}, pb.layout1, dt)) return ge::GRAPH_FAILED;
  if (outs > 2 && !WriteOutput(ctx, 2, yc, state, {1, 0, 2}, pb.layout1, dt)) return ge::GRAPH_FAILED;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferShape(gert::InferShapeContext *ctx, const OpSpec &spec) {
  const gert::Shape *x = ctx->GetInputShape(0), *r = ctx->GetInputShape(2);
  if (x == nullptr || r == nullptr) return Fail(ctx, "inputs X, W and R are required");
  const Dims xd = ToDims(*x), rd = ToDims(*r);
  const bool layout1 = AttrInt(ctx, kLayout, 0) == 1;
  const std::string dir = AttrStr(ctx, kDirection, "forward");
  const int64_t dirs = dir == "bidirectional" ? 2 : 1;
  int64_t seq = -1, batch = -1, hidden = AttrInt(ctx, kHiddenSize, 0);
  if (xd.size() == 3) {
    seq = layout1 ? xd[1] : xd[0];
    batch = layout1 ? xd[0] : xd[1];
  }
  if (hidden <= 0) hidden = rd.size() == 3 ? rd[2] : -1;
  const Dims y = layout1 ? Dims{batch, seq, dirs, hidden} : Dims{seq, dirs, batch, hidden};
  const Dims st = layout1 ? Dims{batch, dirs, hidden} : Dims{dirs, batch, hidden};
  const size_t outs = std::min<size_t>(ctx->GetComputeNodeOutputNum(), spec.lstm ? 3 : 2);
  for (size_t i = 0; i < outs; ++i) *ctx->GetOutputShape(i) = ToShape(i == 0 ? y : st);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) {
  const ge::DataType x = ctx->GetInputDataType(0);
  if (!IsFloat(x)) return Fail(ctx, "unsupported X dtype " + DtypeName(x));
  for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i)
    if (ctx->SetOutputDataType(i, x) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc_ops::recurrent
