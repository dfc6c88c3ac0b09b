// The op compile cache's benchmark (issue 15, stage 7): atc on a 200-node AxpyCustom graph (20
// chains of 10 nodes; each chain its own element count and dtype, so 20 distinct RTC kernels),
// cold (empty cache folder) vs warm (every kernel cached), printing both times and warm / cold
// (the target: <= 5 %). Then the pre-packed weights (atc/compiler/src/passes/
// weight_cache.h): the Conv-heavy shared models ultraface-rfb-320 and super-resolution-10
// (../shared/models; skipped when absent), cold vs warm with the cache on, against the same
// compile with the cache off. Timings are printed, never asserted; the OMs of each pair must be
// identical (exit 1 otherwise).
// Run: OPENATC_BUILD_DIR=<build> OPENATC_SOURCE_DIR=<source> <build>/tests/kernel_cache_bench [repeats]
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

double AtcSeconds(const std::string &model, const std::string &out, const std::string &cache,
                  const std::string &opp = AxpyOpp()) {
  std::vector<std::string> argv = {BuildPath("bin/atc"), "--model", model, "--soc_version", "host", "--output", out};
  if (!cache.empty()) {
    argv.push_back("--op_compiler_cache_mode=enable");
    argv.push_back("--op_compiler_cache_dir=" + cache);
  }
  const auto start = std::chrono::steady_clock::now();
  auto r = opp.empty() ? RunCommand(argv, {}, {"OPENATC_RTC_LAUNCHER", "ASCEND_CUSTOM_OPP_PATH"})
                       : RunCommand(argv, {{"ASCEND_CUSTOM_OPP_PATH", opp}}, {"OPENATC_RTC_LAUNCHER"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.exit_code != 0) {
    std::fprintf(stderr, "atc failed:\n%s", r.err.c_str());
    std::exit(1);
  }
  return s;
}

/** Cold vs warm compiles of shared model `name` with the cache on, and with it off; true when
 *  the cold and warm OMs are identical (or the model is absent). */
bool WeightCase(const std::string &dir, const std::string &name, int repeats) {
  const char *source = std::getenv("OPENATC_SOURCE_DIR");
  const std::string model = std::string(source ? source : "") + "/../shared/models/" + name + "/model.onnx";
  if (source == nullptr || ReadText(model).empty()) {
    std::printf("weights %s: skipped (%s absent)\n", name.c_str(), model.c_str());
    return true;
  }
  double best_off = 1e30, best_cold = 1e30, best_warm = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const std::string cache = dir + "/wcache_" + name + std::to_string(i);
    const double off = AtcSeconds(model, dir + "/w_off", "", "");
    const double cold = AtcSeconds(model, dir + "/w_cold", cache, "");
    const double warm = AtcSeconds(model, dir + "/w_warm", cache, "");
    std::printf("  %s run %d: cache off %.3f s, cold %.3f s, warm %.3f s\n", name.c_str(), i, off, cold, warm);
    best_off = off < best_off ? off : best_off;
    best_cold = cold < best_cold ? cold : best_cold;
    best_warm = warm < best_warm ? warm : best_warm;
  }
  const bool same = ReadText(dir + "/w_cold.om") == ReadText(dir + "/w_warm.om");
  std::printf("weights %s: best cache off %.3f s, cold %.3f s, warm %.3f s, warm/cold = %.1f %%; OMs %s\n", name.c_str(),
              best_off, best_cold, best_warm, 100.0 * best_warm / best_cold, same ? "identical" : "DIFFER");
  return same;
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
    const double cold = AtcSeconds(dir + "/chains.json", dir + "/cold", cache);
    const double warm = AtcSeconds(dir + "/chains.json", dir + "/warm", cache);
    std::printf("  run %d: cold %.3f s, warm %.3f s\n", i, cold, warm);
    best_cold = cold < best_cold ? cold : best_cold;
    best_warm = warm < best_warm ? warm : best_warm;
  }
  const bool same = ReadText(dir + "/cold.om") == ReadText(dir + "/warm.om");
  std::printf("best cold %.3f s, best warm %.3f s, warm/cold = %.1f %% (target <= 5 %%); OMs %s\n", best_cold, best_warm,
              100.0 * best_warm / best_cold, same ? "identical" : "DIFFER");
  bool weights_same = true;
  for (const char *name : {"ultraface-rfb-320", "super-resolution-10"}) weights_same = WeightCase(dir, name, repeats) && weights_same;
  RemoveTree(dir);
  return same && weights_same ? 0 : 1;
}
