// atc's graph passes (atc/compiler/src/passes/): each pass on a small graph, compiled once with
// every pass on and once with the switch file {"ALL": "off"}; both run, the node count drops as
// expected, and the values agree with a double-precision reference computed here within a
// rounding bound derived below. The fusion switch file's forms and errors.
//
// Bound: a float32 convolution output is a sum of K products plus a bias; any summation order
// (oneDNN picks its kernel per post-op list) is within gamma_(K+2) * S of the exact value, where
// S is the sum of the terms' magnitudes and gamma_n = n u / (1 - n u), u = 2^-24. BatchNorm
// folding adds the rounding of W' = W * s and B' to float32 (1 u per term), the unfused path
// rounds conv, (x - mean), * s, + B (4 u on the result). So |y - exact| <= (K + 8) u S' with S'
// the magnitude sum in the folded form, and we check (K + 8) u S' + 4 u |exact| per element.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "openatc/common/error.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

struct ConvCase {
  int64_t n = 1, c = 3, h = 5, w = 5, m = 4, k = 3, pad = 1;
  std::vector<float> x, wt, b;
};

// Exact (double) 2-D convolution, stride 1, symmetric pads; also the magnitude sum per output.
void RefConv(const ConvCase &cc, const std::vector<double> &scale, const std::vector<double> &shift,
             std::vector<double> *y, std::vector<double> *mag) {
  const int64_t oh = cc.h + 2 * cc.pad - cc.k + 1, ow = cc.w + 2 * cc.pad - cc.k + 1;
  y->assign(static_cast<size_t>(cc.n * cc.m * oh * ow), 0.0);
  mag->assign(y->size(), 0.0);
  for (int64_t n = 0; n < cc.n; ++n)
    for (int64_t m = 0; m < cc.m; ++m)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = 0, s = 0;
          for (int64_t c = 0; c < cc.c; ++c)
            for (int64_t a = 0; a < cc.k; ++a)
              for (int64_t bb = 0; bb < cc.k; ++bb) {
                const int64_t yi = i + a - cc.pad, xj = j + bb - cc.pad;
                if (yi < 0 || yi >= cc.h || xj < 0 || xj >= cc.w) continue;
                const double t = double(cc.x[size_t(((n * cc.c + c) * cc.h + yi) * cc.w + xj)]) *
                                 cc.wt[size_t(((m * cc.c + c) * cc.k + a) * cc.k + bb)] * scale[size_t(m)];
                acc += t;
                s += std::fabs(t);
              }
          const double bias = double(cc.b[size_t(m)]) * scale[size_t(m)] + shift[size_t(m)];
          const size_t o = size_t(((n * cc.m + m) * oh + i) * ow + j);
          (*y)[o] = acc + bias;
          (*mag)[o] = s + std::fabs(bias);
        }
}

ConvCase MakeConv() {
  ConvCase cc;
  cc.x = Pattern(size_t(cc.n * cc.c * cc.h * cc.w), 1);
  cc.wt = Pattern(size_t(cc.m * cc.c * cc.k * cc.k), 2);
  cc.b = Pattern(size_t(cc.m), 3);
  return cc;
}

// x -> Conv -> (returns the conv node index).
int32_t AddConv(Builder &b, const ConvCase &cc, int32_t x) {
  const int32_t w = b.Const("W", {cc.m, cc.c, cc.k, cc.k}, cc.wt);
  const int32_t bias = b.Const("B", {cc.m}, cc.b);
  return b.Op("conv", "Conv", {x, w, bias}, {{"pads", Ints({cc.pad, cc.pad, cc.pad, cc.pad})}, {"kernel_shape", Ints({cc.k, cc.k})}});
}

void CheckWithin(const std::vector<float> &got, const std::vector<double> &want, const std::vector<double> &mag,
                 double terms) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double bound = (terms + 8) * kU * mag[i] + 4 * kU * std::fabs(want[i]);
    INFO("element " << i << ": " << got[i] << " vs " << want[i] << " (bound " << bound << ")");
    CHECK(std::fabs(double(got[i]) - want[i]) <= bound);
  }
}

}  // namespace

