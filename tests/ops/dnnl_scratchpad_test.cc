// ops/common/dnnl_util.h UserScratchpad: a primitive made with it keeps no scratchpad of its own,
// and dnnl_util::Run hands it the calling thread's buffer, so that it computes the right values,
// also when two threads run it at once (a buffer shared between threads would mix their rows).
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "common/dnnl_util.h"

namespace du = openatc_ops::dnnl_util;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

namespace {
constexpr int kIc = 8, kOc = 16, kHw = 9;  // 3x3, pad 1: gemm:jit with an im2col scratchpad

// The direct definition of the convolution (NCHW, OIHW, stride 1, pad 1), in double.
std::vector<float> NaiveConv(const std::vector<float> &x, const std::vector<float> &w) {
  std::vector<float> y(kOc * kHw * kHw);
  for (int o = 0; o < kOc; ++o)
    for (int h = 0; h < kHw; ++h)
      for (int v = 0; v < kHw; ++v) {
        double acc = 0;
        for (int c = 0; c < kIc; ++c)
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw) {
              const int ih = h + kh - 1, iw = v + kw - 1;
              if (ih < 0 || iw < 0 || ih >= kHw || iw >= kHw) continue;
              acc += double{x[(c * kHw + ih) * kHw + iw]} * w[((o * kIc + c) * 3 + kh) * 3 + kw];
            }
        y[(o * kHw + h) * kHw + v] = static_cast<float>(acc);
      }
  return y;
}

// Small integers: every product and sum is exact in float, so any order of summation gives the
// naive result exactly.
std::vector<float> Ramp(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + seed * 13) % 9) - 4);
  return v;
}

struct ConvPrim {
  dnnl::memory::desc s{{1, kIc, kHw, kHw}, dt::f32, tag::nchw};
  dnnl::memory::desc w{{kOc, kIc, 3, 3}, dt::f32, tag::oihw};
  dnnl::memory::desc d{{1, kOc, kHw, kHw}, dt::f32, tag::nchw};
  dnnl::convolution_forward::primitive_desc pd{
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, s, w,
                                      dnnl::memory::desc(), d, {1, 1}, {0, 0}, {1, 1}, {1, 1}),
      du::UserScratchpad(), du::Engine()};
  dnnl::convolution_forward prim{pd};

  std::vector<float> Run(const std::vector<float> &x, const std::vector<float> &wt) const {
    std::vector<float> y(kOc * kHw * kHw, -1.0f);
    du::Run(prim, {{DNNL_ARG_SRC, du::Wrap(s, x.data())},
                   {DNNL_ARG_WEIGHTS, du::Wrap(w, wt.data())},
                   {DNNL_ARG_DST, du::Wrap(d, y.data())}});
    return y;
  }
};
}  // namespace

TEST_CASE("UserScratchpad: the primitive needs a scratchpad, Run hands it one", "[ops][dnnl]") {
  ConvPrim c;
  // Made with the user mode, the primitive's scratchpad is the caller's (its md has a size); in
  // the library mode it would hold that memory itself.
  REQUIRE(c.pd.scratchpad_desc().get_size() > 0);
  const std::vector<float> x = Ramp(kIc * kHw * kHw, 1), w = Ramp(kOc * kIc * 9, 2);
  CHECK(c.Run(x, w) == NaiveConv(x, w));
}

TEST_CASE("UserScratchpad: two threads run one primitive at once, each with its own buffer", "[ops][dnnl]") {
  ConvPrim c;
  const std::vector<float> w = Ramp(kOc * kIc * 9, 3);
  std::vector<std::vector<float>> xs, expected;
  for (int t = 0; t < 2; ++t) {
    xs.push_back(Ramp(kIc * kHw * kHw, 10 + t));
    expected.push_back(NaiveConv(xs.back(), w));
  }
  REQUIRE(expected[0] != expected[1]);
  int wrong[2] = {0, 0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i)
        if (c.Run(xs[t], w) != expected[t]) ++wrong[t];
    });
  for (auto &th : threads) th.join();
  CHECK(wrong[0] == 0);
  CHECK(wrong[1] == 0);
}
