// LayoutPlanningPass (atc/compiler/src/passes/layout_plan.cc) on a small conv chain:
//   x[1,3,8,8] -> c1 (16 ch) -> r1 Relu -> c2 (16 ch) -> a = Add(c2, r1) -> c3 (12 ch) -> r3 Relu -> out 0
//                                           a -> c4 (32 ch) -> mp MaxPool 2x2 -> c5 (8 ch, 1x1) -> out 1
//                                           a -> gap GlobalAveragePool -> out 2
// Which nodes compute blocked and which edges stay in the chain layout (so where the reorders
// sit: into c1, out of c3 (12 channels, not a multiple of the block) and c5 (a graph output)),
// with post-op fusion off and on (the default: r1 and the Add fused, the chain tensor then
// reaches c2 as X and as its fused addend); and the values of every run against a
// double-precision reference computed here and against the plain-layout run.
//
// Bound: each output is at most four float32 convolutions (K <= 3*3*16 = 144 terms each) and
// one Add deep. A layer in any summation order is within gamma_(K+2) of the sum of its terms'
// magnitudes, and the error it receives is carried by at most the same |w| weights, so the
// error of an output is at most 5 (K + 8) u M, where M is the same network evaluated exactly on
// |x|, |W|, |B| (Relu dropped: it never increases a magnitude; the mean of 64 values adds at most
// 64 u M) and u = 2^-24. Plain, blocked and fused runs each meet it, so any two agree within
// twice it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "openatc/rt/runtime.h"
#include "same_conv_ref.h"

using namespace pass_test;

namespace {

constexpr int64_t kH = 8, kW = 8;

SameConvLayer MakeLayer(int64_t c, int64_t m, int64_t k, uint32_t seed) {
  SameConvLayer l{c, m, k, Pattern(size_t(m * c * k * k), seed), Pattern(size_t(m), seed + 100)};
  for (auto &v : l.w) v *= 0.5f;
  return l;
}

constexpr double kBound = 5 * (144 + 8) / 16777216.0;  // 5 (K + 8) u

// The layer on a [1, C, s, s] input (same_conv_ref.h); `mag`: with |W| and |B| (the bound's
// magnitude network).
std::vector<double> RefConv(const SameConvLayer &l, const std::vector<double> &x, bool mag, int64_t s = kH) {
  return RefSameConv(l, x, s, mag);
}

struct Chain {
  SameConvLayer l1 = MakeLayer(3, 16, 3, 11), l2 = MakeLayer(16, 16, 3, 12), l3 = MakeLayer(16, 12, 1, 13),
        l4 = MakeLayer(16, 32, 3, 14), l5 = MakeLayer(32, 8, 1, 15);
  std::vector<float> x = Pattern(size_t(3 * kH * kW), 10);

  ir::Graph Graph() const {
    Builder b;
    const int32_t xi = b.Data("x", {1, 3, kH, kW});
    const int32_t r1 = b.Op("r1", "Relu", {AddSameConv(b, "c1", l1, xi)});
    const int32_t a = b.Op("a", "Add", {AddSameConv(b, "c2", l2, r1), r1});
    const int32_t r3 = b.Op("r3", "Relu", {AddSameConv(b, "c3", l3, a)});
    const int32_t mp = b.Op("mp", "MaxPool", {AddSameConv(b, "c4", l4, a)},
                            {{"kernel_shape", Ints({2, 2})}, {"strides", Ints({2, 2})}});
    const int32_t gap = b.Op("gap", "GlobalAveragePool", {a});
    b.Output({r3, AddSameConv(b, "c5", l5, mp), gap});
    return b.g;
  }

  // out 0 = relu(c3(a)), out 1 = c5(maxpool(c4(a))), out 2 = mean of a per channel; `mag`: the
  // magnitude network M of the bound.
  std::vector<std::vector<double>> Reference(bool mag) const {
    std::vector<double> xd(x.begin(), x.end());
    if (mag)
      for (auto &v : xd) v = std::fabs(v);
    std::vector<double> r1 = RefConv(l1, xd, mag);
    for (auto &v : r1) v = std::max(v, 0.0);
    std::vector<double> a = RefConv(l2, r1, mag);
    for (size_t i = 0; i < a.size(); ++i) a[i] += r1[i];
    const std::vector<double> y4 = RefConv(l4, a, mag);
    std::vector<double> mp(size_t(32 * (kH / 2) * (kW / 2)));
    for (int64_t m = 0; m < 32; ++m)
      for (int64_t i = 0; i < kH / 2; ++i)
        for (int64_t j = 0; j < kW / 2; ++j) {
          double v = -1e300;
          for (int64_t a2 = 0; a2 < 2; ++a2)
            for (int64_t b2 = 0; b2 < 2; ++b2) v = std::max(v, y4[size_t((m * kH + 2 * i + a2) * kW + 2 * j + b2)]);
          mp[size_t((m * (kH / 2) + i) * (kW / 2) + j)] = v;
        }
    std::vector<double> r3 = RefConv(l3, a, mag);
    for (auto &v : r3) v = std::max(v, 0.0);
    std::vector<double> gap(16, 0.0);
    for (size_t i = 0; i < a.size(); ++i) gap[i / size_t(kH * kW)] += a[i] / double(kH * kW);
    return {r3, RefConv(l5, mp, mag, kH / 2), gap};
  }
};

int64_t IntOf(const ir::Node &n, const char *name) {
  auto it = n.attrs.find(name);
  return it == n.attrs.end() ? -1 : it->second.i;
}

std::string StrOf(const ir::Node &n, const char *name) {
  auto it = n.attrs.find(name);
  return it == n.attrs.end() ? "<none>" : it->second.s;
}

// (x_blocked, y_blocked, addend_blocked) of Conv `name`, which must compute blocked.
std::vector<int64_t> ConvSides(const ir::Graph &g, const std::string &name) {
  const int32_t i = g.FindNode(name);
  REQUIRE(i >= 0);
  const ir::Node &n = g.nodes[size_t(i)];
  CHECK(n.type == "Conv");
  CHECK(StrOf(n, "openatc_layout") == "blocked");
  CHECK(IntOf(n, "openatc_weights_id") != 0);
  return {IntOf(n, "openatc_x_blocked"), IntOf(n, "openatc_y_blocked"), IntOf(n, "openatc_addend_blocked")};
}

std::string Chained(const ir::Graph &g, const std::string &name) {
  const int32_t i = g.FindNode(name);
  REQUIRE(i >= 0);
  return StrOf(g.nodes[size_t(i)], "_openatc_layout");
}

void CheckValues(const std::vector<HostTensor> &got, const std::vector<std::vector<double>> &want,
                 const std::vector<std::vector<double>> &mag) {
  REQUIRE(got.size() == want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    const std::vector<float> v = Values(got[o]);
    REQUIRE(v.size() == want[o].size());
    for (size_t i = 0; i < v.size(); ++i) {
      INFO("output " << o << " element " << i << ": " << v[i] << " vs " << want[o][i]);
      CHECK(std::fabs(double(v[i]) - want[o][i]) <= kBound * mag[o][i]);
    }
  }
}

}  // namespace

