// A blocked Conv that UseBrgConv (ops/common/conv_core.h) gives to oneDNN's brgemm kernel, which
// reads and writes nhwc, inside a chain that is nChw16c (AVX-512) or nChw8c:
//   x[1, 256, 7, 7] -> a (1x1, 512 ch) -> r Relu -> b (3x3 pad 1, 512 ch: 115.6M multiply-adds
//   on a 7x7 map) -> c (1x1, 16 ch) -> out
// b's X and Y are reordered from and to the chain layout around the kernel. Run at 1 and then 2
// threads against a reference computed here. On an AVX-512 CPU b runs brgconv:avx512_core
// (checked with ONEDNN_VERBOSE=1); with ONEDNN_MAX_CPU_ISA=AVX2 (ctest compiler_layout_avx2)
// oneDNN has no such kernel and b keeps the jit one on nChw8c.
//
// Exact: x in {0, 1}, weights in {-1, 0, 1} (mostly 0), biases in {-2..2}. Every partial sum of every layer,
// in any order, is an integer of magnitude at most M (the network on |x|, |W|, |B|, checked below
// to stay under 2^24), so float32 computes each output exactly and the check is equality. (With
// random-sign reals and K = 4608 terms the rounding bound is as large as the outputs and would
// not notice b reading its input in the wrong layout: tried.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "openatc/rt/runtime.h"
#include "same_conv_ref.h"

using namespace pass_test;

namespace {

constexpr int64_t kS = 7, kC = 256, kM = 512, kOut = 16;

// Weights in {-1, 0, 1}, two in nine of them non-zero (so that M stays small).
SameConvLayer MakeLayer(int64_t c, int64_t m, int64_t k, uint32_t seed) {
  SameConvLayer l{c, m, k, Integers(size_t(m * c * k * k), seed, -4, 4), Integers(size_t(m), seed + 100, -2, 2)};
  for (auto &v : l.w) v = std::fabs(v) <= 1.0f ? v : 0.0f;
  return l;
}

}  // namespace

TEST_CASE("a 3x3 Conv on a 7x7 map in the chain runs oneDNN's nhwc brgemm kernel between reorders",
          "[compiler][passes][layout]") {
  const SameConvLayer la = MakeLayer(kC, kM, 1, 71), lb = MakeLayer(kM, kM, 3, 72), lc = MakeLayer(kM, kOut, 1, 73);
  const std::vector<float> x = Integers(size_t(kC * kS * kS), 70, 0, 1);
  Builder b;
  const int32_t xi = b.Data("x", {1, kC, kS, kS});
  const int32_t r = b.Op("r", "Relu", {AddSameConv(b, "a", la, xi)});
  b.Output({AddSameConv(b, "c", lc, AddSameConv(b, "b", lb, r))});
  const om::Model m = Compile(b.g);

  // The double reference and its magnitude network.
  std::vector<double> want, mag;
  for (bool is_mag : {false, true}) {
    std::vector<double> xd(x.begin(), x.end());
    if (is_mag)
      for (auto &v : xd) v = std::fabs(v);
    std::vector<double> h = RefSameConv(la, xd, kS, is_mag);
    for (auto &v : h) v = std::max(v, 0.0);
    (is_mag ? mag : want) = RefSameConv(lc, RefSameConv(lb, h, kS, is_mag), kS, is_mag);
  }
  REQUIRE(*std::max_element(mag.begin(), mag.end()) < 16777216.0);
  for (int threads : {1, 2}) {
    INFO(threads << " thread(s)");
    rt::SetThreadCount(threads);
    const std::vector<float> y = Values(RunModel(m, {Host({1, kC, kS, kS}, x)}).at(0));
    REQUIRE(y.size() == want.size());
    size_t wrong = 0;
    for (size_t i = 0; i < y.size(); ++i) wrong += double(y[i]) != want[i];
    CHECK(wrong == 0);
  }
  rt::SetThreadCount(0);
}
