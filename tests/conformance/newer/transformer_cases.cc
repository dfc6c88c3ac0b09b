// Transformer-era cases of OpenATC's opset-18+ set (Attention-23/24, RMSNormalization-23,
// RotaryEmbedding-23, Gelu-20, Swish-24, LayerNormalization's stash outputs) and NaN / empty-tensor
// cases (Relu and a Conv -> Relu chain that atc fuses, Reduce* over an empty axis). Expected
// values come from plain double loops here, independent of ops/.
#include <onnx/defs/attr_proto_util.h>

#include <cmath>
#include <limits>

#include "newer_model.h"

namespace openatc::newer {
namespace {

using Dims = std::vector<int64_t>;
using F = std::vector<float>;

// v[i] = ((i * 3 + shift) % 7 - 3) / 4: small, signs mixed, exact in float.
F Wave(size_t n, int shift) {
  F v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 3 + static_cast<size_t>(shift)) % 7) - 3) / 4.0f;
  return v;
}

struct Sdpa {
  int64_t batch, q_heads, kv_heads, q_len, kv_len, past, head, v_head;
  double scale = 0, softcap = 0;
  bool causal = false;
  std::vector<uint8_t> keep{};  // bool mask [q_len, total] (empty: none)
  std::vector<int64_t> nonpad{};  // per batch (empty: none)
};

// Scaled dot-product attention on 4-D [B, H, S, E] data; past prepended to K and V. Returns Y
// [B, Hq, Sq, Ev].
std::vector<float> Attend(const Sdpa &a, const F &q, const F &k, const F &v, const F &pk, const F &pv) {
  const int64_t total = a.past + a.kv_len;
  std::vector<float> y(static_cast<size_t>(a.batch * a.q_heads * a.q_len * a.v_head));
  for (int64_t b = 0; b < a.batch; ++b)
    for (int64_t h = 0; h < a.q_heads; ++h) {
      const int64_t g = h / (a.q_heads / a.kv_heads);
      for (int64_t i = 0; i < a.q_len; ++i) {
        std::vector<double> w(static_cast<size_t>(total));
        for (int64_t j = 0; j < total; ++j) {
          double s = 0;
          for (int64_t e = 0; e < a.head; ++e) {
            const double kj = j < a.past ? pk[static_cast<size_t>(((b * a.kv_heads + g) * a.past + j) * a.head + e)]
                                         : k[static_cast<size_t>(((b * a.kv_heads + g) * a.kv_len + j - a.past) * a.head + e)];
            s += q[static_cast<size_t>(((b * a.q_heads + h) * a.q_len + i) * a.head + e)] * kj;
          }
          s *= a.scale;
          if (a.softcap > 0) s = a.softcap * std::tanh(s / a.softcap);
          const bool masked = (!a.keep.empty() && !a.keep[static_cast<size_t>(i * total + j)]) ||
                              (a.causal && j > i + (a.past > 0 || a.nonpad.empty() ? a.past : a.nonpad[b] - a.q_len)) ||
                              (!a.nonpad.empty() && j >= a.nonpad[b]);
          w[static_cast<size_t>(j)] = masked ? 0.0 : std::exp(s);
        }
        double sum = 0;
        for (double x : w) sum += x;
        for (int64_t e = 0; e < a.v_head; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < total; ++j) {
            const double vj = j < a.past ? pv[static_cast<size_t>(((b * a.kv_heads + g) * a.past + j) * a.v_head + e)]
                                         : v[static_cast<size_t>(((b * a.kv_heads + g) * a.kv_len + j - a.past) * a.v_head + e)];
            acc += w[static_cast<size_t>(j)] / sum * vj;
          }
          y[static_cast<size_t>(((b * a.q_heads + h) * a.q_len + i) * a.v_head + e)] = static_cast<float>(acc);
        }
      }
    }
  return y;
}

