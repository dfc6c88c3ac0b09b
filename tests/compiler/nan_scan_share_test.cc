// NanScanSharePass (atc/compiler/src/passes/nan_scan_share.cc) and the run-time bounds it sets up
// (include/openatc/nan_scan_share.h, ops/common/nan_verdicts.h), on one loaded model that runs
// finite inputs, then inputs with NaN or infinities, then finite ones again, so that a bound
// taken from an earlier run, or from a node that had not run yet, would leave a Relu that oneDNN
// evaluates NaN-losing without ONNX's NaN. With the pass switched off every Conv reads its inputs
// itself; the values are the same.
//
// Exact: x, y in {-2..2}, weights in {-1, 0, 1}, biases in {-2..2}: every sum is a small integer,
// so float32 computes the finite outputs exactly, and IEEE double gives the reference's NaN and
// infinities (Relu keeps NaN and maps -inf to 0, as ONNX's).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "openatc/nan_scan_share.h"
#include "same_conv_ref.h"

using namespace pass_test;

namespace {

constexpr int64_t kS = 8, kC = 16;

int64_t IntAttrOf(const ir::Node &n, const char *name) {
  auto it = n.attrs.find(name);
  return it == n.attrs.end() ? 0 : it->second.i;
}

int64_t IdOf(const om::Model &m, const char *node, const char *attr) { return IntAttrOf(Named(m.graph, node), attr); }

}  // namespace

// Three Convs read x:
//   x -> a (3x3) -> Relu                      -> out 0   (reads x, records its bound)
//   x -> c (1x1) -> Relu                      -> out 1   (takes x's bound as its X's)
//   y -> b (1x1) -> Add(x) -> Relu            -> out 2   (takes x's bound as its addend's)
// a finds x's NaN and records "no bound", so c and b read x themselves; a c or b that took a
// bound recorded in an earlier run would Relu x's NaN to 0 (b's X is y, finite).
TEST_CASE("NanScanSharePass: Convs reading one tensor share its bound, run after run", "[compiler][passes]") {
  const SameConvLayer la{kC, kC, 3, Integers(size_t(kC * kC * 9), 11, -1, 1), Integers(size_t(kC), 12, -2, 2)};
  const SameConvLayer lc{kC, kC, 1, Integers(size_t(kC * kC), 13, -1, 1), Integers(size_t(kC), 14, -2, 2)};
  const SameConvLayer lb{kC, kC, 1, Integers(size_t(kC * kC), 15, -1, 1), Integers(size_t(kC), 16, -2, 2)};
  Builder b;
  const std::vector<int64_t> shape = {1, kC, kS, kS};
  const int32_t x = b.Data("x", shape), y = b.Data("y", shape);
  const int32_t ra = b.Op("ra", "Relu", {AddSameConv(b, "a", la, x)});
  const int32_t rc = b.Op("rc", "Relu", {AddSameConv(b, "c", lc, x)});
  const int32_t rb = b.Op("rb", "Relu", {b.Op("badd", "Add", {AddSameConv(b, "b", lb, y), x})});
  b.Output({ra, rc, rb});

  const om::Model shared = Compile(b.g, AllOn());
  const om::Model alone = Compile(b.g, TempFile("nan_share_off.cfg", "NanScanSharePass:off\n"));
  const int64_t x_id = -IdOf(shared, "ra", openatc::kXBoundIdAttr);  // a is the first to read x
  CHECK(x_id > 0);
  CHECK(IdOf(shared, "rc", openatc::kXBoundIdAttr) == x_id);
  CHECK(IdOf(shared, "rb", openatc::kAddendBoundIdAttr) == x_id);
  CHECK(IdOf(shared, "rb", openatc::kXBoundIdAttr) < 0);  // y: b is the first to read it
  CHECK(IdOf(shared, "rb", openatc::kXBoundIdAttr) != -x_id);
  REQUIRE(Named(shared.graph, "rb").inputs.size() == 4);  // the Add fused
  for (const char *n : {"ra", "rc", "rb"}) {
    CHECK(IdOf(shared, n, openatc::kYBoundIdAttr) > 0);
    for (const char *attr : {openatc::kXBoundIdAttr, openatc::kAddendBoundIdAttr, openatc::kYBoundIdAttr})
      CHECK(IdOf(alone, n, attr) == 0);
  }

  const size_t n = size_t(kC * kS * kS);
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  struct Step {
    uint32_t seed;
    std::vector<std::pair<size_t, float>> in_x, in_y;  // non-finite values put into x and y
  };
  const std::vector<Step> steps = {{21, {}, {}},           {22, {{5, nan}}, {}}, {23, {}, {}},
                                   {24, {{100, inf}, {700, -inf}}, {}},          {25, {}, {{7, nan}}},
                                   {26, {{1000, nan}}, {}}, {27, {}, {}}};
  for (const om::Model *m : {&shared, &alone}) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(*m));
    auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<nan share test>");
    for (const Step &s : steps) {
      INFO((m == &shared ? "shared" : "alone") << ", step with seed " << s.seed);
      std::vector<float> xv = Integers(n, s.seed, -2, 2), yv = Integers(n, s.seed + 50, -2, 2);
      for (const auto &[i, v] : s.in_x) xv[i] = v;
      for (const auto &[i, v] : s.in_y) yv[i] = v;
      const std::vector<HostTensor> out = model->Run({Host(shape, xv), Host(shape, yv)});
      REQUIRE(out.size() == 3);
      const std::vector<double> xd = Doubles(xv);
      std::vector<double> pre_b = RefSameConv(lb, Doubles(yv), kS, false);
      for (size_t i = 0; i < n; ++i) pre_b[i] += xd[i];
      CheckSame(Values(out[0]), Relu(RefSameConv(la, xd, kS, false)), "a");
      CheckSame(Values(out[1]), Relu(RefSameConv(lc, xd, kS, false)), "c");
      CheckSame(Values(out[2]), Relu(pre_b), "b");
    }
  }
}

