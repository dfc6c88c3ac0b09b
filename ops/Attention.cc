// Attention (ONNX Attention-23/24): scaled dot-product attention over Q [B, Hq, Sq, D] or
// [B, Sq, Hq*D] (q_num_heads / kv_num_heads then required), K/V [B, Hkv, Skv, D|Dv] or 3-D.
// past_key/past_value [B, Hkv, P, D|Dv] are prepended along the sequence axis (present_key /
// present_value). GQA/MQA: query head h reads kv head h / (Hq / Hkv). Per row:
//   s = Q.K^T * scale (default 1/sqrt(D))      -> qk_matmul_output mode 0
//   s = softcap * tanh(s / softcap) if > 0     -> mode 2
//   s += bias (attn_mask: bool false or float added, a shorter last dim padded with -inf;
//        is_causal: key j masked when j > i + offset, offset = P, or nonpad_kv_seqlen[b] - Sq
//        without past; nonpad_kv_seqlen (opset 24): keys j >= nonpad[b] masked) -> mode 1
//   p = softmax(s) (an all-masked row gives NaN, as ONNX's reference does) -> mode 3
//   Y = p.V
// softcap comes before the mask so that masked keys stay masked (ONNX's reference order). Computed
// in double from float copies (at least the precision any softmax_precision asks for); plain loops.
#include <cmath>
#include <limits>

#include "common/dnnl_util.h"

