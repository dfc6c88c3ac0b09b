// oneDNN-backed built-in ops (Conv, ConvTranspose, MatMul, Gemm, MaxPool, AveragePool,
// GlobalAveragePool, GlobalMaxPool, BatchNormalization) through the one-op harness: hand-computed
// values, a naive second implementation (direct loops below) on random inputs, and error paths
// with their messages (captured from stderr, where ops report them).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto &x : v) x = d(g);
  return v;
}

int64_t Count(const Dims &d) {
  int64_t n = 1;
  for (auto v : d) n *= v;
  return n;
}

void CheckClose(const std::vector<float> &got, const std::vector<float> &want, float atol = 1e-5f, float rtol = 1e-4f) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]));
  }
}

// Runs `c`, expecting failure; returns what the op printed on stderr plus the error text.
std::string FailureText(const OpCase &c) { return RunOpExpectingFailure(c); }

// Direct N-d convolution (spatial rank 1..3 padded to 3), ONNX Conv semantics.
std::vector<float> RefConv(const std::vector<float> &x, const Dims &xd, const std::vector<float> &w, const Dims &wd,
                           const std::vector<float> *b, int64_t group, Dims s, Dims dil, Dims pb, Dims out) {
  const size_t n = xd.size() - 2;
  auto pad3 = [n](Dims v, int64_t f) {
    v.insert(v.begin(), 3 - n, f);
    return v;
  };
  const Dims in = pad3(Dims(xd.begin() + 2, xd.end()), 1), k = pad3(Dims(wd.begin() + 2, wd.end()), 1);
  s = pad3(s, 1);
  dil = pad3(dil, 1);
  pb = pad3(pb, 0);
  out = pad3(out, 1);
  const int64_t N = xd[0], C = xd[1], M = wd[0], cg = C / group, mg = M / group;
  std::vector<float> y(static_cast<size_t>(N * M * Count(out)));
  for (int64_t nn = 0; nn < N; ++nn)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t od = 0; od < out[0]; ++od)
        for (int64_t oh = 0; oh < out[1]; ++oh)
          for (int64_t ow = 0; ow < out[2]; ++ow) {
            double acc = b ? (*b)[m] : 0.0;
            const int64_t g = m / mg;
            for (int64_t c = 0; c < cg; ++c)
              for (int64_t kd = 0; kd < k[0]; ++kd)
                for (int64_t kh = 0; kh < k[1]; ++kh)
                  for (int64_t kw = 0; kw < k[2]; ++kw) {
                    const int64_t d = od * s[0] - pb[0] + kd * dil[0], h = oh * s[1] - pb[1] + kh * dil[1],
                                  ww = ow * s[2] - pb[2] + kw * dil[2];
                    if (d < 0 || d >= in[0] || h < 0 || h >= in[1] || ww < 0 || ww >= in[2]) continue;
                    const int64_t xi = (((nn * C + g * cg + c) * in[0] + d) * in[1] + h) * in[2] + ww;
                    const int64_t wi = (((m * cg + c) * k[0] + kd) * k[1] + kh) * k[2] + kw;
                    acc += static_cast<double>(x[xi]) * w[wi];
                  }
            y[(((nn * M + m) * out[0] + od) * out[1] + oh) * out[2] + ow] = static_cast<float>(acc);
          }
  return y;
}

// Scatter form of ConvTranspose for spatial rank 1..2 (padded to 2): each input element adds
// x * w into the output at o = i * s + k * d - pad_begin.
std::vector<float> RefConvTranspose(const std::vector<float> &x, const Dims &xd, const std::vector<float> &w,
                                    const Dims &wd, const std::vector<float> *b, int64_t group, Dims s, Dims dil,
                                    Dims pb, Dims out) {
  const size_t n = xd.size() - 2;
  auto pad2 = [n](Dims v, int64_t f) {
    v.insert(v.begin(), 2 - n, f);
    return v;
  };
  const Dims in = pad2(Dims(xd.begin() + 2, xd.end()), 1), k = pad2(Dims(wd.begin() + 2, wd.end()), 1);
  s = pad2(s, 1);
  dil = pad2(dil, 1);
  pb = pad2(pb, 0);
  out = pad2(out, 1);
  const int64_t N = xd[0], C = xd[1], mg = wd[1], M = mg * group, cg = C / group;
  std::vector<double> y(static_cast<size_t>(N * M * out[0] * out[1]), 0.0);
  for (int64_t nn = 0; nn < N; ++nn)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t ih = 0; ih < in[0]; ++ih)
        for (int64_t iw = 0; iw < in[1]; ++iw)
          for (int64_t mm = 0; mm < mg; ++mm)
            for (int64_t kh = 0; kh < k[0]; ++kh)
              for (int64_t kw = 0; kw < k[1]; ++kw) {
                const int64_t oh = ih * s[0] + kh * dil[0] - pb[0], ow = iw * s[1] + kw * dil[1] - pb[1];
                if (oh < 0 || oh >= out[0] || ow < 0 || ow >= out[1]) continue;
                const int64_t m = (c / cg) * mg + mm;
                y[((nn * M + m) * out[0] + oh) * out[1] + ow] +=
                    static_cast<double>(x[((nn * C + c) * in[0] + ih) * in[1] + iw]) *
                    w[((c * mg + mm) * k[0] + kh) * k[1] + kw];
              }
  std::vector<float> r(y.size());
  const int64_t plane = out[0] * out[1];
  for (size_t i = 0; i < y.size(); ++i) r[i] = static_cast<float>(y[i] + (b ? (*b)[(i / plane) % M] : 0.0));
  return r;
}
}  // namespace