TEST_CASE("BatchNormalization folds into the preceding Conv within the rounding bound", "[compiler][passes]") {
  const ConvCase cc = MakeConv();
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f, 0.25f}, shift = {0.1f, -0.2f, 0.3f, 0.0f},
                           mean = {0.05f, -0.1f, 0.2f, 1.0f}, var = {0.5f, 2.0f, 0.1f, 4.0f};
  const float eps = 1e-3f;
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t conv = AddConv(b, cc, x);
  const int32_t bn = b.Op("bn", "BatchNormalization",
                          {conv, b.Const("scale", {4}, scale), b.Const("shift", {4}, shift), b.Const("mean", {4}, mean),
                           b.Const("var", {4}, var)},
                          {{"epsilon", Float(eps)}});
  b.Output({bn});
  REQUIRE(b.g.nodes.size() == 10);

  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  CHECK(plain.graph.nodes.size() == 10);
  CHECK(fused.graph.nodes.size() == 5);  // x, W', B', Conv (named bn), NetOutput
  const ir::Node &f = Named(fused.graph, "bn");
  CHECK(f.type == "Conv");
  CHECK(FusedList(f) == std::vector<std::string>{"conv", "bn"});
  CHECK(fused.graph.FindNode("conv") < 0);
  CHECK(fused.graph.FindNode("scale") < 0);

  // Exact: s = scale / sqrt(var + eps); y = s * conv_nobias + (b - mean) * s + shift.
  std::vector<double> s(4), t(4);
  for (size_t m = 0; m < 4; ++m) {
    s[m] = double(scale[m]) / std::sqrt(double(var[m]) + double(eps));
    t[m] = -double(mean[m]) * s[m] + shift[m];
  }
  std::vector<double> want, mag;
  RefConv(cc, s, t, &want, &mag);
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
  const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
  CheckWithin(yf, want, mag, double(cc.c * cc.k * cc.k));
  CheckWithin(yp, want, mag, double(cc.c * cc.k * cc.k));
}

TEST_CASE("BatchNormalization folds into a grouped ConvTranspose (1x1 kernel)", "[compiler][passes]") {
  // X [1, 4, 2, 2], W [4, 3, 1, 1], group 2: Y has 6 channels; channel g*3+j = sum over the
  // group's 2 input channels c of X[c] * W[c, j].
  const std::vector<float> xv = Pattern(16, 7), wv = Pattern(12, 8), bv = Pattern(6, 9);
  const std::vector<float> scale = Pattern(6, 10), shift = Pattern(6, 11), mean = Pattern(6, 12),
                           var = {0.5f, 1.0f, 2.0f, 0.25f, 3.0f, 1.5f};
  // by_add: the bias written as an Add of a [1, 6, 1, 1] Const after a bias-free ConvTranspose
  // (Paddle2ONNX's form), which folds into the bias first.
  for (bool by_add : {false, true}) {
    INFO("bias as an Add " << by_add);
    Builder b;
    const int32_t x = b.Data("x", {1, 4, 2, 2});
    int32_t ct = by_add ? b.Op("ct", "ConvTranspose", {x, b.Const("W", {4, 3, 1, 1}, wv)}, {{"group", Int(2)}})
                        : b.Op("ct", "ConvTranspose", {x, b.Const("W", {4, 3, 1, 1}, wv), b.Const("B", {6}, bv)},
                               {{"group", Int(2)}});
    if (by_add) ct = b.Op("add", "Add", {ct, b.Const("B", {1, 6, 1, 1}, bv)});
    const int32_t bn = b.Op("bn", "BatchNormalization",
                            {ct, b.Const("scale", {6}, scale), b.Const("shift", {6}, shift), b.Const("mean", {6}, mean),
                             b.Const("var", {6}, var)});
    b.Output({bn});
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    CHECK(fused.graph.nodes.size() == 5);
    CHECK(plain.graph.nodes.size() == (by_add ? 11u : 10u));
    CHECK(Named(fused.graph, "bn").type == "ConvTranspose");
    CHECK(FusedList(Named(fused.graph, "bn")) ==
          (by_add ? std::vector<std::string>{"ct", "add", "bn"} : std::vector<std::string>{"ct", "bn"}));
    std::vector<double> want(24), mag(24);
    for (int g = 0; g < 2; ++g)
      for (int j = 0; j < 3; ++j) {
        const size_t m = size_t(g * 3 + j);
        const double s = double(scale[m]) / std::sqrt(double(var[m]) + 1e-5);
        for (int p = 0; p < 4; ++p) {
          double acc = 0, a = 0;
          for (int c = g * 2; c < g * 2 + 2; ++c) {
            const double term = double(xv[size_t(c * 4 + p)]) * wv[size_t(c * 3 + j)] * s;
            acc += term;
            a += std::fabs(term);
          }
          const double bias = (double(bv[m]) - mean[m]) * s + shift[m];
          want[m * 4 + size_t(p)] = acc + bias;
          mag[m * 4 + size_t(p)] = a + std::fabs(bias) + std::fabs(double(mean[m]) * s);
        }
      }
    const std::vector<HostTensor> in = {Host({1, 4, 2, 2}, xv)};
    CheckWithin(Values(RunModel(fused, in)[0]), want, mag, 2);
    CheckWithin(Values(RunModel(plain, in)[0]), want, mag, 2);
  }
}