// [B, H, S, E] <-> [B, S, H*E]
F HeadsToHidden(const F &x, int64_t b, int64_t h, int64_t s, int64_t e) {
  F out(x.size());
  for (int64_t i = 0; i < b * h * s * e; ++i) {
    const int64_t l = i % e, k = i / e % s, j = i / (e * s) % h, n = i / (e * s * h);
    out[static_cast<size_t>(((n * s + k) * h + j) * e + l)] = x[static_cast<size_t>(i)];
  }
  return out;
}

void AttentionCases(const std::string &root) {
  {  // 4-D GQA (4 query heads over 2 kv heads), causal, past cache of 2; Y and both presents.
    Sdpa a{1, 4, 2, 2, 2, 2, 3, 2};
    a.scale = 1 / std::sqrt(3.0), a.causal = true;
    const F q = Wave(16 * 3 / 2, 0), k = Wave(12, 1), v = Wave(8, 2), pk = Wave(12, 3), pv = Wave(8, 4);
    Case c("test_attention_23_4d_gqa_causal_past", 23, 10);
    c.Input("Q", {1, 4, 2, 3}, q);
    c.Input("K", {1, 2, 2, 3}, k);
    c.Input("V", {1, 2, 2, 2}, v);
    c.Input("past_key", {1, 2, 2, 3}, pk);
    c.Input("past_value", {1, 2, 2, 2}, pv);
    c.AddNode("Attention", {"Q", "K", "V", "", "past_key", "past_value"}, {"Y", "present_key", "present_value"},
              {onnx::MakeAttribute("is_causal", int64_t{1})});
    c.Output("Y", {1, 4, 2, 2}, Attend(a, q, k, v, pk, pv));
    F pkey, pval;  // present = past then new, per (batch, head)
    for (int64_t h = 0; h < 2; ++h) {
      pkey.insert(pkey.end(), pk.begin() + h * 6, pk.begin() + h * 6 + 6);
      pkey.insert(pkey.end(), k.begin() + h * 6, k.begin() + h * 6 + 6);
      pval.insert(pval.end(), pv.begin() + h * 4, pv.begin() + h * 4 + 4);
      pval.insert(pval.end(), v.begin() + h * 4, v.begin() + h * 4 + 4);
    }
    c.Output("present_key", {1, 2, 4, 3}, pkey);
    c.Output("present_value", {1, 2, 4, 2}, pval);
    c.Write(root);
  }
  {  // 3-D, 2 heads each side, bool mask, softcap, explicit scale.
    Sdpa a{2, 2, 2, 3, 2, 0, 2, 2};
    a.scale = 0.75, a.softcap = 1.5;
    a.keep = {1, 0, 1, 1, 0, 1};
    const F q = Wave(24, 5), k = Wave(16, 6), v = Wave(16, 0);
    Case c("test_attention_23_3d_bool_mask_softcap", 23, 10);
    c.Input("Q", {2, 3, 4}, HeadsToHidden(q, 2, 2, 3, 2));
    c.Input("K", {2, 2, 4}, HeadsToHidden(k, 2, 2, 2, 2));
    c.Input("V", {2, 2, 4}, HeadsToHidden(v, 2, 2, 2, 2));
    c.InputBool("mask", {3, 2}, a.keep);
    c.AddNode("Attention", {"Q", "K", "V", "mask"}, {"Y"},
              {onnx::MakeAttribute("q_num_heads", int64_t{2}), onnx::MakeAttribute("kv_num_heads", int64_t{2}),
               onnx::MakeAttribute("scale", 0.75f), onnx::MakeAttribute("softcap", 1.5f)});
    c.Output("Y", {2, 3, 4}, HeadsToHidden(Attend(a, q, k, v, {}, {}), 2, 2, 3, 2));
    c.Write(root);
  }
  {  // Opset 24: nonpad_kv_seqlen with a causal, bottom-right aligned mask (MQA, 1 kv head).
    Sdpa a{2, 2, 1, 1, 3, 0, 2, 2};
    a.scale = 1 / std::sqrt(2.0), a.causal = true, a.nonpad = {2, 3};
    const F q = Wave(8, 1), k = Wave(12, 2), v = Wave(12, 3);
    Case c("test_attention_24_nonpad_kv_seqlen_causal", 24, 11);
    c.Input("Q", {2, 2, 1, 2}, q);
    c.Input("K", {2, 1, 3, 2}, k);
    c.Input("V", {2, 1, 3, 2}, v);
    c.InputInt64("nonpad", {2}, a.nonpad);
    c.AddNode("Attention", {"Q", "K", "V", "", "", "", "nonpad"}, {"Y"}, {onnx::MakeAttribute("is_causal", int64_t{1})});
    c.Output("Y", {2, 2, 1, 2}, Attend(a, q, k, v, {}, {}));
    c.Write(root);
  }
}