TEST_CASE("layout planning blocks a conv chain; reorders only at its boundaries; values match plain",
          "[compiler][passes][layout]") {
  const Chain ch;
  const ir::Graph g = ch.Graph();
  const std::string plain_file = TempFile("layout_off.txt", "LayoutPlanningPass:off\n");
  const std::string unfused_file = TempFile("layout_unfused.txt", "ConvActivationFusionPass:off\nConvAddFusionPass:off\n");
  const om::Model blocked = Compile(g, unfused_file), plain = Compile(g, plain_file), fused = Compile(g);

  // Post-op fusion off: c1 reads the plain graph input; r1, c2's output, a, c4's output and mp stay
  // blocked; c3 (12 channels) and c5 (a graph output) store plain; gap reads a blocked (its
  // [1, 16, 1, 1] output has the same bytes in both layouts, so it may be a graph output).
  CHECK(ConvSides(blocked.graph, "c1") == std::vector<int64_t>{0, 1, 0});
  CHECK(ConvSides(blocked.graph, "c2") == std::vector<int64_t>{1, 1, 0});
  CHECK(ConvSides(blocked.graph, "c3") == std::vector<int64_t>{1, 0, 0});
  CHECK(ConvSides(blocked.graph, "c4") == std::vector<int64_t>{1, 1, 0});
  CHECK(ConvSides(blocked.graph, "c5") == std::vector<int64_t>{1, 0, 0});
  CHECK(Chained(blocked.graph, "r1") == "blocked");
  CHECK(Chained(blocked.graph, "a") == "blocked");
  CHECK(Chained(blocked.graph, "c3") == "<none>");
  CHECK(Chained(blocked.graph, "r3") == "<none>");
  CHECK(Chained(blocked.graph, "mp") == "blocked");
  CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("mp"))], "openatc_chain_layout") == 1);
  CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("gap"))], "openatc_chain_layout") == 1);
  // Every chain tensor (c1, r1, c2, a: 16 channels; c4, mp: 32; gap: 16) is a multiple of 16, so
  // every node that writes or reads one may use the 16-wide block; c3 and c5 read the chain.
  for (const char *n : {"c1", "r1", "c2", "a", "c3", "c4", "mp", "c5", "gap"}) {
    INFO(n);
    CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode(n))], "openatc_chain_block") == 16);
  }
  CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("r3"))], "openatc_chain_block") == -1);
  // Each Conv's weights id differs (its own constants).
  CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("c1"))], "openatc_weights_id") !=
        IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("c2"))], "openatc_weights_id"));

  // Switched off: no layout attributes anywhere.
  for (const auto &n : plain.graph.nodes) {
    INFO(n.name);
    CHECK(n.attrs.count("openatc_layout") == 0);
    CHECK(n.attrs.count("_openatc_layout") == 0);
    CHECK(n.attrs.count("openatc_chain_block") == 0);
  }

  // Fusion on: c1+r1 is the Conv named r1, c2+a the Conv named a reading r1 as X and as addend.
  CHECK(ConvSides(fused.graph, "r1") == std::vector<int64_t>{0, 1, 0});
  CHECK(ConvSides(fused.graph, "a") == std::vector<int64_t>{1, 1, 1});
  CHECK(ConvSides(fused.graph, "r3") == std::vector<int64_t>{1, 0, 0});  // c3 + r3
  CHECK(ConvSides(fused.graph, "c4") == std::vector<int64_t>{1, 1, 0});

  const std::vector<HostTensor> in = {Host({1, 3, kH, kW}, ch.x)};
  const auto yb = RunModel(blocked, in), yp = RunModel(plain, in), yf = RunModel(fused, in);
  const auto want = ch.Reference(false), mag = ch.Reference(true);
  CheckValues(yp, want, mag);
  CheckValues(yb, want, mag);
  CheckValues(yf, want, mag);
  for (size_t o = 0; o < 3; ++o) {
    const std::vector<float> b = Values(yb[o]), p = Values(yp[o]), f = Values(yf[o]);
    for (size_t i = 0; i < p.size(); ++i) {
      CHECK(std::fabs(double(b[i]) - p[i]) <= 2 * kBound * mag[o][i]);
      CHECK(std::fabs(double(f[i]) - p[i]) <= 2 * kBound * mag[o][i]);
    }
  }
}