TEST_CASE("Conv 3x3 on a 4x4 input, by hand (ONNX Conv-11)", "[ops][heavy]") {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  const std::vector<float> w(9, 1.0f);
  // No padding: sums of the four 3x3 windows of 0..15.
  auto y = RunOp({"Conv", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}, {Tensor(ge::DT_FLOAT, {1, 1, 3, 3}, w)}}});
  CHECK(y[0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(y[0]) == std::vector<float>{45, 54, 81, 90});
  // pads 1 and bias 0.5: the corner sees 0+1+4+5 = 10.
  auto yp = RunOp({"Conv",
                   {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}, {Tensor(ge::DT_FLOAT, {1, 1, 3, 3}, w), true},
                    {Tensor(ge::DT_FLOAT, {1}, std::vector<float>{0.5f}), true}},
                   {{"pads", IntsAttr({1, 1, 1, 1})}, {"strides", IntsAttr({2, 2})}}});
  CHECK(yp[0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(yp[0]) == std::vector<float>{10.5f, 24.5f, 51.5f, 90.5f});
}

TEST_CASE("Conv refuses post-ops that name an eltwise algorithm twice", "[ops][heavy]") {
  // oneDNN 2.6's jit convolutions give the second eltwise_linear the first one's alpha and beta
  // (ops/common/dnnl_post_ops.h): such an OM is an error, never a wrong result.
  ir::AttrValue algs;
  algs.kind = ir::AttrKind::kListString;
  algs.list_s = {"eltwise_linear", "eltwise_clip", "eltwise_linear"};
  CHECK_THAT(RunOpExpectingFailure({"Conv",
                                    {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, std::vector<float>(16, 1.0f))},
                                     {Tensor(ge::DT_FLOAT, {1, 1, 3, 3}, std::vector<float>(9, 1.0f)), true}},
                                    {{"openatc_post_ops", algs},
                                     {"openatc_post_alpha", FloatsAttr({0.5f, 0.0f, 2.0f})},
                                     {"openatc_post_beta", FloatsAttr({0.5f, 1.0f, 0.0f})}}}),
             Catch::Contains("openatc_post_ops names eltwise_linear twice"));
}