TEST_CASE("BatchNormalization folds into the preceding Gemm within the rounding bound", "[compiler][passes]") {
  // x [2, 3] -> Gemm(B, C, alpha 0.5, beta 2, transB 0 / 1; C [4], [2, 4] or absent) -> BatchNormalization -> y:
  // one Gemm with B' = B * s and C' = beta * C * s + t. Exact: y[r, n] = s[n] * (alpha * x B[:, n] +
  // beta * C[r, n]) + t[n] with s = scale / sqrt(var + eps), t = shift - mean * s.
  const std::vector<float> xv = Pattern(6, 4), bv = Pattern(12, 5);
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f, 0.25f}, shift = {0.1f, -0.2f, 0.3f, 0.0f},
                           mean = {0.05f, -0.1f, 0.2f, 1.0f}, var = {0.5f, 2.0f, 0.1f, 4.0f};
  const float eps = 1e-3f, alpha = 0.5f, beta = 2.0f;
  for (const bool trans_b : {false, true})
    for (const int c_rows : {0, 1, 2}) {  // 0: no C
      INFO("transB " << trans_b << ", C rows " << c_rows);
      const std::vector<float> cv = Pattern(size_t(c_rows == 2 ? 8 : 4), 6);
      Builder b;
      const int32_t x = b.Data("x", {2, 3});
      const int32_t w = b.Const("B", trans_b ? std::vector<int64_t>{4, 3} : std::vector<int64_t>{3, 4}, bv);
      std::vector<int32_t> ins = {x, w};
      if (c_rows == 1) ins.push_back(b.Const("C", {4}, cv));
      if (c_rows == 2) ins.push_back(b.Const("C", {2, 4}, cv));
      const int32_t gemm = b.Op("gemm", "Gemm", ins,
                                {{"alpha", Float(alpha)}, {"beta", Float(beta)}, {"transB", Int(trans_b ? 1 : 0)}});
      const int32_t bn = b.Op("bn", "BatchNormalization",
                              {gemm, b.Const("scale", {4}, scale), b.Const("shift", {4}, shift),
                               b.Const("mean", {4}, mean), b.Const("var", {4}, var)},
                              {{"epsilon", Float(eps)}});
      b.Output({bn});
      const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
      const ir::Node &f = Named(fused.graph, "bn");
      CHECK(f.type == "Gemm");
      CHECK(FusedList(f) == std::vector<std::string>{"gemm", "bn"});
      CHECK(fused.graph.FindNode("scale") < 0);
      CHECK(Named(plain.graph, "bn").type == "BatchNormalization");
      std::vector<double> want(8), mag(8);
      for (size_t r = 0; r < 2; ++r)
        for (size_t n = 0; n < 4; ++n) {
          const double sn = double(scale[n]) / std::sqrt(double(var[n]) + double(eps));
          const double tn = double(shift[n]) - double(mean[n]) * sn;
          double acc = 0, m = 0;
          for (size_t k = 0; k < 3; ++k) {
            const double term = double(alpha) * xv[r * 3 + k] * bv[trans_b ? n * 3 + k : k * 4 + n] * sn;
            acc += term;
            m += std::fabs(term);
          }
          const double cn = c_rows == 0 ? 0.0 : double(beta) * cv[c_rows == 2 ? r * 4 + n : n] * sn + tn;
          want[r * 4 + n] = acc + (c_rows == 0 ? tn : cn);
          mag[r * 4 + n] = m + std::fabs(c_rows == 0 ? tn : cn);
        }
      const std::vector<HostTensor> in = {Host({2, 3}, xv)};
      CheckWithin(Values(RunModel(fused, in)[0]), want, mag, 3.0);
      CheckWithin(Values(RunModel(plain, in)[0]), want, mag, 3.0);
    }
}

TEST_CASE("an Add of a per-channel constant folds into the Conv's bias, then the Relu fuses", "[compiler][passes]") {
  ConvCase cc = MakeConv();
  const std::vector<float> c = {0.5f, -1.0f, 0.25f, 2.0f};
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t w = b.Const("W", {cc.m, cc.c, cc.k, cc.k}, cc.wt);
  const int32_t conv = b.Op("conv", "Conv", {x, w}, {{"pads", Ints({1, 1, 1, 1})}});  // no bias input
  const int32_t add = b.Op("add", "Add", {b.Const("C", {4, 1, 1}, c), conv});
  const int32_t relu = b.Op("relu", "Relu", {add});
  b.Output({relu});
  REQUIRE(b.g.nodes.size() == 7);
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  CHECK(plain.graph.nodes.size() == 7);
  CHECK(fused.graph.nodes.size() == 5);  // x, W, the new bias, Conv (named relu), NetOutput
  const ir::Node &f = Named(fused.graph, "relu");
  CHECK(FusedList(f) == std::vector<std::string>{"conv", "add", "relu"});
  CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"eltwise_relu"});
  cc.b = c;  // the reference: bias = C
  std::vector<double> want, mag;
  RefConv(cc, std::vector<double>(4, 1.0), std::vector<double>(4, 0.0), &want, &mag);
  for (auto &v : want) v = v > 0 ? v : 0.0;
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
  CheckWithin(Values(RunModel(fused, in)[0]), want, mag, 27);
  CheckWithin(Values(RunModel(plain, in)[0]), want, mag, 27);
}