void NormAndActivationCases(const std::string &root) {
  {  // RMSNormalization over the last two axes of [2, 2, 3].
    const F x = Wave(12, 2), sc = {1, -2, 0.5f, 2, 1, -1};
    F y(12);
    for (int r = 0; r < 2; ++r) {
      double ms = 0;
      for (int i = 0; i < 6; ++i) ms += double(x[static_cast<size_t>(r * 6 + i)]) * x[static_cast<size_t>(r * 6 + i)] / 6;
      for (int i = 0; i < 6; ++i)
        y[static_cast<size_t>(r * 6 + i)] = static_cast<float>(x[static_cast<size_t>(r * 6 + i)] / std::sqrt(ms + 1e-5) * sc[static_cast<size_t>(i)]);
    }
    Case c("test_rms_normalization_23_axis1", 23, 10);
    c.Input("X", {2, 2, 3}, x);
    c.FloatInit("scale", {2, 3}, sc);
    c.AddNode("RMSNormalization", {"X", "scale"}, {"Y"}, {onnx::MakeAttribute("axis", int64_t{1})});
    c.Output("Y", {2, 2, 3}, y);
    c.Write(root);
  }
  {  // RotaryEmbedding, interleaved, position_ids into a [4, 2] cache; 4-D [1, 2 heads, 2, 4].
    const F x = Wave(16, 4);
    F cs(8), sn(8);
    for (int p = 0; p < 4; ++p)
      for (int i = 0; i < 2; ++i) {
        const double ang = p / std::pow(10000.0, i / 2.0);
        cs[static_cast<size_t>(p * 2 + i)] = static_cast<float>(std::cos(ang));
        sn[static_cast<size_t>(p * 2 + i)] = static_cast<float>(std::sin(ang));
      }
    const std::vector<int64_t> pos = {3, 1};
    F y(16);
    for (int h = 0; h < 2; ++h)
      for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 2; ++i) {
          const size_t base = static_cast<size_t>((h * 2 + s) * 4), row = static_cast<size_t>(pos[static_cast<size_t>(s)] * 2 + i);
          const double a = x[base + 2 * i], b = x[base + 2 * i + 1];
          y[base + 2 * i] = static_cast<float>(cs[row] * a - sn[row] * b);
          y[base + 2 * i + 1] = static_cast<float>(sn[row] * a + cs[row] * b);
        }
    Case c("test_rotary_embedding_23_interleaved_position_ids", 23, 10);
    c.Input("X", {1, 2, 2, 4}, x);
    c.FloatInit("cos", {4, 2}, cs);
    c.FloatInit("sin", {4, 2}, sn);
    c.IntInit("pos", {1, 2}, pos);
    c.AddNode("RotaryEmbedding", {"X", "cos", "sin", "pos"}, {"Y"}, {onnx::MakeAttribute("interleaved", int64_t{1})});
    c.Output("Y", {1, 2, 2, 4}, y);
    c.Write(root);
  }
  const F x = {-3, -1, -0.5f, 0, 0.5f, 1, 3, 5};
  for (const char *mode : {"none", "tanh"}) {
    F y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      y[i] = static_cast<float>(mode[0] == 'n' ? v * 0.5 * std::erfc(-v / std::sqrt(2.0))
                                               : 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
    }
    Case c(std::string("test_gelu_20_") + mode, 20, 9);
    c.Input("x", {8}, x);
    c.AddNode("Gelu", {"x"}, {"y"}, {onnx::MakeAttribute("approximate", std::string(mode))});
    c.Output("y", {8}, y);
    c.Write(root);
  }
  {
    F y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(x[i] / (1 + std::exp(-0.5 * x[i])));
    Case c("test_swish_24_alpha", 24, 11);
    c.Input("x", {8}, x);
    c.AddNode("Swish", {"x"}, {"y"}, {onnx::MakeAttribute("alpha", 0.5f)});
    c.Output("y", {8}, y);
    c.Write(root);
  }
  {  // LayerNormalization's Mean and InvStdDev outputs, read by an opset-18 exporter's graph.
    const F x = {1, 2, 3, 6, 2, 4};
    Case c("test_layer_normalization_18_stash_outputs", 18, 9);
    c.Input("X", {2, 3}, x);
    c.FloatInit("scale", {3}, {1, 1, 1});
    c.AddNode("LayerNormalization", {"X", "scale"}, {"Y", "Mean", "InvStdDev"}, {onnx::MakeAttribute("epsilon", 0.0f)});
    F y(6), mean(2), inv(2);
    for (int r = 0; r < 2; ++r) {
      const double m = (double(x[static_cast<size_t>(r * 3)]) + x[static_cast<size_t>(r * 3 + 1)] + x[static_cast<size_t>(r * 3 + 2)]) / 3;
      double var = 0;
      for (int i = 0; i < 3; ++i) var += (x[static_cast<size_t>(r * 3 + i)] - m) * (x[static_cast<size_t>(r * 3 + i)] - m) / 3;
      mean[static_cast<size_t>(r)] = static_cast<float>(m);
      inv[static_cast<size_t>(r)] = static_cast<float>(1 / std::sqrt(var));
      for (int i = 0; i < 3; ++i) y[static_cast<size_t>(r * 3 + i)] = static_cast<float>((x[static_cast<size_t>(r * 3 + i)] - m) / std::sqrt(var));
    }
    c.Output("Y", {2, 3}, y);
    c.Output("Mean", {2, 1}, mean);
    c.Output("InvStdDev", {2, 1}, inv);
    c.Write(root);
  }
}

