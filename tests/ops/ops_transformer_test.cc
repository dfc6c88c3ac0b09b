// Transformer-era ONNX ops (Attention-23/24, RMSNormalization-23, RotaryEmbedding-23, Gelu-20,
// Swish-24) through the one-op harness: hand values, and for Attention a plain double reference
// written here (4-D, GQA, past cache, causal, float mask, softcap) compared with the op in its
// 4-D and 3-D forms.
#include <catch2/catch.hpp>

#include <cmath>

#include "op_checks.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;
using F = std::vector<float>;

void CheckNearD(const F &got, const std::vector<double> &want, double tol = 1e-5) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= tol + tol * std::fabs(want[i]));
  }
}

// x[i] = ((i * 7) % 13 - 6) / 8: mixed signs, exact in float.
F Ramp(size_t n, int shift = 0) {
  F v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + shift) % 13) - 6) / 8.0f;
  return v;
}

struct AttnRef {
  int64_t b, hq, hkv, sq, skv, past, d, dv;
  bool causal = false;
  double scale = 0, softcap = 0;
  const F *mask = nullptr;  // [sq, past + skv] float, broadcast over batch and heads
};

// Y [B, Hq, Sq, Dv] and the softmax probabilities [B, Hq, Sq, T] from 4-D Q, K, V and the past.
void Reference(const AttnRef &r, const F &q, const F &k, const F &v, const F &pk, const F &pv, std::vector<double> *y,
               std::vector<double> *probs) {
  const int64_t t = r.past + r.skv;
  auto key = [&](int64_t b, int64_t h, int64_t j, int64_t e) {
    return j < r.past ? pk[((b * r.hkv + h) * r.past + j) * r.d + e] : k[((b * r.hkv + h) * r.skv + j - r.past) * r.d + e];
  };
  auto val = [&](int64_t b, int64_t h, int64_t j, int64_t e) {
    return j < r.past ? pv[((b * r.hkv + h) * r.past + j) * r.dv + e] : v[((b * r.hkv + h) * r.skv + j - r.past) * r.dv + e];
  };
  y->assign(static_cast<size_t>(r.b * r.hq * r.sq * r.dv), 0);
  probs->assign(static_cast<size_t>(r.b * r.hq * r.sq * t), 0);
  for (int64_t b = 0; b < r.b; ++b)
    for (int64_t h = 0; h < r.hq; ++h)
      for (int64_t i = 0; i < r.sq; ++i) {
        const int64_t kh = h * r.hkv / r.hq;
        std::vector<double> s(static_cast<size_t>(t));
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < t; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < r.d; ++e) dot += double(q[((b * r.hq + h) * r.sq + i) * r.d + e]) * key(b, kh, j, e);
          dot *= r.scale;
          if (r.softcap > 0) dot = r.softcap * std::tanh(dot / r.softcap);
          if (r.mask) dot += (*r.mask)[static_cast<size_t>(i * t + j)];
          if (r.causal && j > i + r.past) dot = -INFINITY;
          s[j] = dot;
          mx = std::max(mx, dot);
        }
        for (double &x : s) sum += (x = std::exp(x - mx));
        for (int64_t j = 0; j < t; ++j) {
          const double p = s[j] / sum;
          (*probs)[((b * r.hq + h) * r.sq + i) * t + j] = p;
          for (int64_t e = 0; e < r.dv; ++e) (*y)[((b * r.hq + h) * r.sq + i) * r.dv + e] += p * val(b, kh, j, e);
        }
      }
}