// Run-time spatial dims: x[1, 16, -1, -1] -> c1 -> s = Add(c1, 3) -> cl = Clip(s, 0, 6) ->
// m = Mul(c1, cl) -> d = Div(m, 6) (HardSwish as exporters write it) -> c2, c3; e = Add(c2, c3)
// -> out. One-element operands broadcast alike in both layouts and m's operands share c1's
// shape, so c1 .. d stay blocked; c2 and c3 have different roots whose run-time shapes the
// compiler cannot prove equal, so e runs plain and c2, c3 store plain.
TEST_CASE("layout planning with run-time shapes: scalar operands and one-root operands stay blocked",
          "[compiler][passes][layout]") {
  const SameConvLayer l1 = MakeLayer(16, 16, 3, 21), l2 = MakeLayer(16, 8, 3, 22), l3 = MakeLayer(16, 8, 1, 23);
  Builder b;
  const int32_t xi = b.Data("x", {1, 16, -1, -1});
  const int32_t c1 = AddSameConv(b, "c1", l1, xi);
  const int32_t s = b.Op("s", "Add", {c1, b.Const("three", {1}, std::vector<float>{3.0f})});
  const int32_t cl = b.Op("cl", "Clip", {s, b.Const("lo", {}, std::vector<float>{0.0f}), b.Const("hi", {}, std::vector<float>{6.0f})});
  const int32_t m = b.Op("m", "Mul", {c1, cl});
  const int32_t d = b.Op("d", "Div", {m, b.Const("six", {1}, std::vector<float>{6.0f})});
  const int32_t e = b.Op("e", "Add", {AddSameConv(b, "c2", l2, d), AddSameConv(b, "c3", l3, d)});
  b.Output({e});
  const om::Model blocked = Compile(b.g, TempFile("layout_unfused2.txt", "HardSwishPatternPass:off\nConvActivationFusionPass:off\nConvAddFusionPass:off\n")),
                  plain = Compile(b.g, TempFile("layout_off2.txt", "LayoutPlanningPass:off\n"));
  CHECK(ConvSides(blocked.graph, "c1") == std::vector<int64_t>{0, 1, 0});
  for (const char *n : {"s", "cl", "m", "d"}) {
    INFO(n);
    CHECK(Chained(blocked.graph, n) == "blocked");
  }
  CHECK(ConvSides(blocked.graph, "c2") == std::vector<int64_t>{1, 0, 0});
  CHECK(ConvSides(blocked.graph, "c3") == std::vector<int64_t>{1, 0, 0});
  CHECK(Chained(blocked.graph, "e") == "<none>");
  // Values: both runs within 3 (K + 8) u M of the exact result (K <= 144 per convolution, two
  // deep, plus the HardSwish and the Add; |HardSwish(v)| <= |v|, so M, the network on |x|, |W|,
  // |B| with HardSwish dropped, bounds every magnitude), so within twice that of each other.
  for (int64_t hw : {5, 8}) {
    INFO("spatial " << hw);
    const std::vector<float> xv = Pattern(size_t(16 * hw * hw), 24);
    std::vector<double> want, mag;
    for (bool mg : {false, true}) {
      std::vector<double> x(xv.begin(), xv.end());
      if (mg)
        for (auto &v : x) v = std::fabs(v);
      std::vector<double> h = RefConv(l1, x, mg, hw);
      if (!mg)
        for (auto &v : h) v = v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0;
      std::vector<double> y = RefConv(l2, h, mg, hw);
      const std::vector<double> y3 = RefConv(l3, h, mg, hw);
      for (size_t i = 0; i < y.size(); ++i) y[i] += y3[i];
      (mg ? mag : want) = y;
    }
    const std::vector<HostTensor> in = {Host({1, 16, hw, hw}, xv)};
    const std::vector<float> yb = Values(RunModel(blocked, in)[0]), yp = Values(RunModel(plain, in)[0]);
    REQUIRE(yb.size() == want.size());
    REQUIRE(yp.size() == want.size());
    const double k = 3 * (144 + 8) / 16777216.0;
    for (size_t i = 0; i < yb.size(); ++i) {
      CHECK(std::fabs(yb[i] - want[i]) <= k * mag[i]);
      CHECK(std::fabs(yp[i] - want[i]) <= k * mag[i]);
      CHECK(std::fabs(double(yb[i]) - yp[i]) <= 2 * k * mag[i]);
    }
  }
}

