// GeluPatternPass and LayerNormPatternPass (atc/compiler/src/passes/gelu_pattern.cc,
// layernorm_pattern.cc): the decomposed GELU and layer normalisation that exporters write below
// opsets 20 and 17 become one Gelu / LayerNormalization node; compiled with every pass on and
// with {"ALL": "off"}, both runs agree with a double reference; near misses stay as they are.
//
// Bounds. GELU: on [-5, 5] both the float32 chain and oneDNN's kernel are within a few ulp of
// |x| (the argument of tanh/erf carries ~4 u relative error, and GELU's slope in it is at most
// 0.5 |x| sech^2 <= 0.5 |x|), checked as 32 u (|want| + |x|). Layer normalisation: each row of
// 16 values spreads over [-2, 2] (standard deviation >= 0.5), so the normalised values are O(1)
// and well conditioned; the float32 chain rounds ~8 times per value, each within u of a value of
// magnitude at most (|x| + |mean|) / std * |gamma| + |beta|, checked as 32 u times that.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "pass_graph_builder.h"

using namespace pass_test;

namespace {


std::vector<float> Spread(size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * float((i * 7) % n) / float(n - 1);
  return v;
}

int32_t Scalar(Builder &b, const std::string &name, float v) { return b.Const(name, {}, std::vector<float>{v}); }

// GPT-2's export: 0.5h * (1 + tanh(0.79788 * (h + (0.044715h * h) * h))).
int32_t GeluGpt2(Builder &b, int32_t h) {
  const int32_t half = b.Op("mul", "Mul", {h, Scalar(b, "c_half", 0.5f)});
  const int32_t m1 = b.Op("mul_1", "Mul", {h, Scalar(b, "c_cube", 0.044715f)});
  const int32_t m3 = b.Op("mul_3", "Mul", {b.Op("mul_2", "Mul", {m1, h}), h});
  const int32_t inner = b.Op("mul_4", "Mul", {b.Op("add", "Add", {h, m3}), Scalar(b, "c_s", 0.7978845608f)});
  const int32_t q = b.Op("add_1", "Add", {b.Op("tanh", "Tanh", {inner}), Scalar(b, "c_one", 1.0f)});
  return b.Op("mul_5", "Mul", {half, q});
}

// Another order: ((h * (1 + tanh(0.79788 * (h + 0.044715 * h^3)))) * 0.5), h^3 as Pow.
int32_t GeluPow(Builder &b, int32_t h, float cube) {
  const int32_t p = b.Op("pow", "Pow", {h, Scalar(b, "c_three", 3.0f)});
  const int32_t c = b.Op("mul_c", "Mul", {Scalar(b, "c_cube", cube), p});
  const int32_t inner = b.Op("mul_s", "Mul", {Scalar(b, "c_s", 0.7978845608f), b.Op("add", "Add", {c, h})});
  const int32_t q = b.Op("add_1", "Add", {Scalar(b, "c_one", 1.0f), b.Op("tanh", "Tanh", {inner})});
  return b.Op("out", "Mul", {b.Op("mul_h", "Mul", {h, q}), Scalar(b, "c_half", 0.5f)});
}

// BERT's export: (h * 0.5) * (erf(h / sqrt 2) + 1).
int32_t GeluErf(Builder &b, int32_t h) {
  const int32_t e = b.Op("erf", "Erf", {b.Op("div", "Div", {h, Scalar(b, "c_sqrt2", 1.4142135f)})});
  return b.Op("out", "Mul", {b.Op("mul", "Mul", {h, Scalar(b, "c_half", 0.5f)}),
                             b.Op("add", "Add", {e, Scalar(b, "c_one", 1.0f)})});
}

double GeluRef(double v, bool tanh_form) {
  if (!tanh_form) return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
}

}  // namespace

TEST_CASE("a decomposed GELU becomes one Gelu node (tanh and erf forms, any operand order)",
          "[compiler][passes]") {
  const std::vector<float> xv = Spread(48, -5.0f, 5.0f);
  const std::vector<HostTensor> in = {Host({2, 3, 8}, xv)};
  for (int form = 0; form < 3; ++form) {
    INFO("form " << form);
    Builder b;
    const int32_t x = b.Data("x", {2, 3, 8});
    const int32_t y = form == 0 ? GeluGpt2(b, x) : form == 1 ? GeluPow(b, x, 0.044715f) : GeluErf(b, x);
    b.Output({y});
    const std::string root = b.g.nodes[size_t(y)].name;
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    const ir::Node &g = Named(fused.graph, root);
    CHECK(g.type == "Gelu");
    CHECK(g.attrs.at("approximate").s == (form == 2 ? "none" : "tanh"));
    CHECK(fused.graph.nodes.size() == 3);  // x, Gelu, NetOutput
    CHECK(FusedList(g).size() == (form == 0 ? 9u : form == 1 ? 8u : 5u));
    for (const om::Model *m : {&fused, &plain}) {
      const std::vector<float> got = Values(RunModel(*m, in)[0]);
      REQUIRE(got.size() == xv.size());
      for (size_t i = 0; i < xv.size(); ++i) {
        const double want = GeluRef(xv[i], form != 2);
        INFO("x = " << xv[i] << ": " << got[i] << " vs " << want);
        CHECK(std::fabs(double(got[i]) - want) <= 32 * kU * (std::fabs(want) + std::fabs(xv[i])));
      }
    }
  }
  // A near miss (0.04 instead of 0.044715) is another function: left as it is.
  Builder b;
  const int32_t x = b.Data("x", {2, 3, 8});
  b.Output({GeluPow(b, x, 0.04f)});
  const om::Model m = Compile(b.g, AllOn());
  CHECK(Named(m.graph, "out").type == "Mul");
  CHECK(Named(m.graph, "tanh").type == "Tanh");
}