// [B, H, S, E] -> [B, S, H*E]
F To3D(const F &x, int64_t b, int64_t h, int64_t s, int64_t e) {
  F out(x.size());
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < h; ++j)
      for (int64_t k = 0; k < s; ++k)
        for (int64_t l = 0; l < e; ++l) out[((i * s + k) * h + j) * e + l] = x[((i * h + j) * s + k) * e + l];
  return out;
}
std::vector<double> To3D(const std::vector<double> &x, int64_t b, int64_t h, int64_t s, int64_t e) {
  std::vector<double> out(x.size());
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < h; ++j)
      for (int64_t k = 0; k < s; ++k)
        for (int64_t l = 0; l < e; ++l) out[((i * s + k) * h + j) * e + l] = x[((i * h + j) * s + k) * e + l];
  return out;
}
}  // namespace

TEST_CASE("Attention by hand: one query, two keys (ONNX-23)", "[ops][attention]") {
  // scores [1, 0] (scale 1): p = [e, 1] / (e + 1); Y = p . [[1, 2], [3, 4]].
  auto out = RunOp({"Attention",
                    {{Fl({1, 1, 1, 2}, {1, 0})}, {Fl({1, 1, 2, 2}, {1, 0, 0, 1})}, {Fl({1, 1, 2, 2}, {1, 2, 3, 4})}},
                    {{"scale", FloatAttr(1.0f)}}});
  const double e = std::exp(1.0);
  CHECK(out[0].shape == Dims{1, 1, 1, 2});
  CheckNearD(Values<float>(out[0]), {(e + 3) / (e + 1), (2 * e + 4) / (e + 1)});
  // Default scale 1/sqrt(2); a bool mask hiding key 1 leaves Y = V[0].
  out = RunOp({"Attention",
               {{Fl({1, 1, 1, 2}, {1, 0})}, {Fl({1, 1, 2, 2}, {1, 0, 0, 1})}, {Fl({1, 1, 2, 2}, {1, 2, 3, 4})},
                {Tensor(ge::DT_BOOL, {2}, std::vector<uint8_t>{1, 0})}}});
  CheckNearD(Values<float>(out[0]), {1, 2});
  // A float mask [0] shorter than the 2 keys: key 1 is padded with -inf.
  out = RunOp({"Attention",
               {{Fl({1, 1, 1, 2}, {1, 0})}, {Fl({1, 1, 2, 2}, {1, 0, 0, 1})}, {Fl({1, 1, 2, 2}, {1, 2, 3, 4})},
                {Fl({1}, {0})}}});
  CheckNearD(Values<float>(out[0]), {1, 2});
  // Every key masked: softmax of an all -inf row is NaN (ONNX's reference).
  out = RunOp({"Attention",
               {{Fl({1, 1, 1, 2}, {1, 0})}, {Fl({1, 1, 2, 2}, {1, 0, 0, 1})}, {Fl({1, 1, 2, 2}, {1, 2, 3, 4})},
                {Tensor(ge::DT_BOOL, {2}, std::vector<uint8_t>{0, 0})}}});
  CHECK(std::isnan(Values<float>(out[0])[0]));
  // A NaN in Q reaches Y.
  out = RunOp({"Attention",
               {{Fl({1, 1, 1, 2}, {NAN, 0})}, {Fl({1, 1, 2, 2}, {1, 0, 0, 1})}, {Fl({1, 1, 2, 2}, {1, 2, 3, 4})}}});
  CHECK(std::isnan(Values<float>(out[0])[0]));
}