// A chain: x -> p (1x1, W = 2^66 I) -> Relu -> q (1x1) -> Relu -> out. q takes p's output bound
// (2 * 2^66 * max |x| on finite runs) instead of reading its X. When x holds 2^66, p's output
// overflows to +inf: its bound passes the limit, so q reads its X, finds the infinities and gives
// ONNX's NaN where inf - inf or inf * 0 meet (a q that trusted an overflowed bound would Relu them
// to 0). Exact: p's outputs are integers times 2^66 and q sums at most 16 of them.
TEST_CASE("NanScanSharePass: a Conv takes its producer's output bound unless it may have overflowed",
          "[compiler][passes]") {
  const double big = std::ldexp(1.0, 66);
  SameConvLayer lp{kC, kC, 1, std::vector<float>(size_t(kC * kC), 0.0f), std::vector<float>(size_t(kC), 0.0f)};
  for (int64_t c = 0; c < kC; ++c) lp.w[size_t(c * kC + c)] = float(big);
  const SameConvLayer lq{kC, kC, 1, Integers(size_t(kC * kC), 31, -1, 1), Integers(size_t(kC), 32, -2, 2)};
  Builder b;
  const std::vector<int64_t> shape = {1, kC, kS, kS};
  const int32_t x = b.Data("x", shape);
  const int32_t rp = b.Op("rp", "Relu", {AddSameConv(b, "p", lp, x)});
  b.Output({b.Op("rq", "Relu", {AddSameConv(b, "q", lq, rp)})});
  const om::Model shared = Compile(b.g, AllOn());
  const om::Model alone = Compile(b.g, TempFile("nan_share_off.cfg", "NanScanSharePass:off\n"));
  CHECK(IdOf(shared, "rp", openatc::kXBoundIdAttr) < 0);
  CHECK(IdOf(shared, "rq", openatc::kXBoundIdAttr) == IdOf(shared, "rp", openatc::kYBoundIdAttr));
  CHECK(IdOf(shared, "rq", openatc::kXBoundIdAttr) > 0);

  const size_t n = size_t(kC * kS * kS);
  const float nan = std::nanf(""), huge = float(big);
  const std::vector<std::vector<std::pair<size_t, float>>> steps = {
      {}, {{9, nan}}, {}, {{3, huge}, {70, huge}, {130, -huge}}, {}, {{3, huge}, {4, huge}}, {}};
  for (const om::Model *m : {&shared, &alone}) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(*m));
    auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<nan bound test>");
    for (size_t k = 0; k < steps.size(); ++k) {
      INFO((m == &shared ? "shared" : "alone") << ", step " << k);
      std::vector<float> xv = Integers(n, uint32_t(40 + k), -2, 2);
      for (const auto &[i, v] : steps[k]) xv[i] = v;
      const std::vector<HostTensor> out = model->Run({Host(shape, xv)});
      REQUIRE(out.size() == 1);
      // p's output in float32: each element is one product, rounded to float (2^132 -> inf).
      std::vector<double> pv = RefSameConv(lp, Doubles(xv), kS, false);
      for (double &v : pv) v = double(float(v));
      CheckSame(Values(out[0]), Relu(RefSameConv(lq, Relu(pv), kS, false)), "q");
    }
  }
}