TEST_CASE("Conv matches a direct loop: groups, depthwise, dilations, 1-D, 3-D, auto_pad", "[ops][heavy]") {
  struct Case {
    Dims xd, wd;
    int64_t group;
    Dims s, d, pads;
    std::string auto_pad;
    bool bias;
  };
  const std::vector<Case> cases = {
      {{2, 4, 7, 6}, {6, 2, 3, 2}, 2, {2, 1}, {1, 2}, {1, 0, 2, 1}, "NOTSET", true},
      {{1, 3, 5, 5}, {3, 1, 3, 3}, 3, {1, 1}, {1, 1}, {}, "SAME_UPPER", true},       // depthwise
      {{1, 3, 6, 5}, {6, 3, 2, 2}, 1, {2, 2}, {1, 1}, {}, "SAME_LOWER", false},
      {{1, 2, 9}, {4, 2, 3}, 1, {2}, {2}, {1, 2}, "NOTSET", true},                   // 1-D
      {{1, 2, 4, 5, 3}, {2, 1, 2, 3, 2}, 2, {1, 2, 1}, {1, 1, 1}, {0, 1, 1, 1, 0, 0}, "NOTSET", true},  // 3-D
      {{1, 2, 5, 5}, {2, 2, 2, 2}, 1, {2, 2}, {1, 1}, {}, "VALID", false},
  };
  uint32_t seed = 1;
  for (const Case &c : cases) {
    const size_t n = c.xd.size() - 2;
    auto x = Random(Count(c.xd), seed++), w = Random(Count(c.wd), seed++), b = Random(c.wd[0], seed++);
    // Expected output geometry, computed here from ONNX's formulas.
    Dims pb(n, 0), out(n);
    for (size_t i = 0; i < n; ++i) {
      const int64_t ext = (c.wd[i + 2] - 1) * c.d[i] + 1, in = c.xd[i + 2];
      if (c.auto_pad == "SAME_UPPER" || c.auto_pad == "SAME_LOWER") {
        out[i] = (in + c.s[i] - 1) / c.s[i];
        const int64_t total = std::max<int64_t>(0, (out[i] - 1) * c.s[i] + ext - in);
        pb[i] = c.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      } else {
        const int64_t p = c.pads.empty() || c.auto_pad == "VALID" ? 0 : c.pads[i] + c.pads[i + n];
        if (!c.pads.empty() && c.auto_pad != "VALID") pb[i] = c.pads[i];
        out[i] = (in + p - ext) / c.s[i] + 1;
      }
    }
    std::map<std::string, ir::AttrValue> attrs = {{"group", IntAttr(c.group)}, {"strides", IntsAttr(c.s)},
                                                  {"dilations", IntsAttr(c.d)}, {"auto_pad", StringAttr(c.auto_pad)}};
    if (!c.pads.empty()) attrs["pads"] = IntsAttr(c.pads);
    std::vector<OpInput> in = {{Tensor(ge::DT_FLOAT, c.xd, x)}, {Tensor(ge::DT_FLOAT, c.wd, w)}};
    if (c.bias) in.emplace_back(Tensor(ge::DT_FLOAT, {c.wd[0]}, b));
    auto y = RunOp({"Conv", in, attrs});
    Dims yd = {c.xd[0], c.wd[0]};
    yd.insert(yd.end(), out.begin(), out.end());
    INFO("X " << c.xd.size() << "-D, group " << c.group << ", auto_pad " << c.auto_pad);
    CHECK(y[0].shape == yd);
    CheckClose(Values<float>(y[0]), RefConv(x, c.xd, w, c.wd, c.bias ? &b : nullptr, c.group, c.s, c.d, pb, out));
  }
}

TEST_CASE("Conv on float16 and double computes through f32", "[ops][heavy]") {
  const Dims xd = {1, 2, 5, 5}, wd = {3, 2, 3, 3};
  auto x = Random(Count(xd), 7), w = Random(Count(wd), 8);
  std::vector<_Float16> xh(x.begin(), x.end()), wh(w.begin(), w.end());
  std::vector<float> xr(xh.begin(), xh.end()), wr(wh.begin(), wh.end());  // the rounded inputs
  auto y = RunOp({"Conv", {{Tensor(ge::DT_FLOAT16, xd, xh)}, {Tensor(ge::DT_FLOAT16, wd, wh)}}});
  REQUIRE(y[0].dtype == ge::DT_FLOAT16);
  auto yh = Values<_Float16>(y[0]);
  CheckClose(std::vector<float>(yh.begin(), yh.end()), RefConv(xr, xd, wr, wd, nullptr, 1, {1, 1}, {1, 1}, {0, 0}, {3, 3}),
             2e-3f, 2e-3f);
  std::vector<double> xdbl(x.begin(), x.end()), wdbl(w.begin(), w.end());
  auto yd = RunOp({"Conv", {{Tensor(ge::DT_DOUBLE, xd, xdbl)}, {Tensor(ge::DT_DOUBLE, wd, wdbl)}}});
  REQUIRE(yd[0].dtype == ge::DT_DOUBLE);
  auto v = Values<double>(yd[0]);
  CheckClose(std::vector<float>(v.begin(), v.end()), RefConv(x, xd, w, wd, nullptr, 1, {1, 1}, {1, 1}, {0, 0}, {3, 3}));
}