TEST_CASE("layout planning with run-time shapes: a squeeze-excitation Mul and a residual Add stay blocked",
          "[compiler][passes][layout]") {
  // x[1,16,?,?] -> c1 (3x3, pad 1) -> r Relu -> m = Mul(r, w) -> c3 (1x1) -> e = Add(c3, r) -> c4 (1x1, 8 ch)
  //                                    r -> gap -> c2 (1x1 on [1,16,1,1]) -> w Sigmoid
  // m multiplies r by per-channel weights: it computes in the chain layout (openatc_chain_layout),
  // and c1, m and c3 keep N, H and W, so e's operands provably never broadcast: e stays blocked.
  const SameConvLayer l1 = MakeLayer(16, 16, 3, 31), l2 = MakeLayer(16, 16, 1, 32), l3 = MakeLayer(16, 16, 1, 33),
              l4 = MakeLayer(16, 8, 1, 34);
  Builder b;
  const int32_t xi = b.Data("x", {1, 16, -1, -1});
  const int32_t r = b.Op("r", "Relu", {AddSameConv(b, "c1", l1, xi)});
  const int32_t gap = b.Op("gap", "GlobalAveragePool", {r});
  const int32_t w = b.Op("w", "Sigmoid", {AddSameConv(b, "c2", l2, gap)});
  const int32_t m = b.Op("m", "Mul", {r, w});
  const int32_t e = b.Op("e", "Add", {AddSameConv(b, "c3", l3, m), r});
  b.Output({AddSameConv(b, "c4", l4, e)});
  const om::Model blocked = Compile(b.g, TempFile("layout_se.txt", "ConvActivationFusionPass:off\nConvAddFusionPass:off\n")),
                  plain = Compile(b.g, TempFile("layout_se_off.txt", "LayoutPlanningPass:off\n"));
  CHECK(ConvSides(blocked.graph, "c1") == std::vector<int64_t>{0, 1, 0});
  for (const char *n : {"r", "m", "e"}) {
    INFO(n);
    CHECK(Chained(blocked.graph, n) == "blocked");
  }
  CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode("m"))], "openatc_chain_layout") == 1);
  CHECK(IntOf(plain.graph.nodes[size_t(plain.graph.FindNode("m"))], "openatc_chain_layout") == -1);
  CHECK(ConvSides(blocked.graph, "c3") == std::vector<int64_t>{1, 1, 0});
  CHECK(ConvSides(blocked.graph, "c4") == std::vector<int64_t>{1, 0, 0});
  CHECK(ConvSides(blocked.graph, "c2")[0] == 1);  // the pool's [1, 16, 1, 1] reads the same in both layouts
  // Values: within 8 (K + 8) u M of the exact result (K <= 144, four convolutions deep; M is the
  // network on |x|, |W|, |B| with the Relu dropped and the Sigmoid's weights taken as 1, their
  // bound), so blocked and plain runs within twice that of each other.
  for (int64_t hw : {5, 8}) {
    INFO("spatial " << hw);
    const std::vector<float> xv = Pattern(size_t(16 * hw * hw), 35);
    std::vector<double> want, mag;
    for (bool mg : {false, true}) {
      std::vector<double> x(xv.begin(), xv.end());
      if (mg)
        for (auto &v : x) v = std::fabs(v);
      std::vector<double> rr = RefConv(l1, x, mg, hw);
      if (!mg)
        for (auto &v : rr) v = std::max(v, 0.0);
      std::vector<double> g(16, 0.0);
      for (size_t i = 0; i < rr.size(); ++i) g[i / size_t(hw * hw)] += rr[i] / double(hw * hw);
      std::vector<double> ww = RefConv(l2, g, mg, 1);
      for (auto &v : ww) v = mg ? 1.0 : 1.0 / (1.0 + std::exp(-v));
      std::vector<double> mm = rr;
      for (size_t i = 0; i < mm.size(); ++i) mm[i] *= ww[i / size_t(hw * hw)];
      std::vector<double> ee = RefConv(l3, mm, mg, hw);
      for (size_t i = 0; i < ee.size(); ++i) ee[i] += rr[i];
      (mg ? mag : want) = RefConv(l4, ee, mg, hw);
    }
    const std::vector<HostTensor> in = {Host({1, 16, hw, hw}, xv)};
    const std::vector<float> yb = Values(RunModel(blocked, in)[0]), yp = Values(RunModel(plain, in)[0]);
    REQUIRE(yb.size() == want.size());
    REQUIRE(yp.size() == want.size());
    const double k = 8 * (144 + 8) / 16777216.0;
    for (size_t i = 0; i < yb.size(); ++i) {
      INFO("element " << i << ": blocked " << yb[i] << " plain " << yp[i] << " exact " << want[i]);
      CHECK(std::fabs(yb[i] - want[i]) <= k * mag[i]);
      CHECK(std::fabs(yp[i] - want[i]) <= k * mag[i]);
      CHECK(std::fabs(double(yb[i]) - yp[i]) <= 2 * k * mag[i]);
    }
  }
}

TEST_CASE("layout planning marks a chain 16-wide only when all of its tensors allow it",
          "[compiler][passes][layout]") {
  // Two chains: x1 -> cA (16 ch) -> rA Relu -> cB (8 ch) -> out 0; x2 -> cC (24 ch) -> rC Relu ->
  // cD (8 ch) -> out 1. The first chain's tensors (cA, rA: 16 channels) allow 16, the second's (24)
  // only 8: each chain's nodes agree on their block, and the chains differ.
  const SameConvLayer la = MakeLayer(3, 16, 3, 41), lb = MakeLayer(16, 8, 3, 42), lc = MakeLayer(3, 24, 3, 43),
              ld = MakeLayer(24, 8, 3, 44);
  Builder b;
  const int32_t x1 = b.Data("x1", {1, 3, kH, kW}), x2 = b.Data("x2", {1, 3, kH, kW});
  const int32_t ra = b.Op("rA", "Relu", {AddSameConv(b, "cA", la, x1)});
  const int32_t rc = b.Op("rC", "Relu", {AddSameConv(b, "cC", lc, x2)});
  b.Output({AddSameConv(b, "cB", lb, ra), AddSameConv(b, "cD", ld, rc)});
  const om::Model blocked = Compile(b.g, TempFile("layout_wide.txt", "ConvActivationFusionPass:off\n")),
                  plain = Compile(b.g, TempFile("layout_wide_off.txt", "LayoutPlanningPass:off\n"));
  CHECK(ConvSides(blocked.graph, "cA") == std::vector<int64_t>{0, 1, 0});
  CHECK(ConvSides(blocked.graph, "cC") == std::vector<int64_t>{0, 1, 0});
  for (const char *n : {"cA", "rA", "cB"}) {
    INFO(n);
    CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode(n))], "openatc_chain_block") == 16);
  }
  for (const char *n : {"cC", "rC", "cD"}) {
    INFO(n);
    CHECK(Chained(blocked.graph, n) == (std::string(n) == "cD" ? "<none>" : "blocked"));
    CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode(n))], "openatc_chain_block") == -1);
  }
  // Values: within 2 (K + 8) u M of the exact result (K <= 3*3*24 = 216, two convolutions deep),
  // so blocked and plain runs within twice that of each other.
  const std::vector<float> v1 = Pattern(size_t(3 * kH * kW), 45), v2 = Pattern(size_t(3 * kH * kW), 46);
  std::vector<std::vector<double>> want(2), mag(2);
  for (bool mg : {false, true}) {
    std::vector<double> a(v1.begin(), v1.end()), c(v2.begin(), v2.end());
    if (mg)
      for (auto *v : {&a, &c})
        for (auto &e : *v) e = std::fabs(e);
    std::vector<double> ha = RefConv(la, a, mg), hc = RefConv(lc, c, mg);
    for (auto *v : {&ha, &hc})
      for (auto &e : *v) e = std::max(e, mg ? e : 0.0);
    (mg ? mag : want) = {RefConv(lb, ha, mg), RefConv(ld, hc, mg)};
  }
  const std::vector<HostTensor> in = {Host({1, 3, kH, kW}, v1), Host({1, 3, kH, kW}, v2)};
  const auto yb = RunModel(blocked, in), yp = RunModel(plain, in);
  REQUIRE(yb.size() == 2);
  REQUIRE(yp.size() == 2);
  const double k = 2 * (216 + 8) / 16777216.0;
  for (size_t o = 0; o < 2; ++o) {
    const std::vector<float> gb = Values(yb[o]), gp = Values(yp[o]);
    REQUIRE(gb.size() == want[o].size());
    REQUIRE(gp.size() == want[o].size());
    for (size_t i = 0; i < gb.size(); ++i) {
      INFO("output " << o << " element " << i << ": blocked " << gb[i] << " plain " << gp[i] << " exact " << want[o][i]);
      CHECK(std::fabs(gb[i] - want[o][i]) <= k * mag[o][i]);
      CHECK(std::fabs(gp[i] - want[o][i]) <= k * mag[o][i]);
    }
  }
}

