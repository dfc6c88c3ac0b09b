// GE aliases of built-in operators (Conv2D, MatMulV2, BiasAdd): GE attribute conventions and
// tensor layouts (NHWC/NCHW data, HWCN/OIHW/OHWI filters, transposed operands). Expected values
// come from plain reference loops written here (a second implementation), on data that are
// multiples of 1/8 in [-1, 1]: every product and partial sum is exact in float32, so results
// must match exactly whatever the summation order.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "op_harness.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

std::vector<float> Eighths(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int>((seed >> 16) % 17) - 8) / 8.0f;
  }
  return v;
}

HostTensor F(Dims shape, const std::vector<float> &v) { return Tensor<float>(ge::DT_FLOAT, std::move(shape), v); }

OpInput WithFormat(HostTensor t, ge::Format f, bool as_const = false) {
  OpInput in(std::move(t), as_const);
  in.format = f;
  return in;
}

// Physical tensor of logical dims `l` (row-major) permuted so that physical axis i is logical
// axis perm[i]: out[p] = in[l-index of p].
std::vector<float> ToPhysical(const std::vector<float> &in, const Dims &l, const std::vector<size_t> &perm) {
  Dims phys(perm.size()), lstride(l.size(), 1);
  for (size_t i = l.size(); i-- > 1;) lstride[i - 1] = lstride[i] * l[i];
  for (size_t i = 0; i < perm.size(); ++i) phys[i] = l[perm[i]];
  std::vector<float> out(in.size());
  Dims idx(phys.size(), 0);
  for (size_t p = 0; p < out.size(); ++p) {
    int64_t off = 0;
    for (size_t i = 0; i < phys.size(); ++i) off += idx[i] * lstride[perm[i]];
    out[p] = in[off];
    for (size_t i = phys.size(); i-- > 0;) {
      if (++idx[i] < phys[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

Dims PermDims(const Dims &l, const std::vector<size_t> &perm) {
  Dims p(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) p[i] = l[perm[i]];
  return p;
}

// NCHW x (N,C,H,W), OIHW w (M, C/g, kh, kw): NCHW y. pads: top, bottom, left, right.
std::vector<float> RefConv(const std::vector<float> &x, const Dims &xd, const std::vector<float> &w, const Dims &wd,
                           const std::vector<float> *bias, int64_t g, int64_t sh, int64_t sw, int64_t dh, int64_t dw,
                           const Dims &pads, Dims *yd) {
  const int64_t n = xd[0], c = xd[1], h = xd[2], wi = xd[3], m = wd[0], cg = wd[1], kh = wd[2], kw = wd[3];
  const int64_t oh = (h + pads[0] + pads[1] - dh * (kh - 1) - 1) / sh + 1;
  const int64_t ow = (wi + pads[2] + pads[3] - dw * (kw - 1) - 1) / sw + 1;
  *yd = {n, m, oh, ow};
  std::vector<float> y(n * m * oh * ow);
  const int64_t mg = m / g;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < m; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = bias ? (*bias)[o] : 0.0;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t bb = 0; bb < kw; ++bb) {
                const int64_t yy = i * sh - pads[0] + a * dh, xx = j * sw - pads[2] + bb * dw;
                if (yy < 0 || yy >= h || xx < 0 || xx >= wi) continue;
                const int64_t cin = (o / mg) * cg + ci;
                acc += x[((b * c + cin) * h + yy) * wi + xx] * w[((o * cg + ci) * kh + a) * kw + bb];
              }
          y[((b * m + o) * oh + i) * ow + j] = static_cast<float>(acc);
        }
  (void)c;
  return y;
}

const std::vector<size_t> kNhwcFromNchw = {0, 2, 3, 1};  // physical NHWC axis i = logical NCHW axis
const std::vector<size_t> kHwcnFromOihw = {2, 3, 1, 0};
const std::vector<size_t> kOhwiFromOihw = {0, 2, 3, 1};
const std::vector<size_t> kIdentity = {0, 1, 2, 3};
}  // namespace

TEST_CASE("Conv2D: NHWC data, HWCN filter, strides/dilations in NHWC order, GE pads, bias") {
  const Dims xl = {1, 3, 5, 6}, wl = {4, 3, 3, 3};
  const auto x = Eighths(90, 1), w = Eighths(108, 2), b = Eighths(4, 3);
  Dims yl;
  const auto want = RefConv(x, xl, w, wl, &b, 1, 2, 1, 1, 2, {1, 1, 0, 1}, &yl);
  REQUIRE(yl == Dims{1, 4, 3, 3});
  OpCase c("Conv2D",
           {WithFormat(F(PermDims(xl, kNhwcFromNchw), ToPhysical(x, xl, kNhwcFromNchw)), ge::FORMAT_NHWC),
            WithFormat(F(PermDims(wl, kHwcnFromOihw), ToPhysical(w, wl, kHwcnFromOihw)), ge::FORMAT_HWCN, true),
            OpInput(F({4}, b), true)},
           {{"strides", IntsAttr({1, 2, 1, 1})},
            {"pads", IntsAttr({1, 1, 0, 1})},
            {"dilations", IntsAttr({1, 1, 2, 1})},
            {"data_format", StringAttr("NHWC")}});
  const auto out = RunOp(c);
  REQUIRE(out.size() == 1);
  CHECK(out[0].shape == PermDims(yl, kNhwcFromNchw));
  CHECK(Values<float>(out[0]) == ToPhysical(want, yl, kNhwcFromNchw));
}

TEST_CASE("Conv2D: NCHW data with an NCHW (OIHW) filter and groups") {
  const Dims xl = {2, 4, 5, 5}, wl = {6, 2, 3, 3};
  const auto x = Eighths(200, 4), w = Eighths(108, 5);
  Dims yl;
  const auto want = RefConv(x, xl, w, wl, nullptr, 2, 1, 1, 1, 1, {1, 1, 1, 1}, &yl);
  OpCase c("Conv2D", {WithFormat(F(xl, x), ge::FORMAT_NCHW), WithFormat(F(wl, w), ge::FORMAT_NCHW, true)},
           {{"strides", IntsAttr({1, 1, 1, 1})},
            {"pads", IntsAttr({1, 1, 1, 1})},
            {"groups", IntAttr(2)},
            {"data_format", StringAttr("NCHW")}});
  const auto out = RunOp(c);
  CHECK(out[0].shape == yl);
  CHECK(Values<float>(out[0]) == want);
}

TEST_CASE("Conv2D: an ND filter takes HWCN for NHWC data; an NHWC (OHWI) filter is read as such") {
  const Dims xl = {1, 2, 4, 4}, wl = {3, 2, 2, 2};
  const auto x = Eighths(32, 6), w = Eighths(24, 7);
  Dims yl;
  const auto want = RefConv(x, xl, w, wl, nullptr, 1, 1, 1, 1, 1, {0, 0, 0, 0}, &yl);
  SECTION("ND filter, NHWC data (default data_format)") {
    OpCase c("Conv2D",
             {WithFormat(F(PermDims(xl, kNhwcFromNchw), ToPhysical(x, xl, kNhwcFromNchw)), ge::FORMAT_NHWC),
              OpInput(F(PermDims(wl, kHwcnFromOihw), ToPhysical(w, wl, kHwcnFromOihw)), true)},
             {{"strides", IntsAttr({1, 1, 1, 1})}, {"pads", IntsAttr({0, 0, 0, 0})}});
    CHECK(Values<float>(RunOp(c)[0]) == ToPhysical(want, yl, kNhwcFromNchw));
  }
  SECTION("OHWI filter, NCHW data") {
    OpCase c("Conv2D",
             {OpInput(F(xl, x)), WithFormat(F(PermDims(wl, kOhwiFromOihw), ToPhysical(w, wl, kOhwiFromOihw)),
                                            ge::FORMAT_NHWC, true)},
             {{"strides", IntsAttr({1, 1, 1, 1})}, {"pads", IntsAttr({0, 0, 0, 0})},
              {"data_format", StringAttr("NCHW")}});
    CHECK(Values<float>(RunOp(c)[0]) == ToPhysical(want, yl, kIdentity));
  }
}

TEST_CASE("Conv2D: bad attributes are refused with what to fix") {
  const auto x = F({1, 4, 4, 2}, Eighths(32, 8));
  const auto w = F({2, 2, 2, 3}, Eighths(24, 9));
  std::map<std::string, ir::AttrValue> good = {{"strides", IntsAttr({1, 1, 1, 1})}, {"pads", IntsAttr({0, 0, 0, 0})}};
  auto with = [&](const std::string &k, ir::AttrValue v) {
    auto a = good;
    a[k] = v;
    return a;
  };
  CHECK_THAT(RunOpExpectingFailure(OpCase("Conv2D", {OpInput(x), OpInput(w, true)}, with("strides", IntsAttr({1, 1})))),
             Catch::Contains("strides must have 4 values in NHWC order"));
  CHECK_THAT(
      RunOpExpectingFailure(OpCase("Conv2D", {OpInput(x), OpInput(w, true)}, with("strides", IntsAttr({2, 1, 1, 1})))),
      Catch::Contains("must be 1 on N and C"));
  CHECK_THAT(RunOpExpectingFailure(
                 OpCase("Conv2D", {OpInput(x), OpInput(w, true)}, with("data_format", StringAttr("NCDHW")))),
             Catch::Contains("data_format 'NCDHW' is not supported"));
  CHECK_THAT(RunOpExpectingFailure(OpCase("Conv2D", {OpInput(x), OpInput(F({2, 2, 3, 3}, Eighths(36, 1)), true)}, good)),
             Catch::Contains("x has 2 channels but the filter"));
}

TEST_CASE("MatMulV2: transpose_x1/transpose_x2 and bias") {
  const int64_t m = 3, k = 5, n = 4;
  const auto a = Eighths(m * k, 11), b = Eighths(k * n, 12), bias = Eighths(n, 13);
  std::vector<float> want(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias[j];
      for (int64_t q = 0; q < k; ++q) acc += a[i * k + q] * b[q * n + j];
      want[i * n + j] = static_cast<float>(acc);
    }
  auto transpose = [](const std::vector<float> &v, int64_t r, int64_t c) {
    std::vector<float> t(v.size());
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < c; ++j) t[j * r + i] = v[i * c + j];
    return t;
  };
  for (int t1 = 0; t1 < 2; ++t1)
    for (int t2 = 0; t2 < 2; ++t2) {
      DYNAMIC_SECTION("transpose_x1=" << t1 << " transpose_x2=" << t2) {
        ir::AttrValue f1, f2;
        f1.kind = f2.kind = ir::AttrKind::kBool;
        f1.b = t1 != 0;
        f2.b = t2 != 0;
        OpCase c("MatMulV2",
                 {OpInput(t1 ? F({k, m}, transpose(a, m, k)) : F({m, k}, a)),
                  OpInput(t2 ? F({n, k}, transpose(b, k, n)) : F({k, n}, b), true), OpInput(F({n}, bias), true)},
                 {{"transpose_x1", f1}, {"transpose_x2", f2}});
        const auto out = RunOp(c);
        CHECK(out[0].shape == Dims{m, n});
        CHECK(Values<float>(out[0]) == want);
      }
    }
}

TEST_CASE("MatMulV2: int32 wraps; mismatched inner dims are refused") {
  const auto a = Tensor<int32_t>(ge::DT_INT32, {1, 2}, {2147483647, 1});
  const auto b = Tensor<int32_t>(ge::DT_INT32, {2, 1}, {2, 3});
  CHECK(Values<int32_t>(RunOp(OpCase("MatMulV2", {OpInput(a), OpInput(b)}))[0]) == std::vector<int32_t>{1});
  CHECK_THAT(RunOpExpectingFailure(OpCase("MatMulV2", {OpInput(F({2, 3}, Eighths(6, 1))), OpInput(F({2, 3}, Eighths(6, 2)))})),
             Catch::Contains("the inner dims differ"));
}

TEST_CASE("BiasAdd: channel axis from data_format") {
  const auto x = F({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  SECTION("NHWC (default): last axis") {
    const auto out = RunOp(OpCase("BiasAdd", {OpInput(x), OpInput(F({2}, {100, 200}), true)}));
    CHECK(Values<float>(out[0]) == std::vector<float>{101, 202, 103, 204, 105, 206, 107, 208, 109, 210, 111, 212});
  }
  SECTION("NCHW: axis 1") {
    const auto out = RunOp(OpCase("BiasAdd", {OpInput(x), OpInput(F({3}, {10, 20, 30}), true)},
                                  {{"data_format", StringAttr("NCHW")}}));
    CHECK(Values<float>(out[0]) == std::vector<float>{11, 12, 23, 24, 35, 36, 17, 18, 29, 30, 41, 42});
  }
  SECTION("int32") {
    const auto xi = Tensor<int32_t>(ge::DT_INT32, {1, 2}, {5, -5});
    const auto bi = Tensor<int32_t>(ge::DT_INT32, {2}, {1, 2});
    CHECK(Values<int32_t>(RunOp(OpCase("BiasAdd", {OpInput(xi), OpInput(bi)}))[0]) == std::vector<int32_t>{6, -3});
  }
  SECTION("a bias of the wrong length is refused") {
    CHECK_THAT(RunOpExpectingFailure(OpCase("BiasAdd", {OpInput(x), OpInput(F({3}, {1, 2, 3}), true)})),
               Catch::Contains("bias [3] must have 2 values (axis 2 of x [2, 3, 2])"));
  }
}

// The same aliases reached the way GE users reach them: a GE IR JSON graph (layouts as GE writes
// them, "layout": "NHWC"/"HWCN") compiled by the atc binary and run by omrun.
TEST_CASE("a GE JSON graph Data(NHWC) -> Conv2D(HWCN filter) -> BiasAdd compiles with atc and runs with omrun") {
  const Dims xl = {1, 2, 4, 4}, wl = {3, 2, 2, 2};
  const auto x = Eighths(32, 21), w = Eighths(24, 22);
  const std::vector<float> b = {0.5f, -0.25f, 1.0f};
  Dims yl;
  const auto conv = RefConv(x, xl, w, wl, &b, 1, 1, 1, 1, 1, {0, 1, 1, 0}, &yl);
  const std::string dir = MakeTempDir();
  tensor_io::WriteNpy(dir + "/x.npy", F(PermDims(xl, kNhwcFromNchw), ToPhysical(x, xl, kNhwcFromNchw)));
  tensor_io::WriteNpy(dir + "/w.npy", F(PermDims(wl, kHwcnFromOihw), ToPhysical(w, wl, kHwcnFromOihw)));
  tensor_io::WriteNpy(dir + "/b.npy", F({3}, b));
  tensor_io::WriteNpy(dir + "/want.npy", F(PermDims(yl, kNhwcFromNchw), ToPhysical(conv, yl, kNhwcFromNchw)));
  auto desc = [](const std::string &name, const Dims &d, const std::string &layout) {
    std::string s = "{\"name\": \"" + name + "\", \"dtype\": \"DT_FLOAT\", \"layout\": \"" + layout + "\", \"shape\": {\"dim\": [";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? ", \"" : "\"") + std::to_string(d[i]) + "\"";
    return s + "]}}";
  };
  const Dims xp = PermDims(xl, kNhwcFromNchw), wp = PermDims(wl, kHwcnFromOihw), yp = PermDims(yl, kNhwcFromNchw);
  auto data = [&](const std::string &name, int index, const Dims &d, const std::string &layout) {
    return "{\"name\": \"" + name + "\", \"type\": \"Data\", \"attr\": {\"index\": {\"i\": \"" + std::to_string(index) +
           "\"}}, \"inputDesc\": [" + desc("", d, layout) + "], \"outputDesc\": [" + desc("", d, layout) + "]}";
  };
  const std::string json =
      "{\"name\": \"ge_alias\", \"graph\": [{\"name\": \"g\", \"input\": [\"x:0\", \"w:0\", \"b:0\"], \"output\": "
      "[\"bias_add:0\"], \"op\": [" +
      data("x", 0, xp, "NHWC") + ", " + data("w", 1, wp, "HWCN") + ", " + data("b", 2, {3}, "ND") +
      ", {\"name\": \"conv\", \"type\": \"Conv2D\", \"input\": [\"x:0\", \"w:0\"], \"attr\": {"
      "\"strides\": {\"list\": {\"i\": [\"1\", \"1\", \"1\", \"1\"]}}, \"pads\": {\"list\": {\"i\": [\"0\", \"1\", "
      "\"1\", \"0\"]}}, \"data_format\": {\"s\": \"TkhXQw==\"}}, \"inputDesc\": [" +
      desc("x", xp, "NHWC") + ", " + desc("filter", wp, "HWCN") + "], \"outputDesc\": [" + desc("y", yp, "NHWC") +
      "]}, {\"name\": \"bias_add\", \"type\": \"BiasAdd\", \"input\": [\"conv:0\", \"b:0\"], \"inputDesc\": [" +
      desc("x", yp, "NHWC") + ", " + desc("bias", {3}, "ND") + "], \"outputDesc\": [" + desc("y", yp, "NHWC") + "]}]}]}";
  {
    std::ofstream(dir + "/g.json") << json;
  }
  auto atc = RunCommand({BuildPath("bin/atc"), "--model", dir + "/g.json", "--framework", "1", "--soc_version", "host",
                         "--output", dir + "/g"});
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  auto run = RunCommand({BuildPath("bin/omrun"), dir + "/g.om", "--input", dir + "/x.npy," + dir + "/w.npy," + dir + "/b.npy",
                         "--expected_output", dir + "/want.npy", "--atol", "0", "--rtol", "0"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  RemoveTree(dir);
}