TEST_CASE("Conv errors name the problem", "[ops][heavy]") {
  auto x = Tensor(ge::DT_FLOAT, {1, 3, 4, 4}, std::vector<float>(48, 1.0f));
  auto t = FailureText({"Conv", {{x}, {Tensor(ge::DT_FLOAT, {2, 2, 3, 3}, std::vector<float>(36, 1.0f))}}});
  CHECK_THAT(t, Catch::Contains("X has 3 channels but W [2, 2, 3, 3] with group 1 expects 2"));
  CHECK_THAT(t, Catch::Contains("node 'op' (Conv): InferShape returned GRAPH_FAILED"));
  t = FailureText({"Conv", {{x}, {Tensor(ge::DT_FLOAT, {1, 3, 5, 5}, std::vector<float>(75, 1.0f))}}});
  CHECK_THAT(t, Catch::Contains("is larger than spatial axis 0 of the padded input (4)"));
  t = FailureText({"Conv",
                   {{x}, {Tensor(ge::DT_FLOAT, {1, 3, 1, 1}, std::vector<float>(3, 1.0f))}},
                   {{"auto_pad", StringAttr("SAME")}}});
  CHECK_THAT(t, Catch::Contains("auto_pad 'SAME' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID"));
  t = FailureText({"Conv",
                   {{x}, {Tensor(ge::DT_FLOAT, {1, 3, 1, 1}, std::vector<float>(3, 1.0f))}},
                   {{"strides", IntsAttr({1, 0})}}});
  CHECK_THAT(t, Catch::Contains("strides [1, 0] must be >= 1"));
  t = FailureText({"Conv",
                   {{x}, {Tensor(ge::DT_FLOAT, {2, 3, 1, 1}, std::vector<float>(6, 1.0f))},
                    {Tensor(ge::DT_FLOAT, {3}, std::vector<float>(3, 1.0f))}}});
  CHECK_THAT(t, Catch::Contains("B [3] must have shape [2]"));
  t = FailureText({"Conv", {{Tensor(ge::DT_INT32, {1, 1, 2, 2}, std::vector<int32_t>(4, 1))},
                            {Tensor(ge::DT_INT32, {1, 1, 1, 1}, std::vector<int32_t>(1, 1))}}});
  CHECK_THAT(t, Catch::Contains("X must be float32, float16 or double"));
}

TEST_CASE("ConvTranspose matches the scatter definition", "[ops][heavy]") {
  // Input 1x1x2x2, 2x2 ones kernel, stride 1: each output sums the inputs overlapping it.
  auto y = RunOp({"ConvTranspose",
                  {{Tensor(ge::DT_FLOAT, {1, 1, 2, 2}, std::vector<float>{1, 2, 3, 4})},
                   {Tensor(ge::DT_FLOAT, {1, 1, 2, 2}, std::vector<float>{1, 1, 1, 1})}}});
  CHECK(y[0].shape == Dims{1, 1, 3, 3});
  CHECK(Values<float>(y[0]) == std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4});

  struct Case {
    Dims xd, wd;
    int64_t group;
    Dims s, d, pads, opad;
  };
  const std::vector<Case> cases = {
      {{1, 2, 3, 4}, {2, 3, 3, 2}, 1, {2, 1}, {1, 1}, {1, 0, 0, 1}, {1, 0}},
      {{2, 4, 3, 3}, {4, 1, 2, 2}, 2, {2, 2}, {2, 1}, {0, 0, 0, 0}, {0, 1}},
      {{1, 3, 5}, {3, 2, 4}, 1, {3}, {1}, {2, 1}, {2}},
  };
  uint32_t seed = 100;
  for (const Case &c : cases) {
    const size_t n = c.xd.size() - 2;
    auto x = Random(Count(c.xd), seed++), w = Random(Count(c.wd), seed++), b = Random(c.wd[1] * c.group, seed++);
    Dims out(n), pb(n);
    for (size_t i = 0; i < n; ++i) {
      pb[i] = c.pads[i];
      out[i] = c.s[i] * (c.xd[i + 2] - 1) + c.opad[i] + (c.wd[i + 2] - 1) * c.d[i] + 1 - c.pads[i] - c.pads[i + n];
    }
    auto y2 = RunOp({"ConvTranspose",
                     {{Tensor(ge::DT_FLOAT, c.xd, x)}, {Tensor(ge::DT_FLOAT, c.wd, w)}, {Tensor(ge::DT_FLOAT, {c.wd[1] * c.group}, b)}},
                     {{"group", IntAttr(c.group)}, {"strides", IntsAttr(c.s)}, {"dilations", IntsAttr(c.d)},
                      {"pads", IntsAttr(c.pads)}, {"output_padding", IntsAttr(c.opad)}}});
    Dims yd = {c.xd[0], c.wd[1] * c.group};
    yd.insert(yd.end(), out.begin(), out.end());
    CHECK(y2[0].shape == yd);
    CheckClose(Values<float>(y2[0]), RefConvTranspose(x, c.xd, w, c.wd, &b, c.group, c.s, c.d, pb, out));
  }
}

