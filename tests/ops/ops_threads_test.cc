// The run path's threading (docs/architecture.md, Threads): `--threads N` (rt::SetThreadCount)
// sizes oneDNN's OpenMP team exactly, also under OPENATC_EMULATION (whose chip reports 24 AI
// Cores), and it is the ops library's own team (ops/common/omp_team.h), which sleeps once its work is
// done, while any libgomp team sleeps at once (GOMP_SPINCOUNT=0 chosen by the runtime);
// and ops run from several threads at once, without a process-wide lock, give the same values.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

#include "op_harness.h"
#include "process_tasks.h"
#include "openatc/common/openmp_policy.h"
#include "openatc/rt/runtime.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

// Before main, before any library could read it: the emulated Ascend910B1 (24 AI Cores), and
// whether the user chose an OpenMP wait policy of their own.
const bool kEmulated = setenv("OPENATC_EMULATION", "1", 1) == 0;
const bool kUserPolicy = std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr;


// CPU time (ms) of the process's threads other than the calling one (/proc/self/task/*/schedstat:
// time on a CPU in ns): what an OpenMP team burns while the caller sleeps, without the caller's own
// wake-ups, which a loaded machine inflates.
double OtherThreadsCpuMs() {
  const std::string self = std::to_string(gettid());
  double ms = 0;
  const bool ok = ForEachTask([&](const std::string &tid, const std::string &task) {
    if (tid != self) ms += TaskCpuMs(task);
  });
  return ok ? ms : -1;
}

// A Conv with small-integer data (exact f32 sums) big enough for oneDNN to split over 2 threads.
OpCase ConvCase(float scale) {
  std::vector<float> x(1 * 16 * 24 * 24), w(32 * 16 * 3 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = scale * (static_cast<float>((i * 7) % 13) - 6.0f);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 5) % 11) - 5.0f;
  return {"Conv", {{Tensor(ge::DT_FLOAT, {1, 16, 24, 24}, x)}, {Tensor(ge::DT_FLOAT, {32, 16, 3, 3}, w)}},
          {{"pads", IntsAttr({1, 1, 1, 1})}}};
}

// One output value computed directly: y[0, oc, oh, ow] of ConvCase(scale).
float ConvAt(float scale, int oc, int oh, int ow) {
  double s = 0;
  for (int ic = 0; ic < 16; ++ic)
    for (int kh = 0; kh < 3; ++kh)
      for (int kw = 0; kw < 3; ++kw) {
        const int ih = oh + kh - 1, iw = ow + kw - 1;
        if (ih < 0 || iw < 0 || ih >= 24 || iw >= 24) continue;
        const size_t xi = (static_cast<size_t>(ic) * 24 + ih) * 24 + iw, wi = ((oc * 16 + ic) * 3 + kh) * 3 + kw;
        s += scale * (static_cast<double>((xi * 7) % 13) - 6.0) * (static_cast<double>((wi * 5) % 11) - 5.0);
      }
  return static_cast<float>(s);
}
}  // namespace

TEST_CASE("--threads 2 gives oneDNN a team of exactly 2 threads under emulation", "[ops][threads]") {
  REQUIRE(kEmulated);
  const int tasks_start = ProcessTasks();
  rt::SetThreadCount(1);
  auto one = RunOp(ConvCase(1.0f));
  const int tasks_one = ProcessTasks();
  rt::SetThreadCount(2);
  auto two = RunOp(ConvCase(1.0f));
  const int tasks_two = ProcessTasks();
  rt::SetThreadCount(0);
  CHECK(tasks_one == tasks_start);    // no OpenMP worker at 1 thread
  CHECK(tasks_two - tasks_one == 1);  // one next to the caller at 2, not 23
  CHECK(ProcessTasks("openatc-omp") == 1);  // ops/common/omp_team.h kWorkerName, not libgomp's
  CHECK(Values<float>(one[0]) == Values<float>(two[0]));
  CHECK(Values<float>(two[0])[(5 * 24 + 7) * 24 + 11] == ConvAt(1.0f, 5, 7, 11));
}

