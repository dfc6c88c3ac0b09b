// StridedPointwiseConvPass (atc/compiler/src/passes/strided_pointwise_conv.cc): a 1x1 Conv with
// strides above 1 and no padding becomes a 1x1-window MaxPool with those strides feeding the Conv
// with strides 1.
//   x[1, 32, 9, 11] [-> p (1x1, 32 ch)] -> a (1x1, strides 2, 48 ch, bias) -> Relu -> out 0 [1, 48, 5, 6]
//                   -> b (1x1, strides [3, 2], 16 ch)        -> out 1 [1, 16, 3, 6]
//                   -> c (1x1, strides 2, pads 1, 16 ch)     -> out 2 [1, 16, 6, 7] (not rewritten)
// Integer data: every sum is exact in float32, so the check is equality with a reference
// computed here, with the pass on and off. A NaN in x reaches exactly the outputs that read it.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <utility>

#include "openatc/rt/runtime.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

constexpr int64_t kC = 32, kH = 9, kW = 11;

struct Pointwise {
  int64_t m, sh, sw, pad;
  std::vector<float> w, b;
};

// Pattern's values mapped onto the integers -2..2.
std::vector<float> Small(size_t n, uint32_t seed) {
  std::vector<float> v = Pattern(n, seed);
  for (auto &x : v) x = std::floor((x + 1.0f) * 2.5f) - 2.0f;
  return v;
}

// y[m, i, j] = b[m] + sum_c w[m, c] * x[c, i * sh - pad, j * sw - pad] (0 outside x).
std::vector<double> Ref(const Pointwise &p, const std::vector<float> &x, int64_t oh, int64_t ow, bool relu) {
  std::vector<double> y(size_t(p.m * oh * ow));
  for (int64_t m = 0; m < p.m; ++m)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t r = i * p.sh - p.pad, s = j * p.sw - p.pad;
        double acc = p.b.empty() ? 0.0 : p.b[size_t(m)];
        if (r >= 0 && r < kH && s >= 0 && s < kW)
          for (int64_t c = 0; c < kC; ++c) acc += double(p.w[size_t(m * kC + c)]) * x[size_t((c * kH + r) * kW + s)];
        y[size_t((m * oh + i) * ow + j)] = relu ? std::max(acc, 0.0) : acc;
      }
  return y;
}

int32_t AddConv(Builder &b, const std::string &name, const Pointwise &p, int32_t x) {
  std::vector<int32_t> in = {x, b.Const(name + "_W", {p.m, kC, 1, 1}, p.w)};
  if (!p.b.empty()) in.push_back(b.Const(name + "_B", {p.m}, p.b));
  return b.Op(name, "Conv", in,
              {{"strides", Ints({p.sh, p.sw})}, {"pads", Ints({p.pad, p.pad, p.pad, p.pad})}, {"kernel_shape", Ints({1, 1})}});
}

size_t Mismatches(const std::vector<float> &y, const std::vector<double> &want) {
  REQUIRE(y.size() == want.size());
  size_t wrong = 0;
  for (size_t i = 0; i < y.size(); ++i) wrong += double(y[i]) != want[i];
  return wrong;
}

}  // namespace

