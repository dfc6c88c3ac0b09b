// HardSwishPatternPass (atc/compiler/src/passes/hardswish_pattern.cc): the exporters' decomposed
// hard-swish x * Clip(x + 3, 0, 6) / 6 becomes one HardSwish node, which then fuses into a Conv
// before it; compiled with every pass on and with {"ALL": "off"}, both runs agree with a double
// reference within a rounding bound. Patterns that do not match exactly stay as they are.
//
// Bound: the unfused chain rounds x + 3, x * c and / 6 (3 u relative each, plus u * 3 absolute for
// x + 3, carried through * x / 6: at most u |x| / 2); oneDNN's or HardSwish's formula rounds as
// often. We check 8 u (|want| + |x| + 1) for inputs given exactly, and add the Conv's own bound
// (K + 8) u S times hard-swish's largest slope, 1.5, for a Conv's output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

double HardSwishRef(double v) { return v * std::min(6.0, std::max(0.0, v + 3)) / 6; }

// x -> Add(3) -> Clip(0, 6) -> Mul(x) -> Div(6) (or Mul(1/6)); operand orders swapped with `swap`.
int32_t AddPattern(Builder &b, int32_t x, bool swap, bool by_mul) {
  const int32_t three = b.Const("three", {}, std::vector<float>{3.0f});
  const int32_t add = b.Op("add", "Add", swap ? std::vector<int32_t>{three, x} : std::vector<int32_t>{x, three});
  const int32_t clip = b.Op("clip", "Clip", {add, b.Const("lo", {}, std::vector<float>{0.0f}),
                                             b.Const("hi", {}, std::vector<float>{6.0f})});
  const int32_t mul = b.Op("mul", "Mul", swap ? std::vector<int32_t>{clip, x} : std::vector<int32_t>{x, clip});
  if (by_mul) return b.Op("div", "Mul", {mul, b.Const("sixth", {}, std::vector<float>{1.0f / 6.0f})});
  return b.Op("div", "Div", {mul, b.Const("six", {}, std::vector<float>{6.0f})});
}

std::vector<float> Spread(size_t n) {  // values over [-5, 5], both clip ends included
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = -5.0f + 10.0f * float(i) / float(n - 1);
  return v;
}

}  // namespace

TEST_CASE("a decomposed hard-swish becomes one HardSwish node", "[compiler][passes]") {
  const std::vector<float> xv = Spread(24);
  const std::vector<HostTensor> in = {Host({2, 3, 4}, xv)};
  for (bool swap : {false, true})
    for (bool by_mul : {false, true}) {
      INFO("operands swapped " << swap << ", last step by Mul(1/6) " << by_mul);
      Builder b;
      const int32_t x = b.Data("x", {2, 3, 4});
      b.Output({AddPattern(b, x, swap, by_mul)});
      REQUIRE(b.g.nodes.size() == 10);
      const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
      CHECK(plain.graph.nodes.size() == 10);
      CHECK(fused.graph.nodes.size() == 3);  // x, HardSwish (named div), NetOutput
      const ir::Node &h = Named(fused.graph, "div");
      CHECK(h.type == "HardSwish");
      CHECK(FusedList(h) == std::vector<std::string>{"add", "clip", "mul", "div"});
      const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
      REQUIRE(yf.size() == xv.size());
      for (size_t i = 0; i < xv.size(); ++i) {
        const double want = HardSwishRef(xv[i]), bound = 8 * kU * (std::fabs(want) + std::fabs(xv[i]) + 1);
        INFO("x " << xv[i] << ": fused " << yf[i] << " plain " << yp[i] << " exact " << want);
        CHECK(std::fabs(yf[i] - want) <= bound);
        CHECK(std::fabs(yp[i] - want) <= bound);
      }
    }
}