TEST_CASE("layout planning keeps an inference BatchNormalization (and its fused Relu) in the chain",
          "[compiler][passes][layout]") {
  // x[1,3,8,8] -> c1 (16 ch) -> mp MaxPool 2x2 -> bn BatchNormalization -> r Relu -> c2 (8 ch) -> out.
  // The BatchNormalization follows a pool, so it folds into no Conv; it computes in the chain
  // layout (openatc_chain_layout), with the Relu fused into it, and c2 reads its output blocked.
  const SameConvLayer l1 = MakeLayer(3, 16, 3, 51), l2 = MakeLayer(16, 8, 3, 52);
  std::vector<float> scale(16), shift(16), mean(16), var(16);
  for (size_t c = 0; c < 16; ++c) {
    scale[c] = 0.5f + 0.125f * float(c % 5);
    shift[c] = 0.0625f * float(int(c) - 7);
    mean[c] = 0.03125f * float(c % 3);
    var[c] = 0.25f + 0.5f * float(c % 4);
  }
  Builder b;
  const int32_t xi = b.Data("x", {1, 3, kH, kW});
  const int32_t mp = b.Op("mp", "MaxPool", {AddSameConv(b, "c1", l1, xi)},
                          {{"kernel_shape", Ints({2, 2})}, {"strides", Ints({2, 2})}});
  const int32_t bn = b.Op("bn", "BatchNormalization",
                          {mp, b.Const("scale", {16}, scale), b.Const("shift", {16}, shift), b.Const("mean", {16}, mean),
                           b.Const("var", {16}, var)});
  const int32_t r = b.Op("r", "Relu", {bn});
  b.Output({AddSameConv(b, "c2", l2, r)});
  const om::Model blocked = Compile(b.g), plain = Compile(b.g, TempFile("layout_bn_off.txt", "LayoutPlanningPass:off\n"));
  const ir::Node &f = blocked.graph.nodes[size_t(blocked.graph.FindNode("r"))];
  CHECK(f.type == "BatchNormalization");  // the Relu fused into it
  CHECK(IntOf(f, "openatc_chain_layout") == 1);
  CHECK(Chained(blocked.graph, "r") == "blocked");
  CHECK(Chained(blocked.graph, "mp") == "blocked");
  CHECK(ConvSides(blocked.graph, "c2") == std::vector<int64_t>{1, 0, 0});
  // Values: within 4 (K + 8) u M of the exact result (two convolutions of K <= 144 terms, the pool
  // and the normalisation's few roundings; M: the network on |x|, |W|, |B| with the normalisation
  // on magnitudes, (|v| + |mean|) / den * |scale| + |B|, and the Relu dropped).
  const std::vector<float> xv = Pattern(size_t(3 * kH * kW), 53);
  std::vector<double> want, mag;
  for (bool mg : {false, true}) {
    std::vector<double> x(xv.begin(), xv.end());
    if (mg)
      for (auto &v : x) v = std::fabs(v);
    const std::vector<double> y1 = RefConv(l1, x, mg);
    std::vector<double> h(size_t(16 * (kH / 2) * (kW / 2)));
    for (int64_t m = 0; m < 16; ++m)
      for (int64_t i = 0; i < kH / 2; ++i)
        for (int64_t j = 0; j < kW / 2; ++j) {
          double v = -1e300;
          for (int64_t a = 0; a < 2; ++a)
            for (int64_t bb = 0; bb < 2; ++bb) v = std::max(v, y1[size_t((m * kH + 2 * i + a) * kW + 2 * j + bb)]);
          const double den = std::sqrt(double(var[size_t(m)]) + 1e-5);
          const double t = mg ? (v + std::fabs(mean[size_t(m)])) / den * std::fabs(scale[size_t(m)]) + std::fabs(shift[size_t(m)])
                              : std::max((v - mean[size_t(m)]) / den * scale[size_t(m)] + shift[size_t(m)], 0.0);
          h[size_t((m * (kH / 2) + i) * (kW / 2) + j)] = t;
        }
    (mg ? mag : want) = RefConv(l2, h, mg, kH / 2);
  }
  const std::vector<HostTensor> in = {Host({1, 3, kH, kW}, xv)};
  const std::vector<float> yb = Values(RunModel(blocked, in)[0]), yp = Values(RunModel(plain, in)[0]);
  REQUIRE(yb.size() == want.size());
  REQUIRE(yp.size() == want.size());
  const double k = 4 * (144 + 8) / 16777216.0;
  for (size_t i = 0; i < yb.size(); ++i) {
    INFO("element " << i << ": blocked " << yb[i] << " plain " << yp[i] << " exact " << want[i]);
    CHECK(std::fabs(yb[i] - want[i]) <= k * mag[i]);
    CHECK(std::fabs(yp[i] - want[i]) <= k * mag[i]);
  }
}