TEST_CASE("ConvTranspose output_shape and errors", "[ops][heavy]") {
  const Dims xd = {1, 1, 3, 3}, wd = {1, 2, 3, 3};
  auto x = Random(9, 5), w = Random(18, 6);
  // output_shape 10x8 with stride 3x2: total padding = 3*2+3-10 = -1 and 2*2+3-8 = -1 (pads -1/0,
  // i.e. an extra zero row/column at the end).
  auto y = RunOp({"ConvTranspose", {{Tensor(ge::DT_FLOAT, xd, x)}, {Tensor(ge::DT_FLOAT, wd, w)}},
                  {{"strides", IntsAttr({3, 2})}, {"output_shape", IntsAttr({10, 8})}}});
  CHECK(y[0].shape == Dims{1, 2, 10, 8});
  CheckClose(Values<float>(y[0]), RefConvTranspose(x, xd, w, wd, nullptr, 1, {3, 2}, {1, 1}, {0, 0}, {10, 8}));
  auto t = FailureText({"ConvTranspose", {{Tensor(ge::DT_FLOAT, xd, x)}, {Tensor(ge::DT_FLOAT, {2, 2, 3, 3}, Random(36, 1))}}});
  CHECK_THAT(t, Catch::Contains("X has 1 channels but W [2, 2, 3, 3] has 2"));
  t = FailureText({"ConvTranspose", {{Tensor(ge::DT_FLOAT, xd, x)}, {Tensor(ge::DT_FLOAT, wd, w)}},
                   {{"pads", IntsAttr({3, 3, 3, 3})}}});
  CHECK_THAT(t, Catch::Contains("output spatial axis 0 would have size -1"));
  t = FailureText({"ConvTranspose", {{Tensor(ge::DT_FLOAT, xd, x)}, {Tensor(ge::DT_FLOAT, wd, w)}},
                   {{"output_padding", IntsAttr({1})}}});
  CHECK_THAT(t, Catch::Contains("output_padding [1] must have 2 values"));
}

TEST_CASE("MatMul: 2-D by hand, 1-D promotion, batch broadcasting, integers", "[ops][heavy]") {
  auto y = RunOp({"MatMul", {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6})},
                             {Tensor(ge::DT_FLOAT, {3, 2}, std::vector<float>{7, 8, 9, 10, 11, 12})}}});
  CHECK(y[0].shape == Dims{2, 2});
  CHECK(Values<float>(y[0]) == std::vector<float>{58, 64, 139, 154});
  auto v = RunOp({"MatMul", {{Tensor(ge::DT_FLOAT, {3}, std::vector<float>{1, 2, 3})},
                             {Tensor(ge::DT_FLOAT, {3}, std::vector<float>{4, 5, 6})}}});
  CHECK(v[0].shape.empty());
  CHECK(Values<float>(v[0]) == std::vector<float>{32});
  auto mv = RunOp({"MatMul", {{Tensor(ge::DT_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6})},
                              {Tensor(ge::DT_FLOAT, {3}, std::vector<float>{1, 0, -1})}}});
  CHECK(mv[0].shape == Dims{2});
  CHECK(Values<float>(mv[0]) == std::vector<float>{-2, -2});
  // [2, 1, 2, 3] x [3, 3, 2] -> [2, 3, 2, 2]: A's batch row is reused for each of B's three.
  auto a = Random(12, 11), b = Random(18, 12);
  auto bb = RunOp({"MatMul", {{Tensor(ge::DT_FLOAT, {2, 1, 2, 3}, a)}, {Tensor(ge::DT_FLOAT, {3, 3, 2}, b)}}});
  REQUIRE(bb[0].shape == Dims{2, 3, 2, 2});
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
          float acc = 0;
          for (int q = 0; q < 3; ++q) acc += a[i * 6 + r * 3 + q] * b[j * 6 + q * 2 + c];
          want.push_back(acc);
        }
  CheckClose(Values<float>(bb[0]), want);
  auto i32 = RunOp({"MatMul", {{Tensor(ge::DT_INT32, {1, 2, 2}, std::vector<int32_t>{1, 2, 3, 4})},
                               {Tensor(ge::DT_INT32, {2, 2}, std::vector<int32_t>{5, 6, 7, 8})}}});
  CHECK(i32[0].shape == Dims{1, 2, 2});
  CHECK(Values<int32_t>(i32[0]) == std::vector<int32_t>{19, 22, 43, 50});
  auto i64 = RunOp({"MatMul", {{Tensor(ge::DT_INT64, {1, 2}, std::vector<int64_t>{int64_t(1) << 40, -3})},
                               {Tensor(ge::DT_INT64, {2, 1}, std::vector<int64_t>{2, 5})}}});
  CHECK(Values<int64_t>(i64[0]) == std::vector<int64_t>{(int64_t(1) << 41) - 15});
  auto t = FailureText({"MatMul", {{Tensor(ge::DT_FLOAT, {2, 3}, Random(6, 1))}, {Tensor(ge::DT_FLOAT, {2, 2}, Random(4, 2))}}});
  CHECK_THAT(t, Catch::Contains("inner dimensions differ: A [2, 3] has K = 3, B [2, 2] has K = 2"));
  t = FailureText({"MatMul", {{Tensor(ge::DT_FLOAT, {2, 1, 2}, Random(4, 1))}, {Tensor(ge::DT_FLOAT, {3, 2, 2}, Random(12, 2))}}});
  CHECK_THAT(t, Catch::Contains("batch dimensions of A [2, 1, 2] and B [3, 2, 2] do not broadcast"));
}