TEST_CASE("a decomposed hard-swish after a Conv fuses into it as eltwise_hardswish", "[compiler][passes]") {
  // 1x1 Conv, C = 2 -> M = 8 over [1, 2, 3, 4]: y[m, p] = x[0, p] w[m, 0] + x[1, p] w[m, 1] + b[m].
  const std::vector<float> xv = Spread(24), wv = Pattern(16, 21), bv = Pattern(8, 22);
  Builder b;
  const int32_t x = b.Data("x", {1, 2, 3, 4});
  const int32_t conv = b.Op("conv", "Conv", {x, b.Const("W", {8, 2, 1, 1}, wv), b.Const("B", {8}, bv)});
  b.Output({AddPattern(b, conv, false, false)});
  const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
  CHECK(plain.graph.nodes.size() == 13);
  CHECK(fused.graph.nodes.size() == 5);  // x, W, B, Conv (named div), NetOutput
  const ir::Node &f = Named(fused.graph, "div");
  CHECK(f.type == "Conv");
  CHECK(f.attrs.at("openatc_post_ops").list_s == std::vector<std::string>{"eltwise_hardswish"});
  CHECK(FusedList(f) == std::vector<std::string>{"conv", "add", "clip", "mul", "div"});
  const std::vector<HostTensor> in = {Host({1, 2, 3, 4}, xv)};
  const std::vector<float> yf = Values(RunModel(fused, in)[0]), yp = Values(RunModel(plain, in)[0]);
  REQUIRE(yf.size() == 96);
  for (size_t m = 0; m < 8; ++m)
    for (size_t p = 0; p < 12; ++p) {
      const double t0 = double(xv[p]) * wv[m * 2], t1 = double(xv[12 + p]) * wv[m * 2 + 1];
      const double lin = t0 + t1 + bv[m], mag = std::fabs(t0) + std::fabs(t1) + std::fabs(double(bv[m]));
      const double want = HardSwishRef(lin);
      const double bound = 1.5 * (2 + 8) * kU * mag + 8 * kU * (std::fabs(want) + std::fabs(lin) + 1);
      const size_t o = m * 12 + p;
      INFO("channel " << m << " pixel " << p << ": fused " << yf[o] << " plain " << yp[o] << " exact " << want);
      CHECK(std::fabs(yf[o] - want) <= bound);
      CHECK(std::fabs(yp[o] - want) <= bound);
    }
}

TEST_CASE("near misses of the hard-swish pattern are left alone", "[compiler][passes]") {
  SECTION("the Mul's product is also a graph output") {
    Builder b;
    const int32_t x = b.Data("x", {2, 3});
    const int32_t div = AddPattern(b, x, false, false);
    b.Output({div, b.g.nodes[size_t(div)].inputs[0].node});
    const om::Model m = Compile(b.g, AllOn());
    CHECK(Named(m.graph, "div").type == "Div");
    CHECK(Named(m.graph, "mul").type == "Mul");
  }
  SECTION("Clip's upper bound is not 6") {
    Builder b;
    const int32_t x = b.Data("x", {2, 3});
    const int32_t add = b.Op("add", "Add", {x, b.Const("three", {}, std::vector<float>{3.0f})});
    const int32_t clip = b.Op("clip", "Clip", {add, b.Const("lo", {}, std::vector<float>{0.0f}),
                                               b.Const("hi", {}, std::vector<float>{5.0f})});
    const int32_t mul = b.Op("mul", "Mul", {x, clip});
    b.Output({b.Op("div", "Div", {mul, b.Const("six", {}, std::vector<float>{6.0f})})});
    const om::Model m = Compile(b.g, AllOn());
    CHECK(Named(m.graph, "div").type == "Div");
    CHECK(Named(m.graph, "clip").type == "Clip");
  }
  SECTION("the Mul reads another tensor than the Add") {
    Builder b;
    const int32_t x = b.Data("x", {2, 3}), z = b.Data("z", {2, 3});
    const int32_t add = b.Op("add", "Add", {x, b.Const("three", {}, std::vector<float>{3.0f})});
    const int32_t clip = b.Op("clip", "Clip", {add, b.Const("lo", {}, std::vector<float>{0.0f}),
                                               b.Const("hi", {}, std::vector<float>{6.0f})});
    const int32_t mul = b.Op("mul", "Mul", {z, clip});
    b.Output({b.Op("div", "Div", {mul, b.Const("six", {}, std::vector<float>{6.0f})})});
    const om::Model m = Compile(b.g, AllOn());
    CHECK(Named(m.graph, "div").type == "Div");
  }
  SECTION("switched off by name") {
    Builder b;
    const int32_t x = b.Data("x", {2, 3});
    b.Output({AddPattern(b, x, false, false)});
    const om::Model m = Compile(b.g, TempFile("no_hswish.cfg", "HardSwishPatternPass:off\n"));
    CHECK(Named(m.graph, "div").type == "Div");
    CHECK(m.graph.nodes.size() == 10);
  }
}