TEST_CASE("layout planning: AveragePools in the chain layout (padding excluded and included)",
          "[compiler][passes][layout]") {
  // x[1,3,8,8] -> c1 (16 ch) -> a1 AveragePool 3x3 stride 1 pads 1 (count_include_pad 0) ->
  // a2 AveragePool 3x3 stride 2 pads 1 (count_include_pad 1) -> c2 (8 ch, 1x1) -> out.
  const SameConvLayer l1 = MakeLayer(3, 16, 3, 61), l2 = MakeLayer(16, 8, 1, 62);
  Builder b;
  const int32_t xi = b.Data("x", {1, 3, kH, kW});
  const int32_t a1 = b.Op("a1", "AveragePool", {AddSameConv(b, "c1", l1, xi)},
                          {{"kernel_shape", Ints({3, 3})}, {"pads", Ints({1, 1, 1, 1})}});
  const int32_t a2 = b.Op("a2", "AveragePool", {a1},
                          {{"kernel_shape", Ints({3, 3})}, {"strides", Ints({2, 2})}, {"pads", Ints({1, 1, 1, 1})},
                           {"count_include_pad", ir::AttrValue{}}});
  b.g.nodes[size_t(a2)].attrs["count_include_pad"].kind = ir::AttrKind::kInt;
  b.g.nodes[size_t(a2)].attrs["count_include_pad"].i = 1;
  b.Output({AddSameConv(b, "c2", l2, a2)});
  const om::Model blocked = Compile(b.g), plain = Compile(b.g, TempFile("layout_ap_off.txt", "LayoutPlanningPass:off\n"));
  for (const char *n : {"a1", "a2"}) {
    INFO(n);
    CHECK(Chained(blocked.graph, n) == "blocked");
    CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode(n))], "openatc_chain_layout") == 1);
  }
  // Values: within 4 (K + 8) u M of the exact result (two convolutions, K <= 27 and 16, and two
  // means of at most 9 terms; M: the network on |x|, |W|, |B|).
  const std::vector<float> xv = Pattern(size_t(3 * kH * kW), 63);
  auto pool = [](const std::vector<double> &v, int64_t h, int64_t s, bool include, int64_t *oh) {
    *oh = (h + 2 - 3) / s + 1;
    std::vector<double> y(size_t(16 * *oh * *oh));
    for (int64_t c = 0; c < 16; ++c)
      for (int64_t i = 0; i < *oh; ++i)
        for (int64_t j = 0; j < *oh; ++j) {
          double sum = 0;
          int count = 0;
          for (int64_t a = i * s - 1; a < i * s + 2; ++a)
            for (int64_t bb = j * s - 1; bb < j * s + 2; ++bb)
              if (a >= 0 && a < h && bb >= 0 && bb < h) sum += v[size_t((c * h + a) * h + bb)], ++count;
          y[size_t((c * *oh + i) * *oh + j)] = sum / (include ? 9 : count);
        }
    return y;
  };
  std::vector<double> want, mag;
  int64_t o1 = 0, o2 = 0;
  for (bool mg : {false, true}) {
    std::vector<double> x(xv.begin(), xv.end());
    if (mg)
      for (auto &v : x) v = std::fabs(v);
    const std::vector<double> p1 = pool(RefConv(l1, x, mg), kH, 1, false, &o1);
    const std::vector<double> p2 = pool(p1, o1, 2, true, &o2);
    (mg ? mag : want) = RefConv(l2, p2, mg, o2);
  }
  const std::vector<HostTensor> in = {Host({1, 3, kH, kW}, xv)};
  const std::vector<float> yb = Values(RunModel(blocked, in)[0]), yp = Values(RunModel(plain, in)[0]);
  REQUIRE(yb.size() == want.size());
  REQUIRE(yp.size() == want.size());
  const double k = 4 * (27 + 8) / 16777216.0;
  for (size_t i = 0; i < yb.size(); ++i) {
    INFO("element " << i << ": blocked " << yb[i] << " plain " << yp[i] << " exact " << want[i]);
    CHECK(std::fabs(yb[i] - want[i]) <= k * mag[i]);
    CHECK(std::fabs(yp[i] - want[i]) <= k * mag[i]);
  }
}