TEST_CASE("Attention: GQA, past cache, causal, float mask, softcap against a double reference", "[ops][attention]") {
  AttnRef r{2, 4, 2, 3, 3, 2, 4, 3};
  r.causal = true;
  r.scale = 0.5;
  const int64_t t = r.past + r.skv;
  const F q = Ramp(static_cast<size_t>(r.b * r.hq * r.sq * r.d)), k = Ramp(static_cast<size_t>(r.b * r.hkv * r.skv * r.d), 3),
          v = Ramp(static_cast<size_t>(r.b * r.hkv * r.skv * r.dv), 5), pk = Ramp(static_cast<size_t>(r.b * r.hkv * r.past * r.d), 7),
          pv = Ramp(static_cast<size_t>(r.b * r.hkv * r.past * r.dv), 9);
  F mask(static_cast<size_t>(r.sq * t));
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = static_cast<float>(i % 3) * -0.25f;
  std::vector<double> y, probs;
  SECTION("4-D, all four outputs") {
    r.mask = &mask;
    Reference(r, q, k, v, pk, pv, &y, &probs);
    auto out = RunOp({"Attention",
                      {{Fl({r.b, r.hq, r.sq, r.d}, q)}, {Fl({r.b, r.hkv, r.skv, r.d}, k)}, {Fl({r.b, r.hkv, r.skv, r.dv}, v)},
                       {Fl({r.sq, t}, mask)}, {Fl({r.b, r.hkv, r.past, r.d}, pk)}, {Fl({r.b, r.hkv, r.past, r.dv}, pv)}},
                      {{"is_causal", IntAttr(1)}, {"scale", FloatAttr(0.5f)}, {"qk_matmul_output_mode", IntAttr(3)}},
                      4});
    REQUIRE(out.size() == 4);
    CHECK(out[0].shape == Dims{r.b, r.hq, r.sq, r.dv});
    CheckNearD(Values<float>(out[0]), y);
    CHECK(out[1].shape == Dims{r.b, r.hkv, t, r.d});
    CHECK(out[2].shape == Dims{r.b, r.hkv, t, r.dv});
    const F present_v = Values<float>(out[2]);
    CHECK(present_v[0] == pv[0]);                                      // b0 h0 j0 from the past
    CHECK(present_v[static_cast<size_t>(r.past * r.dv)] == v[0]);      // b0 h0 j2 = new 0
    CHECK(out[3].shape == Dims{r.b, r.hq, r.sq, t});
    CheckNearD(Values<float>(out[3]), probs);
    CHECK(Values<float>(out[3])[t - 1] == 0.0f);  // query 0 sees keys 0..past only
  }
  SECTION("3-D with q_num_heads / kv_num_heads, softcap") {
    r.softcap = 0.75;
    Reference(r, q, k, v, pk, pv, &y, &probs);
    auto out = RunOp({"Attention",
                      {{Fl({r.b, r.sq, r.hq * r.d}, To3D(q, r.b, r.hq, r.sq, r.d))},
                       {Fl({r.b, r.skv, r.hkv * r.d}, To3D(k, r.b, r.hkv, r.skv, r.d))},
                       {Fl({r.b, r.skv, r.hkv * r.dv}, To3D(v, r.b, r.hkv, r.skv, r.dv))},
                       {}, {Fl({r.b, r.hkv, r.past, r.d}, pk)}, {Fl({r.b, r.hkv, r.past, r.dv}, pv)}},
                      {{"is_causal", IntAttr(1)}, {"scale", FloatAttr(0.5f)}, {"softcap", FloatAttr(0.75f)},
                       {"q_num_heads", IntAttr(r.hq)}, {"kv_num_heads", IntAttr(r.hkv)}},
                      3});
    CHECK(out[0].shape == Dims{r.b, r.sq, r.hq * r.dv});
    CheckNearD(Values<float>(out[0]), To3D(y, r.b, r.hq, r.sq, r.dv));
  }
}

