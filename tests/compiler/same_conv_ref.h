// "Same" convolution layers for the in-process compile tests (layout_plan_test.cc,
// conv_brg_test.cc, conv_team_test.cc, nan_scan_share_test.cc, addend_in_place_test.cc): the layer,
// its node in a pass_test::Builder graph, and a double reference with its magnitude network. With integer data far below 2^24 float32 computes
// every output exactly, so conv_brg_test and conv_team_test compare with equality;
// layout_plan_test bounds the rounding of real data.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pass_graph_builder.h"

namespace pass_test {

/// A Conv of `c` -> `m` channels, kernel `k` x `k`, stride 1, padding k / 2 ("same").
struct SameConvLayer {
  int64_t c, m, k;
  std::vector<float> w, b;  ///< [m, c, k, k] and [m]
};

/// Pattern's values mapped onto the integers lo..hi.
inline std::vector<float> Integers(size_t n, uint32_t seed, int lo, int hi) {
  std::vector<float> v = Pattern(n, seed);
  for (auto &x : v) x = std::min(float(hi), std::floor((x + 1.0f) / 2.0f * float(hi - lo + 1)) + float(lo));
  return v;
}

/// The layer on [c, s, s] (N = 1), exactly in double; `mag`: with |W| and |B| (the magnitude
/// network that bounds every partial sum).
inline std::vector<double> RefSameConv(const SameConvLayer &l, const std::vector<double> &x, int64_t s, bool mag) {
  const int64_t pad = l.k / 2;
  std::vector<double> y(size_t(l.m * s * s));
  for (int64_t m = 0; m < l.m; ++m)
    for (int64_t i = 0; i < s; ++i)
      for (int64_t j = 0; j < s; ++j) {
        double acc = mag ? std::fabs(l.b[size_t(m)]) : l.b[size_t(m)];
        for (int64_t c = 0; c < l.c; ++c)
          for (int64_t a = 0; a < l.k; ++a)
            for (int64_t bb = 0; bb < l.k; ++bb) {
              const int64_t yi = i + a - pad, xj = j + bb - pad;
              if (yi < 0 || yi >= s || xj < 0 || xj >= s) continue;
              const double w = l.w[size_t(((m * l.c + c) * l.k + a) * l.k + bb)];
              acc += x[size_t((c * s + yi) * s + xj)] * (mag ? std::fabs(w) : w);
            }
        y[size_t((m * s + i) * s + j)] = acc;
      }
  return y;
}

/// ONNX's Relu in double: NaN stays NaN, -inf becomes 0.
inline std::vector<double> Relu(std::vector<double> v) {
  for (double &e : v) e = std::isnan(e) || e > 0 ? e : 0.0;
  return v;
}

inline std::vector<double> Doubles(const std::vector<float> &v) { return std::vector<double>(v.begin(), v.end()); }

/// `got` equals the exact reference `want` element by element (NaN where it is NaN).
inline void CheckSame(const std::vector<float> &got, const std::vector<double> &want, const char *what) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(what << " element " << i << ": " << got[i] << " vs " << want[i]);
    if (std::isnan(want[i])) CHECK(std::isnan(got[i]));
    else CHECK(double(got[i]) == want[i]);
  }
}

/// The layer as Conv node `name` of `b` on value `x`, its W and B constants named after it.
inline int32_t AddSameConv(Builder &b, const std::string &name, const SameConvLayer &l, int32_t x) {
  const int64_t pad = l.k / 2;
  return b.Op(name, "Conv", {x, b.Const(name + "_W", {l.m, l.c, l.k, l.k}, l.w), b.Const(name + "_B", {l.m}, l.b)},
              {{"pads", Ints({pad, pad, pad, pad})}, {"kernel_shape", Ints({l.k, l.k})}});
}

}  // namespace pass_test