TEST_CASE("layout planning: chain-layout pools, a padded MaxPool with ceil_mode and pools split over threads",
          "[compiler][passes][layout]") {
  // x[1,3,h,h] -> c1 (48 ch) -> m MaxPool 3x3 stride 2 pads 1 ceil_mode 1 (the last window starts
  //                             on the last row and column) -> c2 (8 ch, 1x1) -> out 0
  //                          -> a AveragePool 3x3 stride 1 pads 1 -> c3 (8 ch, 1x1) -> out 1
  // At h = 64, a's X and Y hold 1.5 MiB: over dnnl_util's serial bound, so on 2 threads it runs
  // in parts over the team (ops/common/chain_pool.cc); h = 8 runs serially.
  const int64_t h = GENERATE(int64_t{8}, int64_t{64});
  const int64_t o = (h + 2 - 3 + 1) / 2 + 1;  // ceil_mode
  const SameConvLayer l1 = MakeLayer(3, 48, 3, 71), l2 = MakeLayer(48, 8, 1, 72), l3 = MakeLayer(48, 8, 1, 74);
  Builder b;
  const int32_t xi = b.Data("x", {1, 3, h, h});
  const int32_t c1 = AddSameConv(b, "c1", l1, xi);
  const int32_t m = b.Op("m", "MaxPool", {c1},
                         {{"kernel_shape", Ints({3, 3})}, {"strides", Ints({2, 2})}, {"pads", Ints({1, 1, 1, 1})},
                          {"ceil_mode", ir::AttrValue{}}});
  b.g.nodes[size_t(m)].attrs["ceil_mode"].kind = ir::AttrKind::kInt;
  b.g.nodes[size_t(m)].attrs["ceil_mode"].i = 1;
  const int32_t a = b.Op("a", "AveragePool", {c1}, {{"kernel_shape", Ints({3, 3})}, {"pads", Ints({1, 1, 1, 1})}});
  b.Output({AddSameConv(b, "c2", l2, m), AddSameConv(b, "c3", l3, a)});
  const om::Model blocked = Compile(b.g), plain = Compile(b.g, TempFile("layout_mp_off.txt", "LayoutPlanningPass:off\n"));
  CHECK(Chained(blocked.graph, "m") == "blocked");
  CHECK(Chained(blocked.graph, "a") == "blocked");
  // Values: within 4 (K + 8) u M of the exact result (two convolutions, K <= 48, and a mean of at
  // most 9 terms; a max adds no error).
  const std::vector<float> xv = Pattern(size_t(3 * h * h), 73);
  std::vector<double> want[2], mag[2];
  for (bool mg : {false, true}) {
    std::vector<double> x(xv.begin(), xv.end());
    if (mg)
      for (auto &v : x) v = std::fabs(v);
    const std::vector<double> y1 = RefConv(l1, x, mg, h);
    std::vector<double> mp(size_t(48 * o * o)), ap(size_t(48 * h * h));
    for (int64_t c = 0; c < 48; ++c)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < h; ++j) {
          double mx = -1e300, sum = 0;
          int count = 0;
          for (int64_t p = i - 1; p < i + 2; ++p)
            for (int64_t q = j - 1; q < j + 2; ++q)
              if (p >= 0 && p < h && q >= 0 && q < h) sum += y1[size_t((c * h + p) * h + q)], ++count;
          ap[size_t((c * h + i) * h + j)] = sum / count;
          if (i >= o || j >= o) continue;
          for (int64_t p = 2 * i - 1; p < 2 * i + 2; ++p)
            for (int64_t q = 2 * j - 1; q < 2 * j + 2; ++q)
              if (p >= 0 && p < h && q >= 0 && q < h) mx = std::max(mx, y1[size_t((c * h + p) * h + q)]);
          mp[size_t((c * o + i) * o + j)] = mx;
        }
    (mg ? mag : want)[0] = RefConv(l2, mp, mg, o);
    (mg ? mag : want)[1] = RefConv(l3, ap, mg, h);
  }
  const std::vector<HostTensor> in = {Host({1, 3, h, h}, xv)};
  const double k = 4 * (48 + 8) / 16777216.0;
  for (int threads : {2, 1}) {
    rt::SetThreadCount(threads);
    const std::vector<HostTensor> yb = RunModel(blocked, in), yp = RunModel(plain, in);
    for (size_t r = 0; r < 2; ++r) {
      const std::vector<float> vb = Values(yb[r]), vp = Values(yp[r]);
      REQUIRE(vb.size() == want[r].size());
      REQUIRE(vp.size() == want[r].size());
      for (size_t i = 0; i < vb.size(); ++i) {
        INFO(threads << " thread(s), h " << h << ", output " << r << " element " << i << ": blocked " << vb[i]
                     << " plain " << vp[i] << " exact " << want[r][i]);
        CHECK(std::fabs(vb[i] - want[r][i]) <= k * mag[r][i]);
        CHECK(std::fabs(vp[i] - want[r][i]) <= k * mag[r][i]);
      }
    }
  }
  rt::SetThreadCount(0);
}