TEST_CASE("a Mul and an Add of per-channel constants fold into the Conv's weights and bias", "[compiler][passes]") {
  const ConvCase cc = MakeConv();
  const std::vector<float> sc = {1.5f, -0.5f, 2.0f, 0.25f}, sh = {0.1f, -0.2f, 0.3f, 0.0f};
  for (bool scalar : {false, true}) {
    INFO("scale " << (scalar ? "one value" : "per channel"));
    Builder b;
    const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
    const int32_t conv = AddConv(b, cc, x);
    const int32_t s = scalar ? b.Const("S", {1}, std::vector<float>{1.5f}) : b.Const("S", {4, 1, 1}, sc);
    const int32_t mul = b.Op("mul", "Mul", {s, conv});
    const int32_t add = b.Op("add", "Add", {mul, b.Const("T", {1, 4, 1, 1}, sh)});
    b.Output({b.Op("relu", "Relu", {add})});
    REQUIRE(b.g.nodes.size() == 10);
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    CHECK(plain.graph.nodes.size() == 10);
    CHECK(fused.graph.nodes.size() == 5);  // x, W*S, B*S+T, Conv (named relu), NetOutput
    const ir::Node &f = Named(fused.graph, "relu");
    CHECK(f.type == "Conv");
    CHECK(FusedList(f) == std::vector<std::string>{"conv", "mul", "add", "relu"});
    CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"eltwise_relu"});
    std::vector<double> scale(4), shift(sh.begin(), sh.end());
    for (size_t m = 0; m < 4; ++m) scale[m] = scalar ? 1.5 : sc[m];
    std::vector<double> want, mag;
    RefConv(cc, scale, shift, &want, &mag);  // sum(x * w * s) + b * s + t
    for (auto &v : want) v = v > 0 ? v : 0.0;
    const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
    CheckWithin(Values(RunModel(fused, in)[0]), want, mag, 27);
    CheckWithin(Values(RunModel(plain, in)[0]), want, mag, 27);
  }
}

TEST_CASE("folding runs to a fixed point: Conv -> BatchNormalization -> Mul -> Add -> Relu is one Conv",
          "[compiler][passes]") {
  // The Caffe export pattern (light_densenet121): the Mul and Add read the BatchNormalization, so
  // they fold only once it has folded into the Conv.
  const ConvCase cc = MakeConv();
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f, 0.25f}, shift = {0.1f, -0.2f, 0.3f, 0.0f},
                           mean = {0.05f, -0.1f, 0.2f, 1.0f}, var = {0.5f, 2.0f, 0.1f, 4.0f},
                           sc = {0.75f, 1.25f, -2.0f, 0.5f}, sh = {-0.3f, 0.2f, 0.05f, 0.4f};
  const float eps = 1e-3f;
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t bn = b.Op("bn", "BatchNormalization",
                          {AddConv(b, cc, x), b.Const("scale", {4}, scale), b.Const("shift", {4}, shift),
                           b.Const("mean", {4}, mean), b.Const("var", {4}, var)},
                          {{"epsilon", Float(eps)}});
  const int32_t mul = b.Op("mul", "Mul", {bn, b.Const("S", {4, 1, 1}, sc)});
  const int32_t add = b.Op("add", "Add", {mul, b.Const("T", {4, 1, 1}, sh)});
  b.Output({b.Op("relu", "Relu", {add})});
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  CHECK(fused.graph.nodes.size() == 5);  // x, W', B', Conv (named relu), NetOutput
  const ir::Node &f = Named(fused.graph, "relu");
  CHECK(f.type == "Conv");
  CHECK(FusedList(f) == std::vector<std::string>{"conv", "bn", "mul", "add", "relu"});
  // Exact: y = relu(sc * (s * conv_nobias + (b - mean) * s + shift) + sh), s = scale / sqrt(var + eps).
  std::vector<double> s(4), t(4);
  for (size_t m = 0; m < 4; ++m) {
    const double bs = double(scale[m]) / std::sqrt(double(var[m]) + double(eps));
    s[m] = bs * sc[m];
    t[m] = (-double(mean[m]) * bs + shift[m]) * sc[m] + sh[m];
  }
  std::vector<double> want, mag;
  RefConv(cc, s, t, &want, &mag);
  for (auto &v : want) v = v > 0 ? v : 0.0;
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
  CheckWithin(Values(RunModel(fused, in)[0]), want, mag, double(cc.c * cc.k * cc.k) + 4);
  CheckWithin(Values(RunModel(plain, in)[0]), want, mag, double(cc.c * cc.k * cc.k) + 4);
}