TEST_CASE("Attention qk_matmul_output modes and errors", "[ops][attention]") {
  // One query [1, 0], keys [2, 0] and [0, 1], scale 1, softcap 1, float mask [0, -1].
  const std::vector<OpInput> in = {{Fl({1, 1, 1, 2}, {1, 0})}, {Fl({1, 1, 2, 2}, {2, 0, 0, 1})},
                                   {Fl({1, 1, 2, 2}, {1, 2, 3, 4})}, {Fl({1, 2}, {0, -1})}};
  auto qk = [&](int64_t mode) {
    return Values<float>(RunOp({"Attention", in,
                                {{"scale", FloatAttr(1.0f)}, {"softcap", FloatAttr(1.0f)}, {"qk_matmul_output_mode", IntAttr(mode)}},
                                4})[3]);
  };
  const double c0 = std::tanh(2.0), c1 = std::tanh(0.0);
  CheckNearD(qk(0), {2, 0});
  CheckNearD(qk(2), {c0, c1});
  CheckNearD(qk(1), {c0, c1 - 1});
  const double e0 = std::exp(c0), e1 = std::exp(c1 - 1);
  CheckNearD(qk(3), {e0 / (e0 + e1), e1 / (e0 + e1)});
  CHECK_THAT(RunOpExpectingFailure({"Attention", {{Fl({1, 2, 4}, F(8))}, {Fl({1, 2, 4}, F(8))}, {Fl({1, 2, 4}, F(8))}}}),
             Catch::Contains("q_num_heads and kv_num_heads must be set for 3-D inputs"));
  CHECK_THAT(RunOpExpectingFailure({"Attention", {{Fl({1, 3, 1, 2}, F(6))}, {Fl({1, 2, 1, 2}, F(4))}, {Fl({1, 2, 1, 2}, F(4))}}}),
             Catch::Contains("q_num_heads 3 is not a multiple of kv_num_heads 2"));
  CHECK_THAT(RunOpExpectingFailure({"Attention", {{Fl({1, 1, 1, 2}, F(2))}, {Fl({1, 1, 2, 2}, F(4))},
                                                  {Fl({1, 1, 2, 2}, F(4))}, {Fl({3}, F(3))}}}),
             Catch::Contains("attn_mask [3] does not broadcast"));
}

TEST_CASE("RMSNormalization by hand (ONNX-23)", "[ops][norm]") {
  // Row [3, 4]: mean square 12.5; row [0, 0]: 0 -> 0. epsilon 0.5: 1/sqrt(13) and 1/sqrt(0.5).
  auto out = RunOp({"RMSNormalization", {{Fl({2, 2}, {3, 4, 0, NAN})}, {Fl({2}, {1, 2})}}, {{"epsilon", FloatAttr(0.5f)}}});
  const F y = Values<float>(out[0]);
  CHECK(std::fabs(y[0] - 3 / std::sqrt(13.0f)) < 1e-6f);
  CHECK(std::fabs(y[1] - 8 / std::sqrt(13.0f)) < 1e-6f);
  CHECK(std::isnan(y[2]));  // NaN in the row poisons its mean square
  CHECK(std::isnan(y[3]));
  // axis 0 over [2, 2]: mean square (1 + 1 + 4 + 4) / 4 = 2.5, scale broadcast [2].
  out = RunOp({"RMSNormalization", {{Fl({2, 2}, {1, -1, 2, -2})}, {Fl({2}, {1, 10})}}, {{"axis", IntAttr(0)}, {"epsilon", FloatAttr(0)}}});
  const double inv = 1 / std::sqrt(2.5);
  CheckNearD(Values<float>(out[0]), {inv, -10 * inv, 2 * inv, -20 * inv});
  CHECK_THAT(RunOpExpectingFailure({"RMSNormalization", {{Fl({2, 3}, F(6))}, {Fl({2}, F(2))}}}),
             Catch::Contains("Scale [2] does not broadcast to X[axis:] [3]"));
}

