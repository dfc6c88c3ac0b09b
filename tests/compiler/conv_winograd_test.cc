// ConvWinogradPass (atc/compiler/src/passes/conv_winograd.cc) and the Winograd algorithm it allows
// at run time (ops/common/conv_core.h UseWinograd):
//   x[1, 16, 28, 28] -> c1 (3x3, stride 1, 32 ch) -> c2 (3x3, stride 2, 16 ch) -> c3 (1x1, 16 ch) -> out
// Only c1 is marked; switched off, none is. On a CPU with oneDNN's AVX-512 Winograd kernels c1's
// 49 output tiles (7x7 of 4x4) run it at 1 or 2 threads (DNNL_VERBOSE names jit_wino_4x3); elsewhere
// the direct algorithm runs and the same bounds hold.
//
// Bound: the direct sums of a K-term layer are within gamma_K of the sum of their terms' magnitudes
// (layout_plan_test.cc); Winograd F(4x4, 3x3) sums transformed terms instead, whose rounding errors
// the input, weight and output transforms scale by at most their matrices' norms (entries up to 8
// in oneDNN's points): we allow 2^10 u per unit of magnitude for the Winograd layer, 1 u per term
// for the direct ones, and carry the error through the later layers by the same |w| weights.
// Measured here (AVX-512, Winograd running): the largest error is 3e-5 of that bound, as with the
// direct algorithm; a wrong tap or tile would be off by the order of the magnitude itself, 2^14
// times the bound.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <map>

#include "openatc/rt/runtime.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

constexpr int64_t kC = 16, kM = 32, kH = 28, kW = 28;

struct Net {
  std::vector<float> x = Pattern(size_t(kC * kH * kW), 40);
  std::vector<float> w1 = Pattern(size_t(kM * kC * 9), 41), b1 = Pattern(size_t(kM), 42);
  std::vector<float> w2 = Pattern(size_t(16 * kM * 9), 43), b2 = Pattern(size_t(16), 44);
  std::vector<float> w3 = Pattern(size_t(16 * 16), 45), b3 = Pattern(size_t(16), 46);

  ir::Graph Graph() const {
    Builder b;
    const int32_t xi = b.Data("x", {1, kC, kH, kW});
    const int32_t c1 = b.Op("c1", "Conv", {xi, b.Const("w1", {kM, kC, 3, 3}, w1), b.Const("b1", {kM}, b1)},
                            {{"pads", Ints({1, 1, 1, 1})}, {"kernel_shape", Ints({3, 3})}});
    const int32_t c2 = b.Op("c2", "Conv", {c1, b.Const("w2", {16, kM, 3, 3}, w2), b.Const("b2", {16}, b2)},
                            {{"pads", Ints({1, 1, 1, 1})}, {"kernel_shape", Ints({3, 3})}, {"strides", Ints({2, 2})}});
    const int32_t c3 = b.Op("c3", "Conv", {c2, b.Const("w3", {16, 16, 1, 1}, w3), b.Const("b3", {16}, b3)},
                            {{"kernel_shape", Ints({1, 1})}});
    b.Output({c3});
    return b.g;
  }
};

// Exact convolution of x [C, h, w] by w [M, C, k, k] (pad k/2, `stride`), plus b; `mag`: on |x|, |w|, |b|.
std::vector<double> Conv(const std::vector<double> &x, int64_t c, int64_t h, int64_t wd, const std::vector<float> &w,
                         const std::vector<float> &b, int64_t m, int64_t k, int64_t stride, bool mag, int64_t *oh,
                         int64_t *ow) {
  const int64_t pad = k / 2;
  *oh = (h + 2 * pad - k) / stride + 1;
  *ow = (wd + 2 * pad - k) / stride + 1;
  std::vector<double> y(size_t(m * *oh * *ow));
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < *oh; ++i)
      for (int64_t j = 0; j < *ow; ++j) {
        double acc = mag ? std::fabs(b[size_t(o)]) : b[size_t(o)];
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t a = 0; a < k; ++a)
            for (int64_t bb = 0; bb < k; ++bb) {
              const int64_t yi = i * stride + a - pad, xj = j * stride + bb - pad;
              if (yi < 0 || yi >= h || xj < 0 || xj >= wd) continue;
              const double wv = w[size_t(((o * c + ci) * k + a) * k + bb)];
              acc += x[size_t((ci * h + yi) * wd + xj)] * (mag ? std::fabs(wv) : wv);
            }
        y[size_t((o * *oh + i) * *ow + j)] = acc;
      }
  return y;
}