TEST_CASE("a Mul and an Add of per-channel constants fold into a BatchNormalization", "[compiler][passes]") {
  // x -> BatchNormalization -> Mul(S [C, 1, 1]) -> Add(T [1, C, 1, 1]) -> y: one BatchNormalization
  // with scale * S and B * S + T. Exact: y = ((x - mean) / sqrt(var + eps) * scale + B) * S + T.
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f, 0.25f}, shift = {0.1f, -0.2f, 0.3f, 0.0f},
                           mean = {0.05f, -0.1f, 0.2f, 1.0f}, var = {0.5f, 2.0f, 0.1f, 4.0f},
                           sc = {0.75f, 1.25f, -2.0f, 0.5f}, sh = {-0.3f, 0.2f, 0.05f, 0.4f};
  const float eps = 1e-3f;
  Builder b;
  const int32_t x = b.Data("x", {2, 4, 3, 3});
  const int32_t bn = b.Op("bn", "BatchNormalization",
                          {x, b.Const("scale", {4}, scale), b.Const("shift", {4}, shift), b.Const("mean", {4}, mean),
                           b.Const("var", {4}, var)},
                          {{"epsilon", Float(eps)}});
  const int32_t mul = b.Op("mul", "Mul", {b.Const("S", {4, 1, 1}, sc), bn});
  b.Output({b.Op("add", "Add", {mul, b.Const("T", {1, 4, 1, 1}, sh)})});
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff()),
                  off = Compile(b.g, TempFile("bn_scale_off.txt", "BatchNormScaleFoldPass:off\n"));
  const ir::Node &f = Named(fused.graph, "add");
  CHECK(f.type == "BatchNormalization");
  CHECK(FusedList(f) == std::vector<std::string>{"bn", "mul", "add"});
  CHECK(fused.graph.FindNode("mul") < 0);
  CHECK(Named(off.graph, "add").type == "Add");
  CHECK(Named(off.graph, "mul").type == "Mul");
  const std::vector<float> xv = Pattern(72, 7);
  std::vector<double> want(72), mag(72);
  for (size_t i = 0; i < 72; ++i) {
    const size_t c = (i / 9) % 4;
    const double den = std::sqrt(double(var[c]) + double(eps)), t = (double(xv[i]) - mean[c]) / den;
    want[i] = (t * scale[c] + shift[c]) * sc[c] + sh[c];
    mag[i] = (std::fabs(t * scale[c]) + std::fabs(shift[c])) * std::fabs(sc[c]) + std::fabs(sh[c]) +
             (std::fabs(double(xv[i])) + std::fabs(mean[c])) / den * std::fabs(scale[c] * sc[c]);
  }
  const std::vector<HostTensor> in = {Host({2, 4, 3, 3}, xv)};
  // A handful of float32 roundings, each at most u of the magnitude it acts on.
  for (const om::Model *m : {&fused, &plain, &off}) CheckWithin(Values(RunModel(*m, in)[0]), want, mag, 2);
}

TEST_CASE("activations after an inference BatchNormalization fuse into it", "[compiler][passes]") {
  // x -> BatchNormalization -> Relu (in line) or LeakyRelu (the general post-op path) -> y, with a
  // NaN, an infinity and negative values among the inputs (ONNX: Relu(NaN) = NaN, Relu(-inf) = 0).
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f}, shift = {0.1f, -0.2f, 0.3f}, mean = {0.05f, -0.1f, 0.2f},
                           var = {0.5f, 2.0f, 0.1f};
  const float eps = 1e-3f;
  for (const char *act : {"Relu", "LeakyRelu"}) {
    INFO(act);
    Builder b;
    const int32_t x = b.Data("x", {1, 3, 2, 4});
    const int32_t bn = b.Op("bn", "BatchNormalization",
                            {x, b.Const("scale", {3}, scale), b.Const("shift", {3}, shift), b.Const("mean", {3}, mean),
                             b.Const("var", {3}, var)},
                            {{"epsilon", Float(eps)}});
    std::map<std::string, ir::AttrValue> attrs;
    if (std::string(act) == "LeakyRelu") attrs["alpha"] = Float(0.25f);
    b.Output({b.Op("act", act, {bn}, attrs)});
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    const ir::Node &f = Named(fused.graph, "act");
    CHECK(f.type == "BatchNormalization");
    CHECK(FusedList(f) == std::vector<std::string>{"bn", "act"});
    CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"eltwise_relu"});
    std::vector<float> xv = Pattern(24, 9);
    xv[1] = std::nanf("");
    xv[9] = -std::numeric_limits<float>::infinity();
    std::vector<double> want(24), mag(24);
    for (size_t i = 0; i < 24; ++i) {
      const size_t c = i / 8;
      const double den = std::sqrt(double(var[c]) + double(eps)), t = (double(xv[i]) - mean[c]) / den;
      const double v = t * scale[c] + shift[c], slope = std::string(act) == "Relu" ? 0.0 : 0.25;
      want[i] = std::isnan(v) ? v : (v > 0 ? v : slope * v);
      mag[i] = (std::fabs(double(xv[i])) + std::fabs(mean[c])) / den * std::fabs(scale[c]) + std::fabs(shift[c]);
    }
    const std::vector<HostTensor> in = {Host({1, 3, 2, 4}, xv)};
    for (const om::Model *m : {&fused, &plain}) {
      const std::vector<float> got = Values(RunModel(*m, in)[0]);
      REQUIRE(got.size() == 24);
      for (size_t i = 0; i < 24; ++i) {
        INFO("element " << i << ": " << got[i] << " vs " << want[i]);
        if (std::isnan(want[i])) {
          CHECK(std::isnan(got[i]));
        } else if (std::isinf(want[i]) || std::isinf(mag[i])) {
          CHECK(double(got[i]) == want[i]);
        } else {
          CHECK(std::fabs(double(got[i]) - want[i]) <= 8 * kU * mag[i]);
        }
      }
    }
  }
}