namespace ge {
REG_OP(Attention)
    .INPUT(Q, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(K, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(V, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(attn_mask, TensorType({DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(past_key, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(past_value, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(nonpad_kv_seqlen, TensorType({DT_INT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(present_key, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(present_value, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(qk_matmul_output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(is_causal, Int, 0)
    .ATTR(kv_num_heads, Int, 0)
    .ATTR(q_num_heads, Int, 0)
    .ATTR(qk_matmul_output_mode, Int, 0)
    .ATTR(scale, Float, std::numeric_limits<float>::quiet_NaN())
    .ATTR(softcap, Float, 0.0f)
    .ATTR(softmax_precision, Int, 1)
    .OP_END_FACTORY_REG(Attention);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kIsCausal, kKvNumHeads, kQNumHeads, kQkMode, kScale, kSoftcap, kSoftmaxPrecision };
enum In { kQ, kK, kV, kMask, kPastKey, kPastValue, kNonpad };

struct Geometry {
  int64_t b = 0, hq = 0, hkv = 0, sq = 0, skv = 0, past = 0, d = 0, dv = 0;
  bool three_d = false;
  int64_t total() const { return past + skv; }
};

// Heads and length of a 3-D [B, S, H*E] or 4-D [B, H, S, E] operand; `heads_attr` 0 = unset.
std::string Split(const char *name, const Dims &t, int64_t heads_attr, int64_t *heads, int64_t *seq, int64_t *e) {
  if (t.size() == 4) {
    if (heads_attr > 0 && heads_attr != t[1])
      return std::string(name) + " " + DimsToString(t) + " has " + std::to_string(t[1]) + " heads, the attribute says " +
             std::to_string(heads_attr);
    *heads = t[1], *seq = t[2], *e = t[3];
    return "";
  }
  if (t.size() != 3) return std::string(name) + " must be 3-D or 4-D, got " + DimsToString(t);
  if (heads_attr <= 0) return std::string("q_num_heads and kv_num_heads must be set for 3-D inputs (") + name + " " + DimsToString(t) + ")";
  if (t[2] % heads_attr != 0)
    return std::string(name) + "'s hidden size " + std::to_string(t[2]) + " is not a multiple of " + std::to_string(heads_attr) + " heads";
  *heads = heads_attr, *seq = t[1], *e = t[2] / heads_attr;
  return "";
}

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &q, const Dims &k, const Dims &v, const Dims *pk,
                    const Dims *pv, Geometry *g) {
  if (q.size() != k.size() || q.size() != v.size())
    return "Q " + DimsToString(q) + ", K " + DimsToString(k) + " and V " + DimsToString(v) + " must have the same rank";
  const int64_t qh = AttrInt(ctx, kQNumHeads, 0), kvh = AttrInt(ctx, kKvNumHeads, 0);
  int64_t hk = 0, hv = 0, sk = 0, sv = 0;
  std::string err = Split("Q", q, qh, &g->hq, &g->sq, &g->d);
  if (err.empty()) err = Split("K", k, kvh, &hk, &sk, &g->d);
  int64_t dq = q.size() == 4 ? q[3] : g->hq > 0 ? q[2] / g->hq : 0;
  if (err.empty()) err = Split("V", v, kvh, &hv, &sv, &g->dv);
  if (!err.empty()) return err;
  g->three_d = q.size() == 3;
  g->b = q[0];
  if (k[0] != g->b || v[0] != g->b) return "Q, K and V must have the same batch size";
  if (dq != g->d) return "Q's head size " + std::to_string(dq) + " differs from K's " + std::to_string(g->d);
  if (hk != hv || sk != sv) return "K " + DimsToString(k) + " and V " + DimsToString(v) + " disagree on heads or sequence length";
  g->hkv = hk, g->skv = sk;
  if (g->hkv <= 0 || g->hq % g->hkv != 0)
    return "q_num_heads " + std::to_string(g->hq) + " is not a multiple of kv_num_heads " + std::to_string(g->hkv);
  if ((pk == nullptr) != (pv == nullptr)) return "past_key and past_value must be given together";
  if (pk) {
    if (*pk != Dims{g->b, g->hkv, (*pk).size() == 4 ? (*pk)[2] : -1, g->d} || pv->size() != 4 ||
        *pv != Dims{g->b, g->hkv, (*pk)[2], g->dv})
      return "past_key " + DimsToString(*pk) + " / past_value " + DimsToString(*pv) + " must be [B, kv_num_heads, P, head_size]";
    g->past = (*pk)[2];
  }
  const int64_t mode = AttrInt(ctx, kQkMode, 0);
  if (mode < 0 || mode > 3) return "qk_matmul_output_mode " + std::to_string(mode) + " is not 0, 1, 2 or 3";
  return "";
}

Dims YDims(const Geometry &g) { return g.three_d ? Dims{g.b, g.sq, g.hq * g.dv} : Dims{g.b, g.hq, g.sq, g.dv}; }

// Element offset of (b, head, s, e) in a 3-D [B, S, H*E] or 4-D [B, H, S, E] tensor.
int64_t At(bool three_d, int64_t heads, int64_t seq, int64_t e_size, int64_t b, int64_t h, int64_t s, int64_t e) {
  return three_d ? ((b * seq + s) * heads + h) * e_size + e : ((b * heads + h) * seq + s) * e_size + e;
}

// Concatenates past [B, H, P, E] and the new part (3-D or 4-D) into present [B, H, P+S, E].
void Present(const Geometry &g, int64_t e, const float *past, const float *cur, float *out) {
  const int64_t t = g.total();
  for (int64_t b = 0; b < g.b; ++b)
    for (int64_t h = 0; h < g.hkv; ++h)
      for (int64_t s = 0; s < t; ++s)
        for (int64_t i = 0; i < e; ++i)
          out[((b * g.hkv + h) * t + s) * e + i] =
              s < g.past ? past[((b * g.hkv + h) * g.past + s) * e + i]
                         : cur[At(g.three_d, g.hkv, g.skv, e, b, h, s - g.past, i)];
}

// The additive bias of the mask for (b, h, i, j): strides over a mask right-aligned to
// [B, Hq, Sq, T]. The last dim is not broadcast: keys past it are masked (ONNX's reference pads a
// shorter mask with -inf / false, a [..., 1] mask included).
struct Mask {
  const float *f = nullptr;
  const bool *m = nullptr;
  int64_t stride[4] = {0, 0, 0, 0}, last = 0;
  double At(int64_t b, int64_t h, int64_t i, int64_t j) const {
    if (f == nullptr && m == nullptr) return 0;
    if (j >= last) return -INFINITY;
    const int64_t o = b * stride[0] + h * stride[1] + i * stride[2] + j;
    return f ? static_cast<double>(f[o]) : (m[o] ? 0.0 : -INFINITY);
  }
};

std::string MakeMask(const Dims &md, const Geometry &g, Mask *mask) {
  if (md.empty() || md.size() > 4) return "attn_mask " + DimsToString(md) + " must have rank 1 to 4";
  const Dims want = {g.b, g.hq, g.sq, g.total()};
  Dims m4(4 - md.size(), 1);
  m4.insert(m4.end(), md.begin(), md.end());
  int64_t st = 1;
  for (int k = 3; k >= 0; --k) {
    const bool ok = k == 3 ? m4[k] <= want[k] : m4[k] == 1 || m4[k] == want[k];
    if (!ok) return "attn_mask " + DimsToString(md) + " does not broadcast to [B, q_num_heads, Sq, total_seq] " + DimsToString(want);
    mask->stride[k] = m4[k] == 1 ? 0 : st;
    st *= m4[k];
  }
  mask->last = m4[3];
  return "";
}
}  // namespace

class Attention : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType q = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(q)) return Fail(ctx, "Q must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != q || ctx->GetInputDataType(2) != q) return Fail(ctx, "K and V must have Q's dtype");
    ge::graphStatus st = ge::GRAPH_SUCCESS;
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum() && st == ge::GRAPH_SUCCESS; ++i) st = ctx->SetOutputDataType(i, q);
    return st;
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *q = ctx->GetRequiredInputShape(kQ), *k = ctx->GetRequiredInputShape(kK), *v = ctx->GetRequiredInputShape(kV);
    if (q == nullptr || k == nullptr || v == nullptr) return Fail(ctx, "inputs Q, K and V are required");
    const gert::Shape *pk = ctx->GetOptionalInputShape(kPastKey), *pv = ctx->GetOptionalInputShape(kPastValue);
    const Dims qd = ToDims(*q), kd = ToDims(*k), vd = ToDims(*v), pkd = pk ? ToDims(*pk) : Dims{}, pvd = pv ? ToDims(*pv) : Dims{};
    for (const Dims *d : {&qd, &kd, &vd, &pkd, &pvd})
      if (NumElements(*d) < 0) {  // unknown dims: shapes are settled at run time
        for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = ToShape(Dims(i == 0 ? qd.size() : 4, -1));
        return ge::GRAPH_SUCCESS;
      }
    Geometry g;
    const std::string err = Resolve(ctx, qd, kd, vd, pk ? &pkd : nullptr, pv ? &pvd : nullptr, &g);
    if (!err.empty()) return Fail(ctx, err);
    const Dims shapes[4] = {YDims(g), {g.b, g.hkv, g.total(), g.d}, {g.b, g.hkv, g.total(), g.dv}, {g.b, g.hq, g.sq, g.total()}};
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum() && i < 4; ++i) *ctx->GetOutputShape(i) = ToShape(shapes[i]);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *q = ctx->GetRequiredInputTensor(kQ), *k = ctx->GetRequiredInputTensor(kK), *v = ctx->GetRequiredInputTensor(kV);
    if (q == nullptr || k == nullptr || v == nullptr) return Fail(ctx, "inputs Q, K and V are required");
    const gert::Tensor *mt = ctx->GetOptionalInputTensor(kMask), *pk = ctx->GetOptionalInputTensor(kPastKey),
                       *pv = ctx->GetOptionalInputTensor(kPastValue), *np = ctx->GetOptionalInputTensor(kNonpad);
    const Dims pkd = pk ? ToDims(pk->GetStorageShape()) : Dims{}, pvd = pv ? ToDims(pv->GetStorageShape()) : Dims{};
    Geometry g;
    std::string err = Resolve(ctx, ToDims(q->GetStorageShape()), ToDims(k->GetStorageShape()), ToDims(v->GetStorageShape()),
                              pk ? &pkd : nullptr, pv ? &pvd : nullptr, &g);
    if (!err.empty()) return Fail(ctx, err);
    const int64_t t = g.total();
    Mask mask;
    std::vector<float> sq, sk, sv, spk, spv, sm;
    if (mt) {
      err = MakeMask(ToDims(mt->GetStorageShape()), g, &mask);
      if (!err.empty()) return Fail(ctx, err);
      if (mt->GetDataType() == ge::DT_BOOL) mask.m = mt->GetData<bool>();
      else if (mt->GetDataType() == q->GetDataType()) mask.f = dnnl_util::AsF32(*mt, &sm);
      else return Fail(ctx, "attn_mask must be bool or Q's dtype");
      if (NumElements(ToDims(mt->GetStorageShape())) > 0 && mask.m == nullptr && mask.f == nullptr) return Fail(ctx, "attn_mask has no data");
    }
    std::vector<int64_t> nonpad;
    if (np) {
      if (!ReadInts(np, &nonpad) || static_cast<int64_t>(nonpad.size()) != g.b) return Fail(ctx, "nonpad_kv_seqlen must be int64 [batch]");
      for (int64_t n : nonpad)
        if (n < 0 || n > t) return Fail(ctx, "nonpad_kv_seqlen " + std::to_string(n) + " is outside [0, " + std::to_string(t) + "]");
    }
    const size_t nout = ctx->GetComputeNodeOutputNum();
    const Dims shapes[4] = {YDims(g), {g.b, g.hkv, t, g.d}, {g.b, g.hkv, t, g.dv}, {g.b, g.hq, g.sq, t}};
    gert::Tensor *outs[4] = {nullptr, nullptr, nullptr, nullptr};
    std::vector<float> scratch[4];
    float *po[4] = {nullptr, nullptr, nullptr, nullptr};
    for (size_t i = 0; i < nout && i < 4; ++i) {
      outs[i] = AllocOutput(ctx, i, shapes[i], q->GetDataType());
      if (outs[i] == nullptr) return ge::GRAPH_FAILED;
      po[i] = dnnl_util::OutF32(*outs[i], &scratch[i]);
    }
    const float *pq = dnnl_util::AsF32(*q, &sq), *pkk = dnnl_util::AsF32(*k, &sk), *pvv = dnnl_util::AsF32(*v, &sv);
    const float *ppk = pk ? dnnl_util::AsF32(*pk, &spk) : nullptr, *ppv = pv ? dnnl_util::AsF32(*pv, &spv) : nullptr;
    // The full key / value sequence [B, Hkv, T, E]: present_key / present_value or scratch.
    std::vector<float> keys, values;
    float *kall = po[1], *vall = po[2];
    if (kall == nullptr) keys.resize(static_cast<size_t>(g.b * g.hkv * t * g.d)), kall = keys.data();
    if (vall == nullptr) values.resize(static_cast<size_t>(g.b * g.hkv * t * g.dv)), vall = values.data();
    Present(g, g.d, ppk, pkk, kall);
    Present(g, g.dv, ppv, pvv, vall);
    const float scale_attr = AttrFloat(ctx, kScale, std::numeric_limits<float>::quiet_NaN());
    const double scale = std::isnan(scale_attr) ? 1.0 / std::sqrt(static_cast<double>(g.d)) : scale_attr;
    const double softcap = AttrFloat(ctx, kSoftcap, 0.0f);
    const bool causal = AttrInt(ctx, kIsCausal, 0) != 0;
    const int64_t mode = AttrInt(ctx, kQkMode, 0), group = g.hq / g.hkv;
    std::vector<double> s(static_cast<size_t>(t)), snap(static_cast<size_t>(t));
    for (int64_t b = 0; b < g.b; ++b) {
      const int64_t offset = pk ? g.past : (np ? nonpad[static_cast<size_t>(b)] - g.sq : 0);
      for (int64_t h = 0; h < g.hq; ++h) {
        const int64_t kvh = h / group;
        for (int64_t i = 0; i < g.sq; ++i) {
          const float *qrow = pq + At(g.three_d, g.hq, g.sq, g.d, b, h, i, 0);
          double mx = -INFINITY;
          for (int64_t j = 0; j < t; ++j) {
            const float *krow = kall + ((b * g.hkv + kvh) * t + j) * g.d;
            double acc = 0;
            for (int64_t e = 0; e < g.d; ++e) acc += static_cast<double>(qrow[e]) * krow[e];
            double x = acc * scale;
            if (mode == 0) snap[j] = x;
            if (softcap > 0) x = softcap * std::tanh(x / softcap);
            if (mode == 2) snap[j] = x;
            double bias = mask.At(b, h, i, j);
            if (causal && j > i + offset) bias = -INFINITY;
            if (np && j >= nonpad[static_cast<size_t>(b)]) bias = -INFINITY;
            x += bias;
            if (mode == 1) snap[j] = x;
            s[j] = x;
            mx = std::max(mx, x);  // NaN scores: std::max keeps mx, the NaN reaches the sum below
          }
          double sum = 0;
          for (int64_t j = 0; j < t; ++j) sum += (s[j] = std::exp(s[j] - mx));
          for (int64_t j = 0; j < t; ++j) s[j] /= sum;
          if (mode == 3) snap = s;
          if (po[3]) {
            float *qk = po[3] + ((b * g.hq + h) * g.sq + i) * t;
            for (int64_t j = 0; j < t; ++j) qk[j] = static_cast<float>(snap[j]);
          }
          if (po[0]) {
            float *y = po[0] + At(g.three_d, g.hq, g.sq, g.dv, b, h, i, 0);
            for (int64_t e = 0; e < g.dv; ++e) {
              double acc = 0;
              for (int64_t j = 0; j < t; ++j) acc += s[j] * vall[((b * g.hkv + kvh) * t + j) * g.dv + e];
              y[e] = static_cast<float>(acc);
            }
          }
        }
      }
    }
    for (size_t i = 0; i < nout && i < 4; ++i) dnnl_util::StoreF32(scratch[i], *outs[i]);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Attention);

}  // namespace openatc_ops