TEST_CASE("Gemm: transposes, alpha, beta, C broadcasting, integers", "[ops][heavy]") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};  // A^T stored as 3x2 when transA
  const std::vector<float> b = {1, 0, 2, 1, 0, 3};  // B^T stored as 2x3 when transB
  // A' = [[1,3,5],[2,4,6]] (from 3x2 transposed), B' = [[1,1],[0,0],[2,3]] (2x3 transposed).
  auto y = RunOp({"Gemm",
                  {{Tensor(ge::DT_FLOAT, {3, 2}, a)}, {Tensor(ge::DT_FLOAT, {2, 3}, b)},
                   {Tensor(ge::DT_FLOAT, {2, 1}, std::vector<float>{10, 20})}},
                  {{"transA", IntAttr(1)}, {"transB", IntAttr(1)}, {"alpha", FloatAttr(2.0f)}, {"beta", FloatAttr(0.5f)}}});
  CHECK(y[0].shape == Dims{2, 2});
  // A'B' = [[11, 16], [14, 20]]; 2x + 0.5*C(col) = [[27, 37], [38, 50]].
  CHECK(Values<float>(y[0]) == std::vector<float>{27, 37, 38, 50});
  auto noc = RunOp({"Gemm", {{Tensor(ge::DT_FLOAT, {2, 3}, a)}, {Tensor(ge::DT_FLOAT, {3, 2}, b)}, {}}});
  CHECK(Values<float>(noc[0]) == std::vector<float>{5, 11, 14, 23});
  auto scalar = RunOp({"Gemm", {{Tensor(ge::DT_FLOAT, {2, 3}, a)}, {Tensor(ge::DT_FLOAT, {3, 2}, b)},
                                {Tensor(ge::DT_FLOAT, {}, std::vector<float>{-1})}}});
  CHECK(Values<float>(scalar[0]) == std::vector<float>{4, 10, 13, 22});
  auto row = RunOp({"Gemm", {{Tensor(ge::DT_INT32, {2, 3}, std::vector<int32_t>{1, 2, 3, 4, 5, 6})},
                             {Tensor(ge::DT_INT32, {3, 2}, std::vector<int32_t>{1, 0, 2, 1, 0, 3})},
                             {Tensor(ge::DT_INT32, {2}, std::vector<int32_t>{100, 200})}},
                    {{"alpha", FloatAttr(3.0f)}}});
  CHECK(Values<int32_t>(row[0]) == std::vector<int32_t>{115, 233, 142, 269});
  auto t = FailureText({"Gemm", {{Tensor(ge::DT_FLOAT, {2, 3}, a)}, {Tensor(ge::DT_FLOAT, {3, 2}, b)},
                                 {Tensor(ge::DT_FLOAT, {3}, std::vector<float>{1, 2, 3})}}});
  CHECK_THAT(t, Catch::Contains("C [3] does not broadcast to (M, N) = (2, 2)"));
  t = FailureText({"Gemm", {{Tensor(ge::DT_FLOAT, {2, 3}, a)}, {Tensor(ge::DT_FLOAT, {2, 3}, b)}}});
  CHECK_THAT(t, Catch::Contains("inner dimensions differ"));
}

