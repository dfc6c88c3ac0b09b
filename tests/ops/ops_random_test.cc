// Bernoulli, RandomUniformLike and RandomNormalLike through the one-op harness: what can be
// asserted of random draws. With `seed` a node draws the same values on every run and different
// seeds differ; values stay in range (Bernoulli 0/1 with p = 0 and p = 1 exact, uniform in
// [low, high)); the sample mean and variance of 20000 draws lie within 5 standard errors of the
// distribution's; dtype selects the output type; bad inputs fail with their message.
#include <cmath>

#include "op_checks.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using Attrs = std::map<std::string, ir::AttrValue>;

constexpr size_t kN = 20000;

void Moments(const F &v, double *mean, double *var) {
  double s = 0, q = 0;
  for (float x : v) s += x;
  *mean = s / static_cast<double>(v.size());
  for (float x : v) q += (x - *mean) * (x - *mean);
  *var = q / static_cast<double>(v.size() - 1);
}
}  // namespace

TEST_CASE("RandomUniformLike: range, moments, seed, dtype", "[ops][random]") {
  const HostTensor like = Fl({static_cast<int64_t>(kN)}, F(kN, 0));
  const Attrs at = {{"low", FloatAttr(-2)}, {"high", FloatAttr(6)}, {"seed", FloatAttr(3)}};
  const HostTensor y = RunOp({"RandomUniformLike", {{like}}, at})[0];
  CHECK(y.shape == like.shape);
  const F v = Values<float>(y);
  for (float x : v) REQUIRE((x >= -2 && x < 6));
  double mean = 0, var = 0;
  Moments(v, &mean, &var);
  // uniform on [-2, 6): mean 2, variance 64 / 12; standard error of the mean sqrt(var / n).
  CHECK(std::fabs(mean - 2) < 5 * std::sqrt(64.0 / 12 / kN));
  CHECK(std::fabs(var - 64.0 / 12) < 0.05 * 64.0 / 12);
  CHECK(Values<float>(RunOp({"RandomUniformLike", {{like}}, at})[0]) == v);  // same seed, same draws
  Attrs other = at;
  other["seed"] = FloatAttr(4);
  CHECK(Values<float>(RunOp({"RandomUniformLike", {{like}}, other})[0]) != v);
  // dtype 11 (double) for an int64 input that only gives the shape.
  const HostTensor d = RunOp({"RandomUniformLike", {{Tensor<int64_t>(ge::DT_INT64, {2, 3}, std::vector<int64_t>(6))}},
                              {{"dtype", IntAttr(11)}}})[0];
  CHECK(d.dtype == ge::DT_DOUBLE);
  CHECK(d.shape == std::vector<int64_t>{2, 3});
  const std::string t = RunOpExpectingFailure({"RandomUniformLike", {{Tensor<int64_t>(ge::DT_INT64, {1}, {0})}}});
  CHECK(t.find("the input's dtype int64 is not one this op can produce; set dtype") != std::string::npos);
}

TEST_CASE("RandomNormalLike: moments, seed", "[ops][random]") {
  const HostTensor like = Fl({static_cast<int64_t>(kN)}, F(kN, 0));
  const Attrs at = {{"mean", FloatAttr(1.5f)}, {"scale", FloatAttr(0.5f)}, {"seed", FloatAttr(0)}};
  const F v = Values<float>(RunOp({"RandomNormalLike", {{like}}, at})[0]);
  double mean = 0, var = 0;
  Moments(v, &mean, &var);
  CHECK(std::fabs(mean - 1.5) < 5 * 0.5 / std::sqrt(static_cast<double>(kN)));
  CHECK(std::fabs(var - 0.25) < 0.05 * 0.25);
  CHECK(Values<float>(RunOp({"RandomNormalLike", {{like}}, at})[0]) == v);
}

TEST_CASE("Bernoulli: 0/1 draws at the given probabilities, dtype, seed, errors", "[ops][random]") {
  F p(kN);
  for (size_t i = 0; i < kN; ++i) p[i] = i % 4 == 0 ? 0.0f : (i % 4 == 1 ? 1.0f : 0.3f);
  const Attrs seeded = {{"seed", FloatAttr(7)}};
  const HostTensor y = RunOp({"Bernoulli", {{Fl({static_cast<int64_t>(kN)}, p)}}, seeded})[0];
  CHECK(y.dtype == ge::DT_FLOAT);
  const F v = Values<float>(y);
  size_t ones = 0;
  for (size_t i = 0; i < kN; ++i) {
    REQUIRE((v[i] == 0 || v[i] == 1));
    if (i % 4 == 0) REQUIRE(v[i] == 0);
    if (i % 4 == 1) REQUIRE(v[i] == 1);
    if (i % 4 >= 2) ones += v[i] == 1;
  }
  const double n = kN / 2.0, rate = static_cast<double>(ones) / n;
  CHECK(std::fabs(rate - 0.3) < 5 * std::sqrt(0.3 * 0.7 / n));
  CHECK(Values<float>(RunOp({"Bernoulli", {{Fl({static_cast<int64_t>(kN)}, p)}}, seeded})[0]) == v);
  // dtype 9 (bool) and 7 (int64).
  const HostTensor b = RunOp({"Bernoulli", {{Fl({2}, {1, 0})}}, {{"dtype", IntAttr(9)}}})[0];
  CHECK(b.dtype == ge::DT_BOOL);
  CHECK(Values<uint8_t>(b) == std::vector<uint8_t>{1, 0});
  CHECK(Values<int64_t>(RunOp({"Bernoulli", {{Fl({2}, {0, 1})}}, {{"dtype", IntAttr(7)}}})[0]) == std::vector<int64_t>{0, 1});
  const std::string t = RunOpExpectingFailure({"Bernoulli", {{Fl({2}, {0.5f, 1.5f})}}});
  CHECK(t.find("input[1] = 1.500000 is not a probability in [0, 1]") != std::string::npos);
}
