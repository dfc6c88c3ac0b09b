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
#include "same_conv_ref.h"

using namespace pass_test;

namespace {

constexpr int64_t kS = 28, kC = 16, kM = 64;

SameConvLayer MakeLayer(int64_t c, int64_t m, int64_t k, uint32_t seed) {
  return {c, m, k, Integers(size_t(m * c * k * k), seed, -1, 1), Integers(size_t(m), seed + 100, -2, 2)};
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

  const SameConvLayer la = MakeLayer(kC, kM, 3, 81), lc = MakeLayer(kM, kC, 1, 82);
  const std::vector<float> x = Integers(size_t(kC * kS * kS), 80, 0, 1);
  Builder b;
  const int32_t xi = b.Data("x", {1, kC, kS, kS});
  const int32_t r = b.Op("r", "Relu", {AddSameConv(b, "a", la, xi)});
  b.Output({AddSameConv(b, "c", lc, r)});
  const om::Model m = Compile(b.g);

  std::vector<double> want, mag;
  for (bool is_mag : {false, true}) {
    std::vector<double> xd(x.begin(), x.end());
    std::vector<double> h = RefSameConv(la, xd, kS, is_mag);
    for (auto &v : h) v = std::max(v, 0.0);
    (is_mag ? mag : want) = RefSameConv(lc, h, kS, is_mag);
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