TEST_CASE("MaxPool with Indices, storage_order, dilations, int8", "[ops][heavy]") {
  const std::vector<float> x = {1, 9, 2, 3, 4, 5, 8, 6, 7, 0, 11, 10, 12, 13, 14, 15};
  auto y = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}},
                  {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}}, 2});
  CHECK(y[0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(y[0]) == std::vector<float>{9, 8, 13, 15});
  CHECK(Values<int64_t>(y[1]) == std::vector<int64_t>{1, 6, 13, 15});
  auto col = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}},
                    {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}, {"storage_order", IntAttr(1)}}, 2});
  CHECK(Values<int64_t>(col[1]) == std::vector<int64_t>{4, 9, 7, 15});  // (h, w) -> w * 4 + h
  // Without Indices: oneDNN; dilation 2, pads 1, ceil_mode.
  auto d = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}},
                  {{"kernel_shape", IntsAttr({2, 2})}, {"dilations", IntsAttr({2, 2})}, {"pads", IntsAttr({1, 1, 1, 1})},
                   {"strides", IntsAttr({2, 2})}}});
  CHECK(d[0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(d[0]) == std::vector<float>{5, 6, 13, 15});
  // ceil_mode adds a third window per axis (rows/cols 3 and 5, the latter past the input).
  auto ceil = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}},
                     {{"kernel_shape", IntsAttr({2, 2})}, {"dilations", IntsAttr({2, 2})}, {"pads", IntsAttr({1, 1, 1, 1})},
                      {"strides", IntsAttr({2, 2})}, {"ceil_mode", IntAttr(1)}}});
  CHECK(ceil[0].shape == Dims{1, 1, 3, 3});
  CHECK(Values<float>(ceil[0]) == std::vector<float>{5, 6, 6, 13, 15, 15, 13, 15, 15});
  auto i8 = RunOp({"MaxPool", {{Tensor(ge::DT_INT8, {1, 1, 1, 4}, std::vector<int8_t>{-5, -7, 3, -1})}},
                   {{"kernel_shape", IntsAttr({1, 2})}}});
  CHECK(Values<int8_t>(i8[0]) == std::vector<int8_t>{-5, 3, 3});
  auto t = FailureText({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}},
                        {{"kernel_shape", IntsAttr({2, 2})}, {"storage_order", IntAttr(2)}}});
  CHECK_THAT(t, Catch::Contains("storage_order 2 must be 0 (row-major) or 1 (column-major)"));
  t = FailureText({"MaxPool", {{Tensor(ge::DT_FLOAT, {1, 1, 4, 4}, x)}}, {{"kernel_shape", IntsAttr({2})}}});
  CHECK_THAT(t, Catch::Contains("kernel_shape [2] has 1 values; the input has 2 spatial axes"));
}

// A plain 4-D X pools in oneDNN's chain layout (reordered in and out, ops/common/dnnl_pool.h):
// 2 images of 12 channels (not a multiple of the block of 8) give the values of the plain
// max-pool loop (the Indices path) and of a direct average.
TEST_CASE("MaxPool and AveragePool on plain NCHW with channels off the block of 8", "[ops][heavy]") {
  std::vector<float> x(2 * 12 * 9 * 9);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  const std::map<std::string, ir::AttrValue> attrs = {
      {"kernel_shape", IntsAttr({3, 3})}, {"pads", IntsAttr({1, 1, 1, 1})}, {"strides", IntsAttr({2, 2})}};
  auto fast = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {2, 12, 9, 9}, x)}}, attrs});
  auto loop = RunOp({"MaxPool", {{Tensor(ge::DT_FLOAT, {2, 12, 9, 9}, x)}}, attrs, 2});
  REQUIRE(fast[0].shape == Dims{2, 12, 5, 5});
  CHECK(Values<float>(fast[0]) == Values<float>(loop[0]));
  auto avg = RunOp({"AveragePool", {{Tensor(ge::DT_FLOAT, {2, 12, 9, 9}, x)}}, attrs});
  REQUIRE(avg[0].shape == Dims{2, 12, 5, 5});
  const std::vector<float> got = Values<float>(avg[0]);
  for (int nc = 0; nc < 24; ++nc)
    for (int oh = 0; oh < 5; ++oh)
      for (int ow = 0; ow < 5; ++ow) {
        double sum = 0;
        int count = 0;  // count_include_pad 0: the window's cells inside X
        for (int h = 2 * oh - 1; h <= 2 * oh + 1; ++h)
          for (int w = 2 * ow - 1; w <= 2 * ow + 1; ++w)
            if (h >= 0 && w >= 0 && h < 9 && w < 9) {
              sum += x[(static_cast<size_t>(nc) * 9 + h) * 9 + w];
              ++count;
            }
        CHECK(got[(static_cast<size_t>(nc) * 5 + oh) * 5 + ow] == Approx(sum / count).margin(1e-5));
      }
}