TEST_CASE("layout planning: a pool whose window covers the map reads the same in both layouts",
          "[compiler][passes][layout]") {
  // x[1,3,8,8] -> c1 (16 ch) -> ap AveragePool 8x8 -> [1,16,1,1] -> f Flatten -> out 0
  //                          -> mp MaxPool 8x8 -> [1,16,1,1] -> out 1
  // (the global pool of exported ResNets and Inceptions). The pools' outputs have the same bytes
  // in both layouts, so a plain reader (Flatten) and a graph output may take them: c1 stores
  // blocked, and no reorder is left.
  const SameConvLayer l1 = MakeLayer(3, 16, 3, 71);
  Builder b;
  const int32_t xi = b.Data("x", {1, 3, kH, kW});
  const int32_t c1 = AddSameConv(b, "c1", l1, xi);
  const int32_t ap = b.Op("ap", "AveragePool", {c1}, {{"kernel_shape", Ints({kH, kW})}});
  const int32_t mp = b.Op("mp", "MaxPool", {c1}, {{"kernel_shape", Ints({kH, kW})}});
  b.Output({b.Op("f", "Flatten", {ap}), mp});
  const om::Model blocked = Compile(b.g), plain = Compile(b.g, TempFile("layout_wp_off.txt", "LayoutPlanningPass:off\n"));
  CHECK(ConvSides(blocked.graph, "c1") == std::vector<int64_t>{0, 1, 0});
  for (const char *n : {"ap", "mp"}) {
    INFO(n);
    CHECK(Chained(blocked.graph, n) == "blocked");
    CHECK(IntOf(blocked.graph.nodes[size_t(blocked.graph.FindNode(n))], "openatc_chain_layout") == 1);
  }
  CHECK(Chained(blocked.graph, "f") == "<none>");
  // Values: the mean and the max of c1's 64 outputs per channel. c1 is within (K + 8) u M of its
  // exact value (K = 27), the mean adds at most 64 u M, the max nothing.
  const std::vector<float> xv = Pattern(size_t(3 * kH * kW), 72);
  std::vector<double> x(xv.begin(), xv.end()), xm = x;
  for (auto &v : xm) v = std::fabs(v);
  const std::vector<double> y = RefConv(l1, x, false), ym = RefConv(l1, xm, true);
  const std::vector<HostTensor> in = {Host({1, 3, kH, kW}, xv)};
  const auto gb = RunModel(blocked, in), gp = RunModel(plain, in);
  REQUIRE(gb.size() == 2);
  REQUIRE(gp.size() == 2);
  CHECK(gb[0].shape == std::vector<int64_t>{1, 16});
  CHECK(gb[1].shape == std::vector<int64_t>{1, 16, 1, 1});
  const double k = (27 + 8 + 64) / 16777216.0;
  for (const auto *got : {&gb, &gp}) {
    const std::vector<float> mean = Values((*got)[0]), max = Values((*got)[1]);
    REQUIRE(mean.size() == 16);
    REQUIRE(max.size() == 16);
    for (size_t c = 0; c < 16; ++c) {
      double sum = 0, msum = 0, top = -1e300, mtop = 0;
      for (size_t i = 0; i < size_t(kH * kW); ++i) {
        sum += y[c * kH * kW + i];
        msum += ym[c * kH * kW + i];
        top = std::max(top, y[c * kH * kW + i]);
        mtop = std::max(mtop, ym[c * kH * kW + i]);
      }
      INFO("channel " << c);
      CHECK(std::fabs(mean[c] - sum / double(kH * kW)) <= k * msum / double(kH * kW));
      CHECK(std::fabs(max[c] - top) <= k * mtop);
    }
  }
}

TEST_CASE("a DenseNet-style chain of Concats: inputs written in place, in the blocked layout", "[compiler][passes][layout]") {
  // x[1,3,8,8] -> c1 (16 ch) -> k1 = Concat(c1, c2(c1)) [32] -> k2 = Concat(k1, c3(k1)) [48]
  // -> c4 (8 ch, 1x1) -> out. The memory plan (atc/compiler/src/memory_plan.cc) places c1 and c2
  // inside k1 and k1 and c3 inside k2, so ops/Concat.cc copies nothing; all of it stays blocked.
  const SameConvLayer l1 = MakeLayer(3, 16, 3, 81), l2 = MakeLayer(16, 16, 3, 82), l3 = MakeLayer(32, 16, 3, 83),
              l4 = MakeLayer(48, 8, 1, 84);
  Builder b;
  const int32_t xi = b.Data("x", {1, 3, kH, kW});
  const int32_t c1 = AddSameConv(b, "c1", l1, xi);
  const int32_t k1 = b.Op("k1", "Concat", {c1, AddSameConv(b, "c2", l2, c1)}, {{"axis", Int(1)}});
  const int32_t k2 = b.Op("k2", "Concat", {k1, AddSameConv(b, "c3", l3, k1)}, {{"axis", Int(1)}});
  b.Output({AddSameConv(b, "c4", l4, k2)});
  const om::Model m = Compile(b.g);
  auto offset = [&](const char *n) {
    const int32_t i = m.graph.FindNode(n);
    REQUIRE(i >= 0);
    return m.graph.nodes[size_t(i)].plan.output_offsets.at(0);
  };
  const int64_t slice = 16 * kH * kW * 4;  // 16 channels of 8x8 float32
  CHECK(offset("k2") >= 0);
  CHECK(offset("k1") == offset("k2"));
  CHECK(offset("c1") == offset("k2"));
  CHECK(offset("c2") == offset("k2") + slice);
  CHECK(offset("c3") == offset("k2") + 2 * slice);
  CHECK(Chained(m.graph, "k1") == "blocked");
  CHECK(Chained(m.graph, "k2") == "blocked");
  // Values: within 5 (K + 8) u M of the exact result (K <= 3*3*32 = 288; four convolutions deep).
  const std::vector<float> xv = Pattern(size_t(3 * kH * kW), 85);
  std::vector<double> want, mag;
  for (bool mg : {false, true}) {
    std::vector<double> x(xv.begin(), xv.end());
    if (mg)
      for (auto &v : x) v = std::fabs(v);
    std::vector<double> a = RefConv(l1, x, mg), b1 = RefConv(l2, a, mg);
    a.insert(a.end(), b1.begin(), b1.end());
    const std::vector<double> b2 = RefConv(l3, a, mg);
    a.insert(a.end(), b2.begin(), b2.end());
    (mg ? mag : want) = RefConv(l4, a, mg);
  }
  const std::vector<float> y = Values(RunModel(m, {Host({1, 3, kH, kW}, xv)})[0]);
  REQUIRE(y.size() == want.size());
  const double k = 5 * (288 + 8) / 16777216.0;
  for (size_t i = 0; i < y.size(); ++i) {
    INFO("element " << i << ": " << y[i] << " vs " << want[i]);
    CHECK(std::fabs(y[i] - want[i]) <= k * mag[i]);
  }
}
