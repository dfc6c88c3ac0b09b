// Benchmark (not a test): the per-node cost of a static model's sink replay vs calling Execute on
// every run (the dynamic path), over 1000 runs of the compilable_add_custom graph (2 AddCustom
// nodes, [4,4] float32). Both are measured in the same process, same inputs; prints both and the
// ratio. Run: <build>/tests/sink_bench (needs <build>/bin/atc and the example's OPP root).
#include <chrono>
#include <cstdio>
#include <cstring>

#include "openatc/runtime/model.h"
#include "run_command.h"

using namespace openatc;

namespace {
double MeasureUs(runtime::LoadedModel &m, const std::vector<HostTensor> &in, int runs) {
  for (int i = 0; i < 10; ++i) m.Run(in);  // warm-up (and the recording run of the sink mode)
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) m.Run(in);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main() {
  const int runs = 1000, nodes = 2;
  const std::string dir = testing::MakeTempDir();
  auto atc = testing::RunCommand({testing::BuildPath("bin/atc"), "--model",
                                  testing::SourcePath("examples/compilable_add_custom/single_add.json"),
                                  "--soc_version", "host", "--output", dir + "/m"},
                                 {{"ASCEND_CUSTOM_OPP_PATH", testing::BuildPath("examples/compilable_add_custom/opp")}});
  if (atc.exit_code != 0) {
    std::fprintf(stderr, "atc failed:\n%s", atc.err.c_str());
    return 1;
  }
  HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {4, 4};
  x.data.assign(64, 0);
  auto sink = runtime::LoadModelFile(dir + "/m.om");
  auto eager = runtime::LoadModelFile(dir + "/m.om");
  eager->set_execution_mode(runtime::ExecutionMode::kEager);
  const double sink_us = MeasureUs(*sink, {x}, runs);
  const double eager_us = MeasureUs(*eager, {x}, runs);
  std::printf("graph: compilable_add_custom single_add (%d nodes), %d runs\n", nodes, runs);
  std::printf("sink replay:        %8.2f us/run  %8.2f us/node\n", sink_us / runs, sink_us / runs / nodes);
  std::printf("Execute every run:  %8.2f us/run  %8.2f us/node\n", eager_us / runs, eager_us / runs / nodes);
  std::printf("ratio (Execute every run / replay): %.2f x\n", eager_us / sink_us);
  testing::RemoveTree(dir);
  return 0;
}