TEST_CASE("AveragePool count_include_pad, GlobalAveragePool, GlobalMaxPool", "[ops][heavy]") {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::map<std::string, ir::AttrValue> attrs = {{"kernel_shape", IntsAttr({2, 2})}, {"pads", IntsAttr({1, 1, 0, 0})},
                                                      {"strides", IntsAttr({2, 2})}};
  auto ex = RunOp({"AveragePool", {{Tensor(ge::DT_FLOAT, {1, 1, 3, 3}, x)}}, attrs});
  CHECK(ex[0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(ex[0]) == std::vector<float>{1, 2.5f, 5.5f, 7});
  auto inc_attrs = attrs;
  inc_attrs["count_include_pad"] = IntAttr(1);
  auto inc = RunOp({"AveragePool", {{Tensor(ge::DT_FLOAT, {1, 1, 3, 3}, x)}}, inc_attrs});
  CHECK(Values<float>(inc[0]) == std::vector<float>{0.25f, 1.25f, 2.75f, 7});
  auto ga = RunOp({"GlobalAveragePool", {{Tensor(ge::DT_FLOAT, {1, 2, 1, 3}, std::vector<float>{1, 2, 6, -1, -2, 0})}}});
  CHECK(ga[0].shape == Dims{1, 2, 1, 1});
  CHECK(Values<float>(ga[0]) == std::vector<float>{3, -1});
  auto gm = RunOp({"GlobalMaxPool", {{Tensor(ge::DT_FLOAT, {2, 1, 3}, std::vector<float>{1, 7, 6, -1, -2, -3})}}});
  CHECK(gm[0].shape == Dims{2, 1, 1});
  CHECK(Values<float>(gm[0]) == std::vector<float>{7, -1});
  auto t = FailureText({"GlobalMaxPool", {{Tensor(ge::DT_FLOAT, {2, 3}, Random(6, 1))}}});
  CHECK_THAT(t, Catch::Contains("X must have rank >= 3 (N, C, spatial...); got [2, 3]"));
}

TEST_CASE("BatchNormalization training_mode = 1 by hand: batch statistics and running outputs", "[ops][heavy]") {
  // X [2, 2, 2]: channel 0 holds {1, 3, 5, 7} (batch 0: 1, 3; batch 1: 5, 7), channel 1 {2, 2, 6, 6}.
  // Channel 0: mean 4, population variance (9 + 1 + 1 + 9) / 4 = 5; channel 1: mean 4, var 4.
  // With epsilon 4: Y0 = (x - 4) / 3 * scale0 + B0, Y1 = (x - 4) / sqrt(8) * scale1 + B1.
  // Running outputs, momentum 0.75: mean 0.75 * input_mean + 0.25 * 4, var 0.75 * input_var + 0.25 * var.
  auto out = RunOp({"BatchNormalization",
                    {{Tensor(ge::DT_FLOAT, {2, 2, 2}, std::vector<float>{1, 3, 2, 2, 5, 7, 6, 6})},
                     {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{3, 1})},
                     {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{1, 0})},
                     {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{8, 0})},
                     {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{1, 2})}},
                    {{"epsilon", FloatAttr(4.0f)}, {"momentum", FloatAttr(0.75f)}, {"training_mode", IntAttr(1)}},
                    3});
  REQUIRE(out.size() == 3);
  CHECK(out[0].shape == Dims{2, 2, 2});
  const std::vector<float> y = Values<float>(out[0]);
  const double r8 = std::sqrt(8.0);
  const std::vector<double> want = {(1 - 4) / 3.0 * 3 + 1, (3 - 4) / 3.0 * 3 + 1, (2 - 4) / r8, (2 - 4) / r8,
                                    (5 - 4) / 3.0 * 3 + 1, (7 - 4) / 3.0 * 3 + 1, (6 - 4) / r8, (6 - 4) / r8};
  REQUIRE(y.size() == want.size());
  for (size_t i = 0; i < y.size(); ++i) CHECK(y[i] == Approx(want[i]).epsilon(1e-6));
  CHECK(out[1].shape == Dims{2});
  CHECK(Values<float>(out[1]) == std::vector<float>{7, 1});     // 0.75 * 8 + 0.25 * 4, 0 + 0.25 * 4
  CHECK(Values<float>(out[2]) == std::vector<float>{2, 2.5f});  // 0.75 * 1 + 0.25 * 5, 0.75 * 2 + 0.25 * 4
}

TEST_CASE("BatchNormalization inference by hand", "[ops][heavy]") {
  // Two channels: (x - mean) / sqrt(var + eps) * scale + B with var + eps = 4 and 1.
  auto y = RunOp({"BatchNormalization",
                  {{Tensor(ge::DT_FLOAT, {1, 2, 2}, std::vector<float>{1, 3, 5, 7})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{2, 1})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{0, 10})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{1, 6})},
                   {Tensor(ge::DT_FLOAT, {2}, std::vector<float>{3.5f, 0.5f})}},
                  {{"epsilon", FloatAttr(0.5f)}}});
  CHECK(y[0].shape == Dims{1, 2, 2});
  CHECK(Values<float>(y[0]) == std::vector<float>{0, 2, 9, 11});
  const OpInput p2 = Tensor(ge::DT_FLOAT, {2}, std::vector<float>{1, 1});
  auto t = FailureText({"BatchNormalization", {{Tensor(ge::DT_FLOAT, {1, 2, 2}, Random(4, 1))}, p2, p2, p2, p2}, {}, 3});
  CHECK_THAT(t, Catch::Contains("running_mean/running_var outputs exist only with training_mode = 1"));
  t = FailureText({"BatchNormalization",
                   {{Tensor(ge::DT_FLOAT, {1, 3, 2}, Random(6, 1))}, p2, p2, p2, p2}});
  CHECK_THAT(t, Catch::Contains("scale [2] must have shape [C] = [3]"));
}