TEST_CASE("the OpenMP team sleeps after its work", "[ops][threads]") {
  if (kUserPolicy) {  // the user's choice is kept, and reported
    const char *wait = std::getenv("OMP_WAIT_POLICY");
    CHECK(PrepareOpenMpWaitPolicy() == (wait ? std::string("OMP_WAIT_POLICY=") + wait
                                             : std::string("GOMP_SPINCOUNT=") + std::getenv("GOMP_SPINCOUNT")));
    return;
  }
  rt::SetThreadCount(2);
  RunOp(ConvCase(1.0f));
  rt::SetThreadCount(0);
  CHECK(PrepareOpenMpWaitPolicy() == "GOMP_SPINCOUNT=0");
  CHECK(std::string(std::getenv("GOMP_SPINCOUNT")) == "0");
  // The ops' own team spins for at most kSpinMicros (0.1 ms) after a region, then sleeps: from
  // 10 ms after the region on, its workers burn nothing. Measured on the CI machine: libgomp's
  // default spin (300000 rounds) burns ~0.5 ms of CPU after a region, ACTIVE spins for good
  // (~90 ms of the 200), a passive team ~0.03 ms.
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const double cpu0 = OtherThreadsCpuMs();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(OtherThreadsCpuMs() - cpu0 < 0.2);
}

TEST_CASE("oneDNN ops run from two threads at once give the values of one", "[ops][threads]") {
  rt::SetThreadCount(2);
  std::vector<HostTensor> a, b;
  std::thread ta([&] { a = RunOp(ConvCase(1.0f)); });
  std::thread tb([&] { b = RunOp(ConvCase(-2.0f)); });
  ta.join();
  tb.join();
  rt::SetThreadCount(0);
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  const std::vector<float> va = Values<float>(a[0]), vb = Values<float>(b[0]);
  REQUIRE(va.size() == 32u * 24 * 24);
  REQUIRE(vb.size() == va.size());
  for (int oc : {0, 17, 31})
    for (int oh : {0, 12, 23}) {
      CHECK(va[(oc * 24 + oh) * 24 + 3] == ConvAt(1.0f, oc, oh, 3));
      CHECK(vb[(oc * 24 + oh) * 24 + 3] == ConvAt(-2.0f, oc, oh, 3));
    }
}

TEST_CASE("a Conv with a fused Relu keeps a NaN anywhere in an input the team scans", "[ops][threads]") {
  // x [1, 8, 96, 96]: 73,728 values, three of ops/common/conv_nan.h's kNanScanSlice (32,768), so on
  // 2 threads the team scans them. A 1x1 Conv of weights 1 sums the 8 channels; the fused Relu is
  // oneDNN's NaN-losing one, so each NaN reaches Y only through the scan and the replay.
  ir::AttrValue relu;
  relu.kind = ir::AttrKind::kListString;
  relu.list_s = {"eltwise_relu"};
  constexpr int64_t kHw = 96 * 96;
  for (int64_t at : {int64_t{0}, int64_t{40000}, 8 * kHw - 1}) {  // in the first, second and last slice
    INFO("NaN at x element " << at);
    std::vector<float> x(8 * kHw);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(int64_t(i) % 7 - 3);
    x[size_t(at)] = NAN;
    for (int threads : {1, 2}) {
      INFO(threads << " thread(s)");
      rt::SetThreadCount(threads);
      const std::vector<float> y =
          Values<float>(RunOp({"Conv",
                               {{Tensor(ge::DT_FLOAT, {1, 8, 96, 96}, x)},
                                {Tensor(ge::DT_FLOAT, {1, 8, 1, 1}, std::vector<float>(8, 1.0f)), true}},
                               {{"openatc_post_ops", relu},
                                {"openatc_post_alpha", FloatsAttr({0.0f})},
                                {"openatc_post_beta", FloatsAttr({0.0f})}}})[0]);
      rt::SetThreadCount(0);
      REQUIRE(y.size() == size_t(kHw));
      int64_t wrong = 0;
      for (int64_t p = 0; p < kHw; ++p) {
        double s = 0;
        for (int64_t c = 0; c < 8; ++c) s += double((c * kHw + p) % 7 - 3);
        const bool nan_here = p == at % kHw;
        if (nan_here ? !std::isnan(y[size_t(p)]) : y[size_t(p)] != static_cast<float>(std::max(s, 0.0))) ++wrong;
      }
      CHECK(wrong == 0);
    }
  }
}
