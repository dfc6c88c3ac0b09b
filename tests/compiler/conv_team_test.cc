// A small Conv that ops/common/conv_core.h's ConvThreads makes serial runs on the whole OpenMP
// team while the team is awake (ConvThreadsNow; the prepared node's second entry,
// ops/common/conv_prepared.h), and on the calling thread alone while it sleeps, with the same
// values either way:
//   x[1, 16, 28, 28] -> a (3x3, 64 ch: 7.2M multiply-adds, dense, always on the team) -> r Relu
//   -> c (1x1, 16 ch: 0.8M multiply-adds, 3 per byte: serial) -> out
// at 2 threads. Run by two ctest entries (tests/compiler/CMakeLists.txt): under
// OMP_WAIT_POLICY=ACTIVE the team's workers spin after a's region, so c runs on 2 threads; under
// PASSIVE they sleep at once, so c runs on 1. The kernel record (--profile's `kernel`) says which.
//
// Exact: x in {0, 1}, weights in {-1, 0, 1}, biases in {-2..2}: every partial sum is an integer
// far below 2^24 (checked), so float32 computes each output exactly and the check is equality.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "openatc/rt/runtime.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

constexpr int64_t kS = 28, kC = 16, kM = 64;

struct Layer {
  int64_t c, m, k;
  std::vector<float> w, b;
};

std::vector<float> Integers(size_t n, uint32_t seed, int lo, int hi) {
  std::vector<float> v = Pattern(n, seed);
  for (auto &x : v) x = std::min(float(hi), std::floor((x + 1.0f) / 2.0f * float(hi - lo + 1)) + float(lo));
  return v;
}

Layer MakeLayer(int64_t c, int64_t m, int64_t k, uint32_t seed) {
  return {c, m, k, Integers(size_t(m * c * k * k), seed, -1, 1), Integers(size_t(m), seed + 100, -2, 2)};
}

// Exact stride-1 "same" convolution of [c, kS, kS]; `mag`: with |W| and |B|.
std::vector<double> RefConv(const Layer &l, const std::vector<double> &x, bool mag) {
  const int64_t pad = l.k / 2;
  std::vector<double> y(size_t(l.m * kS * kS));
  for (int64_t m = 0; m < l.m; ++m)
    for (int64_t i = 0; i < kS; ++i)
      for (int64_t j = 0; j < kS; ++j) {
        double acc = mag ? std::fabs(l.b[size_t(m)]) : l.b[size_t(m)];
        for (int64_t c = 0; c < l.c; ++c)
          for (int64_t a = 0; a < l.k; ++a)
            for (int64_t bb = 0; bb < l.k; ++bb) {
              const int64_t yi = i + a - pad, xj = j + bb - pad;
              if (yi < 0 || yi >= kS || xj < 0 || xj >= kS) continue;
              const double w = l.w[size_t(((m * l.c + c) * l.k + a) * l.k + bb)];
              acc += x[size_t((c * kS + yi) * kS + xj)] * (mag ? std::fabs(w) : w);
            }
        y[size_t((m * kS + i) * kS + j)] = acc;
      }
  return y;
}

int32_t AddConv(Builder &b, const std::string &name, const Layer &l, int32_t x) {
  const int64_t pad = l.k / 2;
  return b.Op(name, "Conv", {x, b.Const(name + "_W", {l.m, l.c, l.k, l.k}, l.w), b.Const(name + "_B", {l.m}, l.b)},
              {{"pads", Ints({pad, pad, pad, pad})}, {"kernel_shape", Ints({l.k, l.k})}});
}

// The kernel record of every node that ran one, by node name.
struct KernelLog : runtime::NodeObserver {
  const om::Model *model = nullptr;
  std::map<std::string, std::string> kernels;
  void Started(size_t) override {}
  void Finished(size_t, const std::vector<runtime::TensorView> &, const std::vector<runtime::TensorView> &) override {}
  void Kernel(size_t index, const std::string &implementations) override {
    kernels[model->graph.nodes[index].name] = implementations;
  }
};

// The threads of the convolution entry of a kernel record ("convolution <impl> (<threads>), reorder
// ..."): "2 threads", "1 thread"; "" when the record holds no convolution.
std::string ConvThreadsOf(const std::string &record) {
  const size_t at = record.find("convolution ");
  if (at == std::string::npos) return "";
  const size_t open = record.find('(', at), close = record.find(')', at);
  return open == std::string::npos || close == std::string::npos ? "" : record.substr(open + 1, close - open - 1);
}

}  // namespace

TEST_CASE("a serial Conv runs on the awake team and alone while it sleeps, with the same values",
          "[.conv_team][compiler][threads]") {
  const char *policy = std::getenv("OMP_WAIT_POLICY");
  REQUIRE(policy != nullptr);
  const bool active = std::string(policy) == "ACTIVE";
  REQUIRE((active || std::string(policy) == "PASSIVE"));

  const Layer la = MakeLayer(kC, kM, 3, 81), lc = MakeLayer(kM, kC, 1, 82);
  const std::vector<float> x = Integers(size_t(kC * kS * kS), 80, 0, 1);
  Builder b;
  const int32_t xi = b.Data("x", {1, kC, kS, kS});
  const int32_t r = b.Op("r", "Relu", {AddConv(b, "a", la, xi)});
  b.Output({AddConv(b, "c", lc, r)});
  const om::Model m = Compile(b.g);

  std::vector<double> want, mag;
  for (bool is_mag : {false, true}) {
    std::vector<double> xd(x.begin(), x.end());
    std::vector<double> h = RefConv(la, xd, is_mag);
    for (auto &v : h) v = std::max(v, 0.0);
    (is_mag ? mag : want) = RefConv(lc, h, is_mag);
  }
  REQUIRE(*std::max_element(mag.begin(), mag.end()) < 16777216.0);

  rt::SetThreadCount(2);
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(m));
  auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<conv team test>");
  KernelLog log;
  log.model = &model->model();
  model->set_node_observer(&log);
  for (int run = 0; run < 3; ++run) {
    INFO("run " << run);
    const std::vector<float> y = Values(model->Run({Host({1, kC, kS, kS}, x)}).at(0));
    REQUIRE(y.size() == want.size());
    size_t wrong = 0;
    for (size_t i = 0; i < y.size(); ++i) wrong += double(y[i]) != want[i];
    CHECK(wrong == 0);
    // Fusion names a + Relu 'r'.
    INFO("r: " << log.kernels["r"] << "; c: " << log.kernels["c"]);
    CHECK(ConvThreadsOf(log.kernels["r"]) == "2 threads");
    CHECK(ConvThreadsOf(log.kernels["c"]) == (active ? "2 threads" : "1 thread"));
  }
  rt::SetThreadCount(0);
}