// The network's output computed exactly; with `mag`, each layer's magnitudes M1, M2, M3, and the
// bound's weighting: the first layer's magnitude carried through |w2| and |w3| (`carried`).
std::vector<double> Reference(const Net &n, bool mag, std::vector<double> *carried = nullptr) {
  std::vector<double> x(n.x.begin(), n.x.end());
  if (mag)
    for (auto &v : x) v = std::fabs(v);
  int64_t h1, w1, h2, w2, h3, w3;
  const std::vector<double> y1 = Conv(x, kC, kH, kW, n.w1, n.b1, kM, 3, 1, mag, &h1, &w1);
  const std::vector<double> y2 = Conv(y1, kM, h1, w1, n.w2, n.b2, 16, 3, 2, mag, &h2, &w2);
  const std::vector<double> y3 = Conv(y2, 16, h2, w2, n.w3, n.b3, 16, 1, 1, mag, &h3, &w3);
  if (carried != nullptr) {
    const std::vector<float> zero16(16, 0.0f);
    const std::vector<double> c2 = Conv(y1, kM, h1, w1, n.w2, zero16, 16, 3, 2, true, &h2, &w2);
    *carried = Conv(c2, 16, h2, w2, n.w3, zero16, 16, 1, 1, true, &h3, &w3);
  }
  return y3;
}

int64_t WinogradMark(const om::Model &m, const char *name) {
  const ir::Node &n = m.graph.nodes[size_t(m.graph.FindNode(name))];
  auto it = n.attrs.find("openatc_winograd");
  return it == n.attrs.end() ? 0 : it->second.i;
}

}  // namespace

TEST_CASE("ConvWinogradPass marks blocked 3x3 stride-1 Convs; Winograd and direct results meet the bound",
          "[compiler][passes][layout]") {
  const Net net;
  const ir::Graph g = net.Graph();
  const om::Model wino = Compile(g), direct = Compile(g, TempFile("winograd_off.txt", "ConvWinogradPass:off\n"));
  CHECK(WinogradMark(wino, "c1") == 1);
  CHECK(WinogradMark(wino, "c2") == 0);  // stride 2
  CHECK(WinogradMark(wino, "c3") == 0);  // 1x1
  for (const char *n : {"c1", "c2", "c3"}) CHECK(WinogradMark(direct, n) == 0);

  std::vector<double> carried;
  const std::vector<double> want = Reference(net, false), mag = Reference(net, true, &carried);
  const std::vector<HostTensor> in = {Host({1, kC, kH, kW}, net.x)};
  for (const om::Model *m : {&wino, &direct}) {
    const std::vector<float> got = Values(RunModel(*m, in)[0]);
    REQUIRE(got.size() == want.size());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      // Winograd layer: 2^10 u of its magnitude, carried; direct layers: K u of theirs (K <= 288).
      const double bound = 1024 * kU * carried[i] + 2 * (288 + 16) * kU * mag[i];
      worst = std::max(worst, std::fabs(double(got[i]) - want[i]) / bound);
      INFO((m == &wino ? "winograd allowed" : "direct") << ", element " << i << ": " << got[i] << " vs " << want[i]);
      CHECK(std::fabs(double(got[i]) - want[i]) <= bound);
    }
    WARN((m == &wino ? "winograd allowed" : "direct") << ": largest error / bound " << worst);
  }
}

namespace {
// `v` times `k`: c1's bias of the order of its sums (~10^3), so that a slice given the other
// slice's bias is off by far more than the bound.
std::vector<float> Scaled(std::vector<float> v, float k) {
  for (auto &x : v) x *= k;
  return v;
}

// Records the kernel implementations each node ran (omrun --profile's source).
struct KernelLog : runtime::NodeObserver {
  std::map<size_t, std::string> kernels;
  void Started(size_t) override {}
  void Finished(size_t, const std::vector<runtime::TensorView> &, const std::vector<runtime::TensorView> &) override {}
  void Kernel(size_t index, const std::string &impl) override { kernels[index] = impl; }
};
}  // namespace