TEST_CASE("a strided 1x1 Conv without padding reads a 1x1-window MaxPool with its strides", "[compiler][passes]") {
  // Without `pre` the strided Convs read the graph input (the MaxPools run in the plain layout);
  // with it they read a 1x1 Conv's output (chain layout, ops/common/chain_pool.h).
  const bool pre = GENERATE(false, true);
  INFO((pre ? "after a Conv (chain layout)" : "on the graph input (plain layout)"));
  const Pointwise p{kC, 1, 1, 0, Small(kC * kC, 9), Small(kC, 8)}, a{48, 2, 2, 0, Small(48 * kC, 11), Small(48, 12)},
                  bb{16, 3, 2, 0, Small(16 * kC, 13), {}}, c{16, 2, 2, 1, Small(16 * kC, 14), {}};
  Builder g;
  const int32_t xi = g.Data("x", {1, kC, kH, kW});
  const int32_t h = pre ? AddConv(g, "p", p, xi) : xi;
  g.Output({g.Op("r", "Relu", {AddConv(g, "a", a, h)}), AddConv(g, "b", bb, h), AddConv(g, "c", c, h)});
  const om::Model on = Compile(g.g), off = Compile(g.g, TempFile("strided_pw_off.json", "StridedPointwiseConvPass:off\n"));

  // a carries r as its post-op, under r's name (ConvActivationFusionPass).
  for (const auto &[conv, strides] : {std::pair<std::string, std::vector<int64_t>>{"r", {2, 2}}, {"b", {3, 2}}}) {
    const ir::Node &pool = Named(on.graph, conv + "/subsample");
    CHECK(pool.type == "MaxPool");
    CHECK(pool.attrs.at("kernel_shape").list_i == std::vector<int64_t>{1, 1});
    CHECK(pool.attrs.at("strides").list_i == strides);
    auto chain = pool.attrs.find("openatc_chain_layout");
    CHECK((chain != pool.attrs.end() && chain->second.i == 1) == pre);
    CHECK(Named(on.graph, conv).attrs.at("strides").list_i == std::vector<int64_t>{1, 1});
    CHECK(off.graph.FindNode(conv + "/subsample") < 0);
  }
  CHECK(on.graph.FindNode("c/subsample") < 0);  // padded: left as it is
  CHECK(Named(on.graph, "c").attrs.at("strides").list_i == std::vector<int64_t>{2, 2});

  std::vector<float> xv = Small(size_t(kC * kH * kW), 10);
  auto reference = [&](const Pointwise &q, int64_t oh, int64_t ow, bool relu) {
    if (!pre) return Ref(q, xv, oh, ow, relu);
    const std::vector<double> hd = Ref(p, xv, kH, kW, false);  // small integers: exact in float
    return Ref(q, std::vector<float>(hd.begin(), hd.end()), oh, ow, relu);
  };
  const std::vector<double> want_a = reference(a, 5, 6, true), want_b = reference(bb, 3, 6, false),
                            want_c = reference(c, 6, 7, false);
  for (const om::Model *m : {&on, &off})
    for (int threads : {1, 2}) {
      INFO((m == &on ? "pass on, " : "pass off, ") << threads << " thread(s)");
      rt::SetThreadCount(threads);
      const std::vector<HostTensor> y = RunModel(*m, {Host({1, kC, kH, kW}, xv)});
      REQUIRE(y.size() == 3u);
      CHECK(y[0].shape == std::vector<int64_t>{1, 48, 5, 6});
      CHECK(y[1].shape == std::vector<int64_t>{1, 16, 3, 6});
      CHECK(Mismatches(Values(y[0]), want_a) == 0);
      CHECK(Mismatches(Values(y[1]), want_b) == 0);
      CHECK(Mismatches(Values(y[2]), want_c) == 0);
    }
  rt::SetThreadCount(0);

  // A NaN at x[0, 5, 3, 4] (row 3 = 1 * 3, column 4 = 2 * 2) reaches b's output pixel (1, 2) in
  // every channel (NaN * 0 is NaN; through p, every channel of h there); the pixels that skip it
  // stay exact. The subsampling copies the NaN in either layout (oneDNN's max pooling would make
  // it -FLT_MAX).
  xv[size_t((5 * kH + 3) * kW + 4)] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> yb = Values(RunModel(on, {Host({1, kC, kH, kW}, xv)}).at(1));
  size_t nan_ok = 0, other_ok = 0;
  for (int64_t m = 0; m < 16; ++m)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 6; ++j) {
        const size_t k = size_t((m * 3 + i) * 6 + j);
        if (i == 1 && j == 2)
          nan_ok += std::isnan(yb[k]);
        else
          other_ok += double(yb[k]) == want_b[k];
      }
  CHECK(nan_ok == 16u);
  CHECK(other_ok == size_t(16 * 3 * 6 - 16));
}

TEST_CASE("a strided 1x1 Conv kept in float32 under force_fp16 reads its input unrounded", "[compiler][passes]") {
  // The subsampling MaxPool is an exact copy, which the precision modes leave alone; only the
  // unkept Conv c rounds.
  const Pointwise bb{16, 3, 2, 0, Small(16 * kC, 13), {}}, c{16, 2, 2, 0, Small(16 * kC, 14), {}};
  Builder g;
  const int32_t x = g.Data("x", {1, kC, kH, kW});
  g.Output({AddConv(g, "b", bb, x), AddConv(g, "c", c, x)});
  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.model_path = "<pass test>";
  opts.ge_options = {{"ge.exec.precision_mode", "force_fp16"}, {"keep_dtype", TempFile("strided_pw_keep.cfg", "b\n")}};
  const om::Model m = compiler::CompileGraph(g.g, opts, BuiltinOpp());
  REQUIRE(m.graph.FindNode("b/subsample") >= 0);
  REQUIRE(m.graph.FindNode("c/subsample") >= 0);
  // 1 + k * 2^-13: float16 keeps 10 fraction bits, so rounding would show.
  std::vector<float> xv(size_t(kC * kH * kW));
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = 1.0f + float(i % 64) / 8192.0f;
  const std::vector<HostTensor> y = RunModel(m, {Host({1, kC, kH, kW}, xv)});
  CHECK(Mismatches(Values(y[0]), Ref(bb, xv, 3, 6, false)) == 0);
  CHECK(Mismatches(Values(y[1]), Ref(c, xv, 5, 6, false)) > 0);  // the reduced Conv does round
}