TEST_CASE("RotaryEmbedding: halves, interleaved, position_ids, partial rotation, 3-D (ONNX-23)", "[ops][rotary]") {
  // One head of 4 features at one position, angle with cos c, sin s for both pairs.
  const float c = 0.6f, s = 0.8f;
  const F x = {1, 2, 3, 4};
  // Halves: pairs (x0, x2), (x1, x3).
  auto out = RunOp({"RotaryEmbedding", {{Fl({1, 1, 1, 4}, x)}, {Fl({1, 1, 2}, {c, c})}, {Fl({1, 1, 2}, {s, s})}}});
  CheckNearD(Values<float>(out[0]), {c * 1 - s * 3, c * 2 - s * 4, s * 1 + c * 3, s * 2 + c * 4});
  // Interleaved: pairs (x0, x1), (x2, x3).
  out = RunOp({"RotaryEmbedding", {{Fl({1, 1, 1, 4}, x)}, {Fl({1, 1, 2}, {c, c})}, {Fl({1, 1, 2}, {s, s})}},
               {{"interleaved", IntAttr(1)}}});
  CheckNearD(Values<float>(out[0]), {c * 1 - s * 2, s * 1 + c * 2, c * 3 - s * 4, s * 3 + c * 4});
  // position_ids pick row 1 of a [2, 1] cache (rotary dim 2: x2, x3 copied).
  out = RunOp({"RotaryEmbedding",
               {{Fl({1, 1, 1, 4}, x)}, {Fl({2, 1}, {1, c})}, {Fl({2, 1}, {0, s})}, {Tensor(ge::DT_INT64, {1, 1}, std::vector<int64_t>{1})}},
               {{"rotary_embedding_dim", IntAttr(2)}}});
  CheckNearD(Values<float>(out[0]), {c * 1 - s * 2, s * 1 + c * 2, 3, 4});
  // The same with the caches head_size/2 = 2 wide (as ONNX exports them): only column 0 is used.
  out = RunOp({"RotaryEmbedding",
               {{Fl({1, 1, 1, 4}, x)}, {Fl({2, 2}, {1, 9, c, 9})}, {Fl({2, 2}, {0, 9, s, 9})},
                {Tensor(ge::DT_INT64, {1, 1}, std::vector<int64_t>{1})}},
               {{"rotary_embedding_dim", IntAttr(2)}}});
  CheckNearD(Values<float>(out[0]), {c * 1 - s * 2, s * 1 + c * 2, 3, 4});
  // A cache narrower than rotary_dim/2 (full rotation of 4: 2 columns needed) is refused.
  CHECK_THAT(RunOpExpectingFailure({"RotaryEmbedding", {{Fl({1, 1, 1, 4}, x)}, {Fl({1, 1, 1}, {c})}, {Fl({1, 1, 1}, {s})}}}),
             Catch::Contains("must be [batch, seq, >= rotary_dim/2] = [1, 1, >= 2] without position_ids"));
  // 3-D [B=1, S=2, 2 heads * 2]: position 0 angle 0 (identity), position 1 rotates by 90 degrees.
  out = RunOp({"RotaryEmbedding",
               {{Fl({1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {Fl({1, 2, 1}, {1, 0})}, {Fl({1, 2, 1}, {0, 1})}},
               {{"num_heads", IntAttr(2)}}});
  CheckNearD(Values<float>(out[0]), {1, 2, 3, 4, -6, 5, -8, 7});
  CHECK_THAT(RunOpExpectingFailure({"RotaryEmbedding", {{Fl({1, 2, 4}, F(8))}, {Fl({1, 2, 2}, F(4))}, {Fl({1, 2, 2}, F(4))}}}),
             Catch::Contains("num_heads must be set (> 0) for a 3-D X"));
  CHECK_THAT(RunOpExpectingFailure({"RotaryEmbedding", {{Fl({1, 1, 1, 4}, x)}, {Fl({2, 2}, F(4))}, {Fl({2, 2}, F(4))},
                                                        {Tensor(ge::DT_INT64, {1, 1}, std::vector<int64_t>{2})}}}),
             Catch::Contains("position id 2 is outside cos_cache's 2 rows"));
}

TEST_CASE("Gelu (none, tanh) and Swish by hand, NaN kept", "[ops][activation]") {
  const F x = {-1, 0, 2, NAN};
  auto y = Values<float>(RunOp({"Gelu", {{Fl({4}, x)}}})[0]);
  CheckNearD(F(y.begin(), y.begin() + 3), {-0.5 * (1 + std::erf(-1 / std::sqrt(2.0))), 0, 1 + std::erf(2 / std::sqrt(2.0))});
  CHECK(std::isnan(y[3]));
  y = Values<float>(RunOp({"Gelu", {{Fl({4}, x)}}, {{"approximate", StringAttr("tanh")}}})[0]);
  auto gt = [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); };
  CheckNearD(F(y.begin(), y.begin() + 3), {gt(-1), 0, gt(2)});
  CHECK(std::isnan(y[3]));
  CHECK_THAT(RunOpExpectingFailure({"Gelu", {{Fl({1}, {1})}}, {{"approximate", StringAttr("fast")}}}),
             Catch::Contains("approximate 'fast' is not one of none, tanh"));
  y = Values<float>(RunOp({"Swish", {{Fl({4}, x)}}, {{"alpha", FloatAttr(2.0f)}}})[0]);
  CheckNearD(F(y.begin(), y.begin() + 3), {-1 / (1 + std::exp(2.0)), 0, 2 / (1 + std::exp(-4.0))});
  CHECK(std::isnan(y[3]));
}

TEST_CASE("Gelu float32 (oneDNN's vectorised kernels) against double on [-10, 10] and the limits",
          "[ops][activation]") {
  // The error bound: 4 ulp of the result plus 4 ulp of |x| (the 1 + tanh / 1 + erf factor cancels
  // for negative x, so a float32 evaluation loses digits relative to the result, not to x).
  F x;
  for (int i = -2000; i <= 2000; ++i) x.push_back(static_cast<float>(i) / 200.0f);
  x.insert(x.end(), {INFINITY, -INFINITY, NAN, 1e-30f, -1e-30f});
  for (const char *mode : {"none", "tanh"}) {
    INFO(mode);
    const auto y = Values<float>(RunOp({"Gelu", {{Fl({int64_t(x.size())}, x)}}, {{"approximate", StringAttr(mode)}}})[0]);
    REQUIRE(y.size() == x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      const double want = std::string(mode) == "none" ? 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))
                                                       : 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      INFO("x = " << x[i] << ": " << y[i] << " vs " << want);
      if (std::isnan(want)) {  // NaN, and -inf: the formula's -inf * 0, as ONNX's reference computes it
        CHECK(std::isnan(y[i]));
      } else if (std::isinf(v)) {
        CHECK(double(y[i]) == want);
      } else {
        CHECK(std::fabs(double(y[i]) - want) <= 4 * 0x1p-24 * (std::fabs(want) + std::fabs(v)) + 1e-38);
      }
    }
  }
}