TEST_CASE("a Mul / Add / Sub by one value after a Conv's activation fuses as eltwise_linear", "[compiler][passes]") {
  // conv -> HardSwish -> Mul(0.75) -> Add(-0.5) -> Sub(0.25): PP-LCNet's learnable affine after the
  // activation, then one more shift; all post-ops of the Conv.
  const ConvCase cc = MakeConv();
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t hs = b.Op("hs", "HardSwish", {AddConv(b, cc, x)});
  const int32_t mul = b.Op("mul", "Mul", {b.Const("s", {1}, std::vector<float>{0.75f}), hs});
  const int32_t add = b.Op("add", "Add", {mul, b.Const("t", {}, std::vector<float>{-0.5f})});
  b.Output({b.Op("sub", "Sub", {add, b.Const("u", {1}, std::vector<float>{0.25f})})});
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  const ir::Node &f = Named(fused.graph, "sub");
  CHECK(f.type == "Conv");
  CHECK(FusedList(f) == std::vector<std::string>{"conv", "hs", "mul", "add", "sub"});
  // The three linear maps merge into one, 0.75 x - 0.75 (oneDNN 2.6's jit convolutions would give a
  // second eltwise_linear the first one's parameters).
  CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"eltwise_hardswish", "eltwise_linear"});
  CHECK(f.attrs.at("openatc_post_alpha").list_f == std::vector<float>{0.0f, 0.75f});
  CHECK(f.attrs.at("openatc_post_beta").list_f == std::vector<float>{0.0f, -0.75f});
  std::vector<double> want, mag;
  RefConv(cc, std::vector<double>(4, 1.0), std::vector<double>(4, 0.0), &want, &mag);
  for (size_t i = 0; i < want.size(); ++i) {
    const double v = want[i];
    want[i] = v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0 * 0.75 - 0.5 - 0.25;
    mag[i] = 2 * mag[i] + 1.0;  // hard-swish's slope is at most 1.5; the shifts add |0.5| + |0.25|
  }
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
  CheckWithin(Values(RunModel(fused, in)[0]), want, mag, 27 + 8);
  CheckWithin(Values(RunModel(plain, in)[0]), want, mag, 27 + 8);
}

TEST_CASE("a post-op chain stops before an eltwise algorithm it already has", "[compiler][passes]") {
  // conv -> HardSigmoid (linear, clip) -> Mul(0.75) (linear again), and conv -> LeakyRelu(0.01) ->
  // Tanh -> Relu (relu again): the repeat stays a node of its own, and the values match the
  // unfused graph (with the repeat fused, oneDNN 2.6's jit convolution applied the first one's
  // parameters to it: 0.5 off in the first case, Relu with slope 0.01 in the second).
  const ConvCase cc = MakeConv();
  for (int v = 0; v < 2; ++v) {
    INFO("chain " << v);
    Builder b;
    const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
    int32_t cur = AddConv(b, cc, x);
    if (v == 0) {
      cur = b.Op("mul", "Mul", {b.Const("s", {1}, std::vector<float>{0.75f}), b.Op("act", "HardSigmoid", {cur})});
    } else {
      cur = b.Op("act", "LeakyRelu", {cur}, {{"alpha", Float(0.01f)}});
      cur = b.Op("relu", "Relu", {b.Op("tanh", "Tanh", {cur})});
    }
    b.Output({cur});
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    CHECK(Named(fused.graph, v == 0 ? "mul" : "relu").type == (v == 0 ? "Mul" : "Relu"));
    const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
    const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
    REQUIRE(yf.size() == yp.size());
    for (size_t i = 0; i < yf.size(); ++i) {
      INFO("element " << i << ": " << yf[i] << " vs " << yp[i]);
      CHECK(std::fabs(yf[i] - yp[i]) <= 1e-5 * (1 + std::fabs(yp[i])));
    }
  }
}

namespace {
struct ActCase {
  const char *type;
  std::map<std::string, ir::AttrValue> attrs;
  double (*f)(double);  // the activation, exact
  double lipschitz;     // max |f'|
  std::vector<std::string> post_ops;
  bool clip_inputs = false;
};
}  // namespace

