// The ops' OpenMP entry points when libdnnl is bound elsewhere (ops/common/omp_binding.h): this
// process opens libdnnl RTLD_LOCAL before anything loads the built-in ops, as a kernel binary or
// OPP library linked to libdnnl would, so libdnnl binds to libgomp while the ops library's own
// calls would reach its own runtime. The entry points must then forward to libgomp: `--threads
// N` still sizes oneDNN's team exactly (here a libgomp team: no thread named openatc-omp) and the
// values are those of one thread.
#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "op_harness.h"
#include "process_tasks.h"
#include "openatc/rt/runtime.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

// Before main: the emulated Ascend910B1 (24 AI Cores; the thread count is --threads exactly), and
// libdnnl loaded first, with its own dependencies as its scope.
const bool kEmulated = setenv("OPENATC_EMULATION", "1", 1) == 0;
void *const kDnnl = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);

OpCase ConvCase() {
  std::vector<float> x(1 * 16 * 24 * 24), w(32 * 16 * 3 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 5) % 11) - 5.0f;
  return {"Conv", {{Tensor(ge::DT_FLOAT, {1, 16, 24, 24}, x)}, {Tensor(ge::DT_FLOAT, {32, 16, 3, 3}, w)}},
          {{"pads", IntsAttr({1, 1, 1, 1})}}};
}

}  // namespace

TEST_CASE("with libdnnl bound to libgomp, the ops' thread counts reach libgomp's team", "[ops][threads]") {
  REQUIRE(kEmulated);
  REQUIRE(kDnnl != nullptr);
  const int start = ProcessTasks();
  rt::SetThreadCount(1);
  auto one = RunOp(ConvCase());
  const int at_one = ProcessTasks();
  // One more than the cores: libgomp's own default would be the core count.
  const int n = static_cast<int>(std::min(std::thread::hardware_concurrency(), 63u)) + 1;
  rt::SetThreadCount(n);
  auto many = RunOp(ConvCase());
  const int at_n = ProcessTasks();
  rt::SetThreadCount(0);
  CHECK(at_one == start);
  CHECK(at_n - at_one == n - 1);
  CHECK(ProcessTasks("openatc-omp") == 0);
  CHECK(Values<float>(one[0]) == Values<float>(many[0]));
}