TEST_CASE("TensorScatter linear and circular, write_indices per batch (ONNX-24)", "[ops][kvcache]") {
  // past [2 batch, 3 seq, 1]; update [2, 2, 1] written at 1 (batch 0) and 2 (batch 1).
  const HostTensor past = Fl({2, 3, 1}, {0, 0, 0, 0, 0, 0}), upd = Fl({2, 2, 1}, {1, 2, 3, 4});
  const HostTensor at = Tensor(ge::DT_INT64, {2}, std::vector<int64_t>{1, 2});
  auto y = RunOp({"TensorScatter", {{past}, {upd}, {at}}, {{"mode", StringAttr("circular")}}});
  CHECK(Values<float>(y[0]) == F{0, 1, 2, 4, 0, 3});  // batch 1 wraps: positions 2, 0
  y = RunOp({"TensorScatter", {{past}, {upd}}});  // no write_indices: from 0
  CHECK(Values<float>(y[0]) == F{1, 2, 0, 3, 4, 0});
  CHECK_THAT(RunOpExpectingFailure({"TensorScatter", {{past}, {upd}, {at}}}),
             Catch::Contains("write index 2 with 2 updates does not fit 3 positions (mode linear)"));
  CHECK_THAT(RunOpExpectingFailure({"TensorScatter", {{past}, {upd}}, {{"axis", IntAttr(0)}}}),
             Catch::Contains("axis 0 must name a non-batch axis"));
}