TEST_CASE("activations fuse into the Conv as oneDNN post-ops", "[compiler][passes]") {
  const std::vector<ActCase> cases = {
      {"Relu", {}, [](double v) { return v > 0 ? v : 0.0; }, 1, {"eltwise_relu"}},
      {"LeakyRelu", {{"alpha", Float(0.25f)}}, [](double v) { return v > 0 ? v : 0.25 * v; }, 1, {"eltwise_relu"}},
      {"Clip", {}, [](double v) { return std::min(0.5, std::max(-0.25, v)); }, 1, {"eltwise_clip"}, true},
      {"HardSigmoid", {}, [](double v) { return std::min(1.0, std::max(0.0, 0.2 * v + 0.5)); }, 0.2,
       {"eltwise_linear", "eltwise_clip"}},
      {"HardSwish", {}, [](double v) { return v * std::min(1.0, std::max(0.0, v / 6 + 0.5)); }, 1.5,
       {"eltwise_hardswish"}},
      {"Sigmoid", {}, [](double v) { return 1 / (1 + std::exp(-v)); }, 0.25, {"eltwise_logistic"}},
      {"Tanh", {}, [](double v) { return std::tanh(v); }, 1, {"eltwise_tanh"}},
      {"Elu", {{"alpha", Float(0.5f)}}, [](double v) { return v > 0 ? v : 0.5 * (std::exp(v) - 1); }, 1,
       {"eltwise_elu"}},
  };
  const ConvCase cc = MakeConv();
  std::vector<double> lin, mag;
  RefConv(cc, std::vector<double>(4, 1.0), std::vector<double>(4, 0.0), &lin, &mag);
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x)};
  for (const ActCase &ac : cases) {
    SECTION(ac.type) {
      Builder b;
      const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
      const int32_t conv = AddConv(b, cc, x);
      std::vector<int32_t> ins = {conv};
      if (ac.clip_inputs) ins = {conv, b.Const("lo", {}, std::vector<float>{-0.25f}), b.Const("hi", {}, std::vector<float>{0.5f})};
      const int32_t act = b.Op("act", ac.type, ins, ac.attrs);
      b.Output({act});
      const size_t before = b.g.nodes.size();
      const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
      CHECK(plain.graph.nodes.size() == before);
      CHECK(fused.graph.nodes.size() == before - (ac.clip_inputs ? 3 : 1));
      const ir::Node &f = Named(fused.graph, "act");
      CHECK(f.type == "Conv");
      CHECK(f.attrs.at("openatc_post_ops").list_s == ac.post_ops);
      CHECK(FusedList(f) == std::vector<std::string>{"conv", "act"});
      // Bound: the conv's rounding through f (Lipschitz), plus 8 u of f's own evaluation
      // (oneDNN's vectorised exp/tanh against libm) relative to max(|f|, 2^-10).
      const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
      REQUIRE(yf.size() == lin.size());
      for (size_t i = 0; i < lin.size(); ++i) {
        const double want = ac.f(lin[i]);
        const double bound = ac.lipschitz * (27 + 8) * kU * mag[i] + 8 * kU * std::max(std::fabs(want), 1.0 / 1024);
        INFO(ac.type << " element " << i << ": fused " << yf[i] << " plain " << yp[i] << " exact " << want);
        CHECK(std::fabs(yf[i] - want) <= bound);
        CHECK(std::fabs(yp[i] - want) <= bound);
      }
    }
  }
}

TEST_CASE("a residual Add and the Relu after it fuse into the Conv; a second consumer blocks fusion",
          "[compiler][passes]") {
  const ConvCase cc = MakeConv();
  const std::vector<float> rv = Pattern(size_t(cc.n * cc.m * cc.h * cc.w), 5);
  std::vector<double> lin, mag;
  RefConv(cc, std::vector<double>(4, 1.0), std::vector<double>(4, 0.0), &lin, &mag);
  const std::vector<HostTensor> in = {Host({cc.n, cc.c, cc.h, cc.w}, cc.x), Host({cc.n, cc.m, cc.h, cc.w}, rv)};
  for (bool conv_first : {true, false}) {
    Builder b;
    const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
    const int32_t r = b.Data("r", {cc.n, cc.m, cc.h, cc.w});
    const int32_t conv = AddConv(b, cc, x);
    const int32_t add = b.Op("add", "Add", conv_first ? std::vector<int32_t>{conv, r} : std::vector<int32_t>{r, conv});
    const int32_t relu = b.Op("relu", "Relu", {add});
    b.Output({relu});
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    CHECK(plain.graph.nodes.size() == 8);
    CHECK(fused.graph.nodes.size() == 6);  // x, r, W, B, Conv (named relu), NetOutput
    const ir::Node &f = Named(fused.graph, "relu");
    CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"binary_add", "eltwise_relu"});
    CHECK(FusedList(f) == std::vector<std::string>{"conv", "add", "relu"});
    REQUIRE(f.inputs.size() == 4);
    CHECK(f.inputs[3].node == fused.graph.FindNode("r"));
    const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
    for (size_t i = 0; i < lin.size(); ++i) {
      const double pre = lin[i] + rv[i], want = pre > 0 ? pre : 0.0;
      const double bound = (27 + 8) * kU * (mag[i] + std::fabs(rv[i]));
      CHECK(std::fabs(yf[i] - want) <= bound);
      CHECK(std::fabs(yp[i] - want) <= bound);
    }
  }
  // The Conv's output also a graph output: nothing fuses.
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t conv = AddConv(b, cc, x);
  const int32_t relu = b.Op("relu", "Relu", {conv});
  b.Output({relu, conv});
  const om::Model m = Compile(b.g, AllOn());
  CHECK(m.graph.nodes.size() == 6);
  CHECK(Named(m.graph, "conv").attrs.count("openatc_post_ops") == 0);
}