TEST_CASE("a narrow 3x3 Conv on 2 threads computes Winograd in two channel slices at once; values meet the bound",
          "[compiler][passes][layout]") {
  // x[1,16,14,14] -> c0 (1x1, 128 ch) -> c1 (3x3, 96 ch) -> c2 (3x3, stride 2, 16 ch) -> c3 (1x1) -> out.
  // c1 (21.7M multiply-adds) reads and writes the chain layout; its 16 output tiles are enough
  // for one thread's Winograd but not for two (UseWinograd), so on 2 threads it runs as two
  // slices of 48 output channels, each a one-thread Winograd primitive (SplitWinograd,
  // ops/common/conv_core.h).
  constexpr int64_t c = 16, m0 = 128, m1 = 96, h = 14;
  const std::vector<float> x = Pattern(size_t(c * h * h), 50), w0 = Pattern(size_t(m0 * c), 51),
                           b0 = Pattern(size_t(m0), 52), w1 = Pattern(size_t(m1 * m0 * 9), 53),
                           b1 = Scaled(Pattern(size_t(m1), 54), 256), w2 = Pattern(size_t(16 * m1 * 9), 55),
                           b2 = Pattern(size_t(16), 56), w3 = Pattern(size_t(16 * 16), 57), b3 = Pattern(size_t(16), 58);
  Builder b;
  const int32_t xi = b.Data("x", {1, c, h, h});
  const int32_t c0 = b.Op("c0", "Conv", {xi, b.Const("w0", {m0, c, 1, 1}, w0), b.Const("b0", {m0}, b0)},
                          {{"kernel_shape", Ints({1, 1})}});
  const int32_t c1 = b.Op("c1", "Conv", {c0, b.Const("w1", {m1, m0, 3, 3}, w1), b.Const("b1", {m1}, b1)},
                          {{"pads", Ints({1, 1, 1, 1})}, {"kernel_shape", Ints({3, 3})}});
  const int32_t c2 = b.Op("c2", "Conv", {c1, b.Const("w2", {16, m1, 3, 3}, w2), b.Const("b2", {16}, b2)},
                          {{"pads", Ints({1, 1, 1, 1})}, {"kernel_shape", Ints({3, 3})}, {"strides", Ints({2, 2})}});
  b.Output({b.Op("c3", "Conv", {c2, b.Const("w3", {16, 16, 1, 1}, w3), b.Const("b3", {16}, b3)},
                 {{"kernel_shape", Ints({1, 1})}})});
  const om::Model model = Compile(b.g);
  REQUIRE(WinogradMark(model, "c1") == 1);
  // The exact values, the magnitudes, and c1's magnitude carried through |w2| and |w3|.
  std::vector<double> want, mag, carried;
  for (bool mg : {false, true}) {
    std::vector<double> xd(x.begin(), x.end());
    if (mg)
      for (auto &v : xd) v = std::fabs(v);
    int64_t oh, ow, h2, w2d;
    const std::vector<double> y0 = Conv(xd, c, h, h, w0, b0, m0, 1, 1, mg, &oh, &ow);
    const std::vector<double> y1 = Conv(y0, m0, h, h, w1, b1, m1, 3, 1, mg, &oh, &ow);
    const std::vector<double> y2 = Conv(y1, m1, h, h, w2, b2, 16, 3, 2, mg, &h2, &w2d);
    (mg ? mag : want) = Conv(y2, 16, h2, w2d, w3, b3, 16, 1, 1, mg, &oh, &ow);
    if (mg) {
      const std::vector<float> zero16(16, 0.0f);
      const std::vector<double> k2 = Conv(y1, m1, h, h, w2, zero16, 16, 3, 2, true, &h2, &w2d);
      carried = Conv(k2, 16, h2, w2d, w3, zero16, 16, 1, 1, true, &oh, &ow);
    }
  }
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(model));
  auto loaded = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<split test>");
  KernelLog log;
  loaded->set_node_observer(&log);
  const size_t c1_index = size_t(loaded->model().graph.FindNode("c1"));
  std::map<int, std::string> kernel;
  for (int threads : {2, 1}) {  // 2 first: a later run could find an earlier one's c1 in the arena
    rt::SetThreadCount(threads);
    const std::vector<float> got = Values(loaded->Run({Host({1, c, h, h}, x)})[0]);
    kernel[threads] = log.kernels[c1_index];
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      // As above: 2^10 u of the Winograd layer's magnitude, carried; K u of the direct ones' (K <= 1152).
      const double bound = 1024 * kU * carried[i] + 3 * (1152 + 16) * kU * mag[i];
      INFO(threads << " thread(s), element " << i << ": " << got[i] << " vs " << want[i]);
      CHECK(std::fabs(double(got[i]) - want[i]) <= bound);
    }
  }
  rt::SetThreadCount(0);
  // Where this CPU has oneDNN's Winograd (AVX-512), c1 runs it on 2 threads as on 1.
  INFO("c1 ran " << kernel[1] << " on 1 thread, " << kernel[2] << " on 2");
  if (kernel[1].find("wino") != std::string::npos) CHECK(kernel[2].find("wino") != std::string::npos);
}