namespace {

// m = mean(x), d = x - m, v = mean(d^2), y = d / sqrt(v + eps) [* gamma] [+ beta].
int32_t LayerNormChain(Builder &b, int32_t x, bool square_by_mul, bool affine, const std::vector<float> &gamma,
                       const std::vector<float> &beta) {
  const std::map<std::string, ir::AttrValue> last = {{"axes", Ints({-1})}};
  const int32_t m = b.Op("mean", "ReduceMean", {x}, last);
  const int32_t d = b.Op("sub", "Sub", {x, m});
  const int32_t sq = square_by_mul ? b.Op("sq", "Mul", {d, d}) : b.Op("sq", "Pow", {d, Scalar(b, "c_two", 2.0f)});
  const int32_t v = b.Op("var", "ReduceMean", {sq}, last);
  const int32_t s = b.Op("sqrt", "Sqrt", {b.Op("add_eps", "Add", {v, Scalar(b, "c_eps", 1e-5f)})});
  const int32_t n = b.Op("div", "Div", {d, s});
  if (!affine) return n;
  const int32_t g = b.Op("mul", "Mul", {n, b.Const("gamma", {16}, gamma)});
  return b.Op("add", "Add", {b.Const("beta", {16}, beta), g});
}

}  // namespace

TEST_CASE("a decomposed layer normalisation becomes one LayerNormalization node", "[compiler][passes]") {
  const std::vector<float> xv = Spread(96, -2.0f, 2.0f), gamma = Spread(16, 0.5f, 1.5f), beta = Spread(16, -0.25f, 0.25f);
  const std::vector<HostTensor> in = {Host({2, 3, 16}, xv)};
  for (int variant = 0; variant < 3; ++variant) {
    const bool by_mul = variant == 1, affine = variant != 2;
    INFO("square by Mul " << by_mul << ", gamma and beta " << affine);
    Builder b;
    const int32_t x = b.Data("x", {2, 3, 16});
    const int32_t y = LayerNormChain(b, x, by_mul, affine, gamma, beta);
    b.Output({y});
    const std::string root = b.g.nodes[size_t(y)].name;
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    const ir::Node &ln = Named(fused.graph, root);
    CHECK(ln.type == "LayerNormalization");
    CHECK(FusedList(ln).size() == (affine ? 9u : 7u));
    CHECK(std::fabs(ln.attrs.at("epsilon").f - 1e-5f) == 0.0f);
    for (const om::Model *m : {&fused, &plain}) {
      const std::vector<float> got = Values(RunModel(*m, in)[0]);
      REQUIRE(got.size() == xv.size());
      for (size_t r = 0; r < 6; ++r) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < 16; ++i) mean += xv[r * 16 + i] / 16.0;
        for (size_t i = 0; i < 16; ++i) var += (xv[r * 16 + i] - mean) * (xv[r * 16 + i] - mean) / 16.0;
        const double sd = std::sqrt(var + 1e-5);
        REQUIRE(sd >= 0.5);
        for (size_t i = 0; i < 16; ++i) {
          const double g = affine ? gamma[i] : 1.0, bt = affine ? beta[i] : 0.0;
          const double want = (xv[r * 16 + i] - mean) / sd * g + bt;
          const double mag = (std::fabs(xv[r * 16 + i]) + std::fabs(mean)) / sd * std::fabs(g) + std::fabs(bt);
          INFO("row " << r << " element " << i << ": " << got[r * 16 + i] << " vs " << want);
          CHECK(std::fabs(double(got[r * 16 + i]) - want) <= 32 * kU * mag);
        }
      }
    }
  }
  // The mean over another axis is another function: left as it is.
  Builder b;
  const int32_t x = b.Data("x", {2, 3, 16});
  const int32_t m = b.Op("mean", "ReduceMean", {x}, {{"axes", Ints({1})}});
  const int32_t d = b.Op("sub", "Sub", {x, m});
  const int32_t v = b.Op("var", "ReduceMean", {b.Op("sq", "Pow", {d, Scalar(b, "c_two", 2.0f)})}, {{"axes", Ints({-1})}});
  b.Output({b.Op("div", "Div", {d, b.Op("sqrt", "Sqrt", {b.Op("add_eps", "Add", {v, Scalar(b, "c_eps", 1e-5f)})})})});
  CHECK(Named(Compile(b.g, AllOn()).graph, "div").type == "Div");
}
