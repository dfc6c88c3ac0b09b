// Benchmark (not a test; the lifecycle issue's memory-plan figures): for every shared model that
// compiles, the static memory plan's arena bytes (LoadedModel::arena_bytes, the number
// `omrun --info` prints) vs the sum of all planned tensor bytes (what one buffer per tensor
// would take) vs the peak of live bytes over the execution order (the lower bound for a plan
// without in-place reuse), computed here from the graph's edges independently of the planner
// (arena_stats.h), with the ratios sum/arena (memory saved) and arena/peak (distance from the
// bound). It also checks that no two tensors alive at once overlap in the arena.
//
// Models whose inputs have run-time dims (the ppocr ones) have no plan as compiled; they are
// compiled a second time with --input_shape fixed to their test_data_set_0 input shapes.
//
// Usage: arena_bench [--models a,b] [--quick] [--shared DIR]
//   default: every model under ../shared/models (onnx-light's too); --quick: mnist-8 only.
// Exit: 0; 1 when a plan is invalid (overlap, not topological) or, under --quick, on any failure.
#include <cstdio>
#include <string>
#include <vector>

#include "arena_stats.h"
#include "bench_util.h"
#include "openatc/common/error.h"
#include "openatc/runtime/model.h"
#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::bench;

namespace {

// "name:d0,d1;name2:..." from the model's input names and the reference inputs' shapes; "" when
// no input has a run-time dim or the shapes are unknown.
std::string FixedInputShape(const runtime::LoadedModel &m, const SharedModel &sm) {
  bool dynamic = false;
  for (const auto &io : m.inputs())
    for (int64_t d : io.shape) dynamic = dynamic || d < 0;
  if (!dynamic || sm.inputs.size() != m.inputs().size()) return "";
  std::string spec;
  for (size_t i = 0; i < sm.inputs.size(); ++i) {
    const tensor_io::HostTensor t = tensor_io::ReadOnnxTensorPb(sm.inputs[i]);
    std::string dims;
    for (int64_t d : t.shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
    spec += (spec.empty() ? "" : ";") + m.inputs()[i].name + ":" + dims;
  }
  return spec;
}

std::string CompileFixed(const std::string &onnx, const std::string &shape, const std::string &out) {
  Child c = RunChild({BuildDir("bin/atc"), "--model", onnx, "--soc_version", "host", "--output", out, "--log", "error",
                      "--input_shape", shape},
                     900, out + ".atc");
  if (c.exit_code == 0) return "";
  return "atc --input_shape " + shape + " failed: " + c.err.substr(0, c.err.find('\n'));
}

double Ratio(uint64_t a, uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

}  // namespace

int main(int argc, char **argv) {
  bool quick = false;
  std::string shared = SourceDir("../shared/models");
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--models" && i + 1 < argc) {
      names = SplitList(argv[++i]);
    } else if (a == "--shared" && i + 1 < argc) {
      shared = argv[++i];
    } else {
      std::fprintf(stderr, "arena_bench: unknown flag or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  if (quick) names = {"mnist-8"};
  if (!Exists(shared)) {
    std::printf("arena_bench: skipped: %s is absent\n", shared.c_str());
    return 0;
  }
  std::vector<SharedModel> models = names.empty() ? AllSharedModels(shared) : FindSharedModels(shared, names);
  const std::string work = testing::MakeTempDir();
  std::printf("arena = the plan's arena (omrun --info); sum = all planned tensors' bytes; peak = max bytes of\n"
              "planned tensors alive at one step (lower bound; 'peak512' rounds each tensor up to 512 B as the\n"
              "planner does). Graph inputs/outputs live in caller buffers and are not counted.\n\n");
  std::printf("%-40s %6s %12s %12s %12s %12s %8s %8s\n", "model", "tensors", "arena B", "sum B", "peak B", "peak512 B",
              "sum/ar", "ar/peak");
  bool failed = false;
  for (const SharedModel &sm : models) {
    if (sm.onnx.empty()) {
      std::printf("%-40s skipped: no model.onnx\n", sm.name.c_str());
      failed = failed || quick;
      continue;
    }
    std::string out = work + "/m" + std::to_string(&sm - models.data());
    std::string why = CompileWithAtc(sm.onnx, out);
    if (!why.empty()) {
      std::printf("%-40s skipped: %s\n", sm.name.c_str(), why.c_str());
      failed = failed || quick;
      continue;
    }
    std::string label = sm.name;
    try {
      auto m = runtime::LoadModelFile(out + ".om");
      const std::string fixed = FixedInputShape(*m, sm);
      if (!fixed.empty()) {
        why = CompileFixed(sm.onnx, fixed, out + "_fixed");
        if (!why.empty()) {
          std::printf("%-40s no plan (run-time shapes); %s\n", sm.name.c_str(), why.c_str());
          failed = failed || quick;
          continue;
        }
        m = runtime::LoadModelFile(out + "_fixed.om");
        label += " (fixed shape)";
      }
      const ArenaStats s = ComputeArenaStats(m->model().graph);
      if (!s.has_plan || m->arena_bytes() == 0) {
        std::printf("%-40s no plan: %zu of %zu op outputs have a run-time size, first: %s\n", label.c_str(),
                    s.unknown, s.unknown + s.candidates, s.first_unknown.c_str());
        continue;
      }
      std::printf("%-40s %6zu %12zu %12llu %12llu %12llu %8.2f %8.2f\n", label.c_str(), s.planned, m->arena_bytes(),
                  static_cast<unsigned long long>(s.sum_bytes), static_cast<unsigned long long>(s.peak_live),
                  static_cast<unsigned long long>(s.peak_live_aligned), Ratio(s.sum_bytes, m->arena_bytes()),
                  Ratio(m->arena_bytes(), s.peak_live));
      if (!s.error.empty() || s.arena_end_aligned != m->arena_bytes() || s.planned != s.candidates) {
        std::printf("  INVALID PLAN: %s%s%s\n", s.error.c_str(),
                    s.arena_end_aligned != m->arena_bytes() ? " (arena differs from the offsets' 512-aligned extent)" : "",
                    s.planned != s.candidates ? " (some static tensors have no offset)" : "");
        failed = true;
      }
    } catch (const Error &e) {
      std::printf("%-40s load failed: %s\n", label.c_str(), e.Format("arena_bench").c_str());
      failed = failed || quick;
    }
    std::fflush(stdout);
  }
  testing::RemoveTree(work);
  return failed ? 1 : 0;
}