TEST_CASE("cancelling Transposes are removed and a Reshape chain collapses", "[compiler][passes]") {
  Builder b;
  const int32_t x = b.Data("x", {2, 3, 4});
  const int32_t t1 = b.Op("t1", "Transpose", {x}, {{"perm", Ints({1, 2, 0})}});
  const int32_t t2 = b.Op("t2", "Transpose", {t1}, {{"perm", Ints({2, 0, 1})}});
  const int32_t r1 = b.Op("r1", "Reshape", {t2, b.Const<int64_t>("s1", {2}, {6, 4}, ge::DT_INT64)});
  const int32_t r2 = b.Op("r2", "Reshape", {r1, b.Const<int64_t>("s2", {2}, {4, -1}, ge::DT_INT64)});
  const int32_t relu = b.Op("relu", "Relu", {r2});
  b.Output({relu});
  REQUIRE(b.g.nodes.size() == 9);
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  CHECK(plain.graph.nodes.size() == 9);
  CHECK(fused.graph.nodes.size() == 5);  // x, s2, r2, relu, NetOutput
  for (const char *gone : {"t1", "t2", "r1", "s1"}) CHECK(fused.graph.FindNode(gone) < 0);
  CHECK(Named(fused.graph, "r2").inputs[0].node == fused.graph.FindNode("x"));
  std::vector<float> xv(24), want(24);
  for (size_t i = 0; i < 24; ++i) {
    xv[i] = float(int(i) - 10);
    want[i] = std::max(0.0f, xv[i]);
  }
  const std::vector<HostTensor> in = {Host({2, 3, 4}, xv)};
  const HostTensor yf = RunModel(fused, in)[0];
  CHECK(yf.shape == std::vector<int64_t>{4, 6});
  CHECK(Values(yf) == want);
  CHECK(Values(RunModel(plain, in)[0]) == want);
}

TEST_CASE("the fusion switch file: per-pass switches, both forms, malformed files are errors", "[compiler][passes]") {
  const ConvCase cc = MakeConv();
  Builder b;
  const int32_t x = b.Data("x", {cc.n, cc.c, cc.h, cc.w});
  const int32_t conv = AddConv(b, cc, x);
  const int32_t bn = b.Op("bn", "BatchNormalization",
                          {conv, b.Const("scale", {4}, std::vector<float>(4, 2.0f)), b.Const("shift", {4}, std::vector<float>(4, 0.0f)),
                           b.Const("mean", {4}, std::vector<float>(4, 0.0f)), b.Const("var", {4}, std::vector<float>(4, 1.0f))});
  const int32_t relu = b.Op("relu", "Relu", {bn});
  b.Output({relu});
  REQUIRE(b.g.nodes.size() == 11);
  CHECK(Compile(b.g, AllOn()).graph.nodes.size() == 5);  // everything folded and fused
  // Default: every pass on (BatchNormalization folded, the Relu fused).
  const om::Model by_default = Compile(b.g);
  CHECK(by_default.graph.nodes.size() == 5);
  CHECK(Named(by_default.graph, "relu").type == "Conv");
  CHECK(FusedList(Named(by_default.graph, "relu")) == std::vector<std::string>{"conv", "bn", "relu"});
  // JSON: BN folding off, activation fusion on.
  const om::Model no_bn = Compile(b.g, TempFile("no_bn.json", R"({"Switch":{"GraphFusion":{"ConvBatchNormFoldPass":"off",
      "ConvActivationFusionPass":"on"},
      "UBFusion":{"SomeAscendPass":"on"}}})"));
  CHECK(no_bn.graph.nodes.size() == 10);
  CHECK(no_bn.graph.FindNode("bn") < 0);
  CHECK(Named(no_bn.graph, "relu").type == "BatchNormalization");  // the Relu fused into the BatchNormalization
  CHECK(FusedList(Named(no_bn.graph, "relu")) == std::vector<std::string>{"bn", "relu"});
  // Line form: ALL off, then BN folding on again.
  const om::Model only_bn = Compile(b.g, TempFile("only_bn.cfg", "# comment\nALL:off\nConvBatchNormFoldPass : on\n"));
  CHECK(only_bn.graph.nodes.size() == 6);
  CHECK(Named(only_bn.graph, "bn").type == "Conv");
  CHECK(Named(only_bn.graph, "relu").type == "Relu");

  for (const char *bad : {R"({"Switch": {"GraphFusion": {"ALL": "maybe"}}})", R"({"Switch": [1]})", "{not json",
                          R"({"Switch": {"Other": {}}})", "just words\n"}) {
    INFO(bad);
    try {
      Compile(b.g, TempFile("bad.json", bad));
      FAIL("a malformed switch file compiled");
    } catch (const openatc::Error &e) {
      CHECK(e.code() == "E10001");
      CHECK(std::string(e.what()).find("bad.json") != std::string::npos);
    }
  }
  try {
    Compile(b.g, "/nonexistent/switch.json");
    FAIL("a missing switch file compiled");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "E10001");
  }
}
