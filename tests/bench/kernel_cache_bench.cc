// The op compile cache's benchmark (issue 15, stage 7): atc on a 200-node AxpyCustom graph (20
// chains of 10 nodes; each chain its own element count and dtype, so 20 distinct RTC kernels),
// cold (empty cache folder) vs warm (every kernel cached), printing both times and warm / cold
// (the target: <= 5 %). Timings are printed, never asserted.
// Run: OPENATC_BUILD_DIR=<build> <build>/tests/kernel_cache_bench [repeats]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "e2e_util.h"

using namespace openatc::testing;

namespace {

constexpr int kChains = 20;
constexpr int kChainLength = 10;

/** Chain c: Data a_c, b_c -> axpy_c_0(a_c, b_c) -> axpy_c_1(axpy_c_0, b_c) -> ... ; outputs the ends. */
std::string ChainsGraphJson() {
  std::string ops, outputs;
  int data_index = 0;
  for (int c = 0; c < kChains; ++c) {
    const std::string dtype = c % 2 == 0 ? "DT_FLOAT" : "DT_INT32";
    const std::string desc = DescJson(dtype, {c + 1, 64});
    const std::string a = "a" + std::to_string(c), b = "b" + std::to_string(c);
    const int ia = data_index++, ib = data_index++;
    ops += (ops.empty() ? "" : ", ") + DataOpJson(a, ia, desc) + ", " + DataOpJson(b, ib, desc);
    std::string prev = a;
    for (int k = 0; k < kChainLength; ++k) {
      const std::string name = "axpy_" + std::to_string(c) + "_" + std::to_string(k);
      ops += ", { \"name\": \"" + name + "\", \"type\": \"AxpyCustom\", \"input\": [\"" + prev + ":0\", \"" + b +
             ":0\"], \"attr\": { \"alpha\": { \"f\": 0.5 } } }";
      prev = name;
    }
    outputs += (outputs.empty() ? "\"" : ", \"") + prev + ":0\"";
  }
  return "{ \"name\": \"chains\", \"graph\": [ { \"name\": \"chains\", \"output\": [" + outputs + "], \"op\": [" + ops +
         "] } ] }";
}

double AtcSeconds(const std::string &dir, const std::string &cache, const std::string &out) {
  const auto start = std::chrono::steady_clock::now();
  auto r = RunCommand({BuildPath("bin/atc"), "--model", dir + "/chains.json", "--soc_version", "host", "--output",
                       dir + "/" + out, "--op_compiler_cache_mode=enable", "--op_compiler_cache_dir=" + cache},
                      {{"ASCEND_CUSTOM_OPP_PATH", AxpyOpp()}}, {"OPENATC_RTC_LAUNCHER"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.exit_code != 0) {
    std::fprintf(stderr, "atc failed:\n%s", r.err.c_str());
    std::exit(1);
  }
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/chains.json", ChainsGraphJson());
  std::printf("kernel_cache_bench: %d AxpyCustom nodes, %d distinct kernels, %d repeat(s)\n", kChains * kChainLength,
              kChains, repeats);
  double best_cold = 1e30, best_warm = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const std::string cache = dir + "/cache" + std::to_string(i);
    const double cold = AtcSeconds(dir, cache, "cold");
    const double warm = AtcSeconds(dir, cache, "warm");
    std::printf("  run %d: cold %.3f s, warm %.3f s\n", i, cold, warm);
    best_cold = cold < best_cold ? cold : best_cold;
    best_warm = warm < best_warm ? warm : best_warm;
  }
  const bool same = ReadText(dir + "/cold.om") == ReadText(dir + "/warm.om");
  std::printf("best cold %.3f s, best warm %.3f s, warm/cold = %.1f %% (target <= 5 %%); OMs %s\n", best_cold, best_warm,
              100.0 * best_warm / best_cold, same ? "identical" : "DIFFER");
  RemoveTree(dir);
  return same ? 0 : 1;
}