void KvCacheCases(const std::string &root) {
  // TensorScatter-24 circular: past [2, 3, 2] (axis -2), 2 updates at 2 (wraps to 0) and 0.
  Case c("test_tensor_scatter_24_circular", 24, 11);
  F past(12);
  for (size_t i = 0; i < 12; ++i) past[i] = static_cast<float>(i);
  const F upd = {-1, -2, -3, -4, -5, -6, -7, -8};
  c.Input("past", {2, 3, 2}, past);
  c.Input("update", {2, 2, 2}, upd);
  c.InputInt64("at", {2}, {2, 0});
  c.AddNode("TensorScatter", {"past", "update", "at"}, {"present"}, {onnx::MakeAttribute("mode", std::string("circular"))});
  F want = past;
  const int64_t start[2] = {2, 0};
  for (int b = 0; b < 2; ++b)
    for (int s = 0; s < 2; ++s)
      for (int e = 0; e < 2; ++e)
        want[static_cast<size_t>((b * 3 + (start[b] + s) % 3) * 2 + e)] = upd[static_cast<size_t>((b * 2 + s) * 2 + e)];
  c.Output("present", {2, 3, 2}, want);
  c.Write(root);
}

void NanAndEmptyCases(const std::string &root) {
  {
    Case c("test_relu_18_nan", 18, 9);
    c.Input("x", {4}, {NAN, -1, 0, 2});
    c.AddNode("Relu", {"x"}, {"y"});
    c.Output("y", {4}, {NAN, 0, 0, 2});
    c.Write(root);
  }
  {  // Conv 1x1 (weight 2) -> Relu: atc fuses the Relu into the Conv; a NaN pixel stays NaN.
    Case c("test_conv_relu_fused_18_nan", 18, 9);
    c.Input("x", {1, 1, 2, 2}, {NAN, -1, 0.5f, 3});
    c.FloatInit("w", {1, 1, 1, 1}, {2});
    c.AddNode("Conv", {"x", "w"}, {"c"});
    c.AddNode("Relu", {"c"}, {"y"});
    c.Output("y", {1, 1, 2, 2}, {NAN, 0, 1, 6});
    c.Write(root);
  }
  {  // Conv -> Clip(0, 1) with NaN: the fused clip keeps NaN as unfused Clip does.
    Case c("test_conv_clip_fused_18_nan", 18, 9);
    c.Input("x", {1, 1, 1, 3}, {NAN, -1, 3});
    c.FloatInit("w", {1, 1, 1, 1}, {1});
    c.FloatInit("lo", {}, {0});
    c.FloatInit("hi", {}, {1});
    c.AddNode("Conv", {"x", "w"}, {"c"});
    c.AddNode("Clip", {"c", "lo", "hi"}, {"y"});
    c.Output("y", {1, 1, 1, 3}, {NAN, 0, 1});
    c.Write(root);
  }
  const float inf = std::numeric_limits<float>::infinity();
  {  // Non-finite constant weights (scanned once, when the Conv is prepared at load): 2 channels,
     // W {2, inf}. Channel 1: -inf -> Relu 0, inf * 0 = NaN stays NaN, +inf stays +inf.
    Case c("test_conv_relu_fused_18_nan_weight", 18, 9);
    c.Input("x", {1, 1, 1, 3}, {-1, 0, 2});
    c.FloatInit("w", {2, 1, 1, 1}, {2, inf});
    c.AddNode("Conv", {"x", "w"}, {"c"});
    c.AddNode("Relu", {"c"}, {"y"});
    c.Output("y", {1, 2, 1, 3}, {0, 0, 4, 0, NAN, inf});
    c.Write(root);
  }
  {  // A NaN constant bias with finite weights: the fused Clip(0, 1) keeps channel 0 all NaN.
    Case c("test_conv_clip_fused_18_nan_bias", 18, 9);
    c.Input("x", {1, 1, 1, 3}, {-1, 0.5f, 3});
    c.FloatInit("w", {2, 1, 1, 1}, {1, 1});
    c.FloatInit("b", {2}, {NAN, 0.25f});
    c.FloatInit("lo", {}, {0});
    c.FloatInit("hi", {}, {1});
    c.AddNode("Conv", {"x", "w", "b"}, {"c"});
    c.AddNode("Clip", {"c", "lo", "hi"}, {"y"});
    c.Output("y", {1, 2, 1, 3}, {NAN, NAN, NAN, 0, 0.75f, 1});
    c.Write(root);
  }
  struct E { const char *name, *op; float value; };
  for (const E &e : {E{"test_reduce_max_18_empty_axis", "ReduceMax", -inf}, E{"test_reduce_min_18_empty_axis", "ReduceMin", inf},
                     E{"test_reduce_prod_18_empty_axis", "ReduceProd", 1}, E{"test_reduce_sum_square_18_empty_axis", "ReduceSumSquare", 0}}) {
    Case c(e.name, 18, 9);
    c.Input("x", {2, 0}, {});
    c.IntInit("axes", {1}, {1});
    c.AddNode(e.op, {"x", "axes"}, {"y"});
    c.Output("y", {2, 1}, {e.value, e.value});
    c.Write(root);
  }
}

}  // namespace

void TransformerCases(const std::string &root) {
  AttentionCases(root);
  NormAndActivationCases(root);
  KvCacheCases(root);
  NanAndEmptyCases(root);
}

}  // namespace openatc::newer
