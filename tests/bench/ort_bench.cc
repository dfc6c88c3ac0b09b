// Benchmark (not a test): omrun vs ONNX Runtime (onnxruntime-node 1.30.0, README.md "Benchmarks")
// on the shared real models, same model file, same inputs (test_data_set_0), same thread count.
// For each model and thread count it prints the median and p90 latency of both (warm-up runs
// excluded) and the median ratio omrun/ORT, the load time (OM load vs InferenceSession.create) and
// the peak resident memory of each process; per model, the floating-point work of its Conv,
// ConvTranspose, MatMul and Gemm nodes (from one `omrun --profile` run, model_flops.h) and the
// GFLOP/s both achieve next to this CPU's peak at that thread count, measured (fma_peak.h).
// Models without test data (onnx-light's) are fed zeros of their declared input shapes, written
// by ort_peer.js and fed to omrun too (random inputs when ORT is unavailable).
//
// How each side is measured: both run as child processes, one per model and thread count, so
// each peak RSS (wait4's ru_maxrss) covers one model only. Latency and load are timed inside the
// child, so process start is excluded on both sides: omrun's own `--warmup W --loop R` report
// ("load:" = LoadModelFile, "median" of R runs of LoadedModel::Run), ORT's by ort_peer.js
// (InferenceSession.create, then R runs of session.run). `--threads N` governs omrun's block pool
// and oneDNN's OpenMP team; ORT gets intraOpNumThreads N, interOpNumThreads 1.
// A shared VM's speed drifts by 5-10 % over seconds, more than the differences measured, so each
// model and thread count is measured in `--rounds` rounds that alternate the sides (omrun first
// in odd rounds, ORT first in even ones): both sides see the same drift. A side's median, p90
// and load are the medians of its rounds' values; its peak RSS is the largest of its rounds'.
//
// Usage: ort_bench [--models a,b] [--threads 1,2] [--runs 20] [--warmup 5] [--rounds 3] [--quick] [--busy]
//                  [--shared DIR] [--peer DIR] [--node PATH]
//   --busy    keep one core busy with a spinning child process for the whole run, and print per
//             model omrun's 2-thread/1-thread median ratio under that load (issue target <= 1.3).
//   --quick   mnist-8 only, 1 thread, 2 runs, 1 warm-up, 1 round, and any failure exits 1 (the ctest).
//   --peer    folder with node_modules/onnxruntime-node (default <build>/ort-peer, installed by
//             `make bench-ort`); when absent, ORT is skipped with a message.
// Exit: 0, or 1 when a compiled model fails to run (any failure under --quick), 2 on bad flags.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.h"
#include "fma_peak.h"
#include "model_flops.h"
#include "run_command.h"

using namespace openatc::bench;

namespace {

struct Flags {
  std::vector<std::string> models = {"mnist-8",
                                     "ultraface-rfb-320",
                                     "ppocr-mobile-v2-cls",
                                     "super-resolution-10",
                                     "ppocr-v4-det",
                                     "onnx-light/light_resnet50",
                                     "onnx-light/light_densenet121",
                                     "onnx-light/light_inception_v2",
                                     "ezkl-self-attention",
                                     "ezkl-multihead-attention"};
  std::vector<int> threads = {1, 2};
  int runs = 20, warmup = 5, rounds = 3;
  bool quick = false, busy = false;
  std::string shared, peer, node = "node";
};

// One side's numbers for one model and thread count; `error` set when it did not run.
struct Side {
  std::string error;
  double median_ms = 0, p90_ms = 0, load_ms = 0;
  long rss_kb = 0, base_rss_kb = 0;
};

bool ParseInt(const std::string &s, int lo, int *out) {
  char *end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < lo || v > 100000) return false;
  *out = static_cast<int>(v);
  return true;
}

bool ParseFlags(int argc, char **argv, Flags *f) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick" || a == "--busy") {
      (a == "--quick" ? f->quick : f->busy) = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "ort_bench: %s needs a value (or unknown flag)\n", a.c_str());
      return false;
    }
    const std::string v = argv[++i];
    bool ok = true;
    if (a == "--models") {
      f->models = SplitList(v);
    } else if (a == "--threads") {
      f->threads.clear();
      for (const auto &t : SplitList(v)) {
        int n = 0;
        ok = ok && ParseInt(t, 1, &n);
        f->threads.push_back(n);
      }
    } else if (a == "--runs") {
      ok = ParseInt(v, 1, &f->runs);
    } else if (a == "--warmup") {
      ok = ParseInt(v, 0, &f->warmup);
    } else if (a == "--rounds") {
      ok = ParseInt(v, 1, &f->rounds);
    } else if (a == "--shared") {
      f->shared = v;
    } else if (a == "--peer") {
      f->peer = v;
    } else if (a == "--node") {
      f->node = v;
    } else {
      std::fprintf(stderr, "ort_bench: unknown flag %s\n", a.c_str());
      return false;
    }
    if (!ok) {
      std::fprintf(stderr, "ort_bench: bad value '%s' for %s\n", v.c_str(), a.c_str());
      return false;
    }
  }
  if (f->quick) {
    f->models = {"mnist-8"};
    f->threads = {1};
    f->runs = 2;
    f->warmup = 1;
    f->rounds = 1;
  }
  return true;
}

double Number(const std::string &text, const std::string &pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::atof(m[1].str().c_str());
}

std::string FirstLine(const std::string &s) { return s.substr(0, std::min(s.find('\n'), size_t{300})); }

Side RunOmrun(const Flags &f, const std::string &om, const SharedModel &m, int threads, const std::string &log) {
  std::vector<std::string> argv = {BuildDir("bin/omrun"), om, "--threads", std::to_string(threads), "--warmup",
                                   std::to_string(f.warmup), "--loop", std::to_string(f.runs)};
  if (!m.inputs.empty()) argv.insert(argv.end(), {"--input", JoinList(m.inputs)});
  Child c = RunChild(argv, 1800, log);
  Side s;
  if (c.exit_code != 0) {
    s.error = "omrun " + (c.timed_out ? std::string("timed out") : "exit " + std::to_string(c.exit_code)) + ": " +
              FirstLine(c.err.empty() ? c.out : c.err);
    return s;
  }
  s.load_ms = Number(c.out, "load: ([0-9.]+) ms");
  s.median_ms = Number(c.out, "median ([0-9.]+) ms");
  s.p90_ms = Number(c.out, "p90 ([0-9.]+) ms");
  s.rss_kb = c.max_rss_kb;
  if (s.load_ms < 0 || s.median_ms < 0 || s.p90_ms < 0) s.error = "omrun printed no timings: " + FirstLine(c.out);
  return s;
}

// `save_inputs`: a folder where ort_peer.js writes the tensors it fed (zeros when `m` has no inputs).
Side RunOrt(const Flags &f, const SharedModel &m, int threads, const std::string &log, int runs, int warmup,
            const std::string &save_inputs = "") {
  std::vector<std::string> argv = {f.node, SourceDir("tests/bench/ort_peer.js"), "--peer", f.peer, "--model", m.onnx,
                                   "--inputs", JoinList(m.inputs), "--threads", std::to_string(threads), "--runs",
                                   std::to_string(runs), "--warmup", std::to_string(warmup)};
  if (!save_inputs.empty()) argv.insert(argv.end(), {"--save_inputs", save_inputs});
  Child c = RunChild(argv, 1800, log);
  Side s;
  std::smatch e;
  if (std::regex_search(c.out, e, std::regex("\"error\":\"([^\"]*)\""))) {
    s.error = "ORT: " + e[1].str();
  } else if (c.exit_code != 0) {
    s.error = "node exit " + std::to_string(c.exit_code) + ": " + FirstLine(c.err);
  } else {
    s.load_ms = Number(c.out, "\"load_ms\":([0-9.eE+-]+)");
    s.median_ms = Number(c.out, "\"median_ms\":([0-9.eE+-]+)");
    s.p90_ms = Number(c.out, "\"p90_ms\":([0-9.eE+-]+)");
    s.base_rss_kb = static_cast<long>(Number(c.out, "\"base_rss_kb\":([0-9]+)"));
    s.rss_kb = c.max_rss_kb;
    if (s.load_ms < 0 || s.median_ms < 0 || s.p90_ms < 0)
      s.error = "ort_peer.js printed no timings: " + FirstLine(c.out);
  }
  return s;
}

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

// One side's rounds as one Side: the medians of the rounds' median, p90 and load, the largest
// peak RSS; the first error of any round.
Side CombineRounds(const std::vector<Side> &rounds) {
  Side s;
  std::vector<double> median, p90, load;
  for (const Side &r : rounds) {
    if (!r.error.empty()) return r;
    median.push_back(r.median_ms);
    p90.push_back(r.p90_ms);
    load.push_back(r.load_ms);
    s.rss_kb = std::max(s.rss_kb, r.rss_kb);
    s.base_rss_kb = std::max(s.base_rss_kb, r.base_rss_kb);
  }
  s.median_ms = MedianOf(median);
  s.p90_ms = MedianOf(p90);
  s.load_ms = MedianOf(load);
  return s;
}

// Floating-point work of one run of `om` (model_flops.h), from one `omrun --profile` run.
FlopCount ModelFlops(const std::string &om, const SharedModel &m, const std::string &stem) {
  const std::string trace = stem + ".trace.json";
  std::vector<std::string> argv = {BuildDir("bin/omrun"), om, "--loop", "1", "--profile", trace};
  if (!m.inputs.empty()) argv.insert(argv.end(), {"--input", JoinList(m.inputs)});
  Child c = RunChild(argv, 600, stem + "_flops");
  FlopCount r;
  if (c.exit_code != 0) {
    r.error = "omrun --profile failed: " + FirstLine(c.err.empty() ? c.out : c.err);
    return r;
  }
  std::ifstream in(trace);
  std::stringstream text;
  text << in.rdbuf();
  return CountProfileFlops(text.str());
}

CpuPeak ThisCpuPeak() {
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  return PeakFromCpuinfo(text.str());
}

// Why ORT cannot run here ("" when it can).
std::string OrtUnavailable(const Flags &f, const std::string &work) {
  if (!Exists(f.peer + "/node_modules/onnxruntime-node"))
    return f.peer + "/node_modules/onnxruntime-node is absent (run `make bench-ort`)";
  Child c = RunChild({f.node, "--version"}, 30, work + "/node_version");
  if (c.exit_code != 0) return "'" + f.node + " --version' failed: is Node.js installed?";
  return "";
}

// A child process that keeps one core busy until StopSpinner (--busy).
pid_t StartSpinner() {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    for (volatile unsigned long i = 0;; i = i + 1) {
    }
  }
  if (pid > 0) std::printf("one core kept busy by a spinning child process (pid %d)\n", static_cast<int>(pid));
  return pid;
}

void StopSpinner(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

}  // namespace

int main(int argc, char **argv) {
  Flags f;
  if (!ParseFlags(argc, argv, &f)) return 2;
  if (f.shared.empty()) f.shared = SourceDir("../shared/models");
  if (f.peer.empty()) f.peer = BuildDir("ort-peer");
  if (!Exists(f.shared)) {
    std::printf("ort_bench: skipped: %s is absent\n", f.shared.c_str());
    return 0;
  }
  const std::string work = openatc::testing::MakeTempDir();
  const std::string no_ort = OrtUnavailable(f, work);
  if (!no_ort.empty()) std::printf("ORT: skipped: %s\n", no_ort.c_str());
  std::printf("omrun (%s, timed in-process) vs onnxruntime-node (ort_peer.js); inputs test_data_set_0;\n"
              "%d warm-up run(s) excluded, median of %d runs; process start excluded on both sides;\n"
              "%d round(s) per model and thread count, the sides alternating; medians of the rounds' values;\n"
              "peak RSS = each child process's ru_maxrss (ORT's includes Node.js itself, shown as 'node base').\n\n",
              BuildDir("bin/omrun").c_str(), f.warmup, f.runs, f.rounds);
  // The peak each thread count is set against: measured (fma_peak.h), before any spinner starts.
  const CpuPeak formula = ThisCpuPeak();
  std::map<int, double> peak;
  std::printf("CPU peak, measured: a loop of fp32 FMAs only (%s) reaches", RunFmaLoop(0).isa.c_str());
  for (int t : f.threads) {
    peak[t] = MeasureFmaPeak(t, 0.3);
    std::printf(" %.1f GFLOP/s on %d thread(s);", peak[t], t);
  }
  std::printf("\n  (the formula %d lanes x 2 x %.2f GHz = %.1f per thread counts one FMA unit at the listed clock)\n"
              "  A model's GFLOP/s counts the direct algorithm's operations; a Winograd convolution does fewer,\n"
              "  so a model that runs it can show more than 100 %% of the peak.\n\n",
              formula.lanes, formula.ghz, formula.gflops_per_thread);
  std::printf("%-29s %3s | %9s %9s | %9s %9s | %7s | %8s %8s %6s | %7s %7s %6s\n", "model", "thr", "omrun ms", "",
              "ORT ms", "", "ratio", "load om", "load ORT", "ratio", "RSS om", "RSS ORT", "ratio");
  std::printf("%-29s %3s | %9s %9s | %9s %9s | %7s | %8s %8s %6s | %7s %7s %6s\n", "", "", "median", "p90", "median",
              "p90", "om/ORT", "ms", "ms", "om/ORT", "MiB", "MiB", "om/ORT");
  bool failed = false;
  long node_base_kb = 0;
  const pid_t spinner = f.busy ? StartSpinner() : -1;
  for (SharedModel m : FindSharedModels(f.shared, f.models)) {
    if (m.onnx.empty()) {
      std::printf("%-29s skipped: no model under %s\n", m.name.c_str(), f.shared.c_str());
      failed = failed || f.quick;
      continue;
    }
    std::string flat = m.name;  // "onnx-light/light_X" -> one file name
    std::replace(flat.begin(), flat.end(), '/', '_');
    const std::string om = work + "/" + flat;
    const std::string why = CompileWithAtc(m.onnx, om);
    if (!why.empty()) {
      std::printf("%-29s skipped: %s\n", m.name.c_str(), why.c_str());
      failed = failed || f.quick;
      continue;
    }
    if (m.inputs.empty() && no_ort.empty()) {  // zeros of the declared shapes, for both sides
      const std::string dir = om + "_inputs";
      ::mkdir(dir.c_str(), 0755);
      const Side z = RunOrt(f, m, 1, om + "_zeros", 1, 0, dir);
      for (int k = 0; z.error.empty() && Exists(dir + "/input_" + std::to_string(k) + ".pb"); ++k)
        m.inputs.push_back(dir + "/input_" + std::to_string(k) + ".pb");
      if (!z.error.empty()) std::printf("%-29s     | ORT could not make zero inputs: %s\n", m.name.c_str(), z.error.c_str());
    }
    const FlopCount flops = ModelFlops(om + ".om", m, om);
    if (!flops.error.empty()) std::printf("%-29s     | FLOPs not counted: %s\n", m.name.c_str(), flops.error.c_str());
    std::vector<std::string> gflops_lines;
    double ms1 = 0, ms2 = 0;  // omrun's medians at 1 and 2 threads (--busy's ratio)
    for (int t : f.threads) {
      const std::string log = om + "_t" + std::to_string(t);
      std::vector<Side> os, rs;
      for (int round = 0; round < f.rounds; ++round) {
        const std::string tag = "_r" + std::to_string(round);
        if (round % 2 == 1 && no_ort.empty()) rs.push_back(RunOrt(f, m, t, log + tag + "_ort", f.runs, f.warmup));
        os.push_back(RunOmrun(f, om + ".om", m, t, log + tag + "_omrun"));
        if (round % 2 == 0 && no_ort.empty()) rs.push_back(RunOrt(f, m, t, log + tag + "_ort", f.runs, f.warmup));
      }
      const Side o = CombineRounds(os);
      Side r;
      if (no_ort.empty()) r = CombineRounds(rs);
      else r.error = "skipped";
      if (!o.error.empty()) std::printf("%-29s %3d | omrun failed: %s\n", m.name.c_str(), t, o.error.c_str());
      if (!r.error.empty() && no_ort.empty())
        std::printf("%-29s %3d | ORT failed: %s\n", m.name.c_str(), t, r.error.c_str());
      failed = failed || !o.error.empty() || (f.quick && no_ort.empty() && !r.error.empty());
      if (!o.error.empty()) continue;
      if (t == 1) ms1 = o.median_ms;
      if (t == 2) ms2 = o.median_ms;
      if (r.error.empty()) {
        node_base_kb = std::max(node_base_kb, r.base_rss_kb);
        std::printf("%-29s %3d | %9.3f %9.3f | %9.3f %9.3f | %7.2f | %8.1f %8.1f %6.2f | %7.1f %7.1f %6.2f\n",
                    m.name.c_str(), t, o.median_ms, o.p90_ms, r.median_ms, r.p90_ms, o.median_ms / r.median_ms,
                    o.load_ms, r.load_ms, o.load_ms / r.load_ms, o.rss_kb / 1024.0, r.rss_kb / 1024.0,
                    static_cast<double>(o.rss_kb) / static_cast<double>(r.rss_kb));
      } else {
        std::printf("%-29s %3d | %9.3f %9.3f | %9s %9s | %7s | %8.1f %8s %6s | %7.1f %7s %6s\n", m.name.c_str(), t,
                    o.median_ms, o.p90_ms, "-", "-", "-", o.load_ms, "-", "-", o.rss_kb / 1024.0, "-", "-");
      }
      if (flops.error.empty() && flops.flops > 0) {
        const double gf = flops.flops / 1e9, top = peak[t];
        char line[256], ort[32] = "-";
        if (r.error.empty()) std::snprintf(ort, sizeof(ort), "%.1f", gf / (r.median_ms / 1e3));
        std::snprintf(line, sizeof(line), " %d thr: omrun %.1f GFLOP/s (%.0f%% of %.1f peak), ORT %s GFLOP/s;", t,
                      gf / (o.median_ms / 1e3), top > 0 ? 100 * gf / (o.median_ms / 1e3) / top : 0.0, top, ort);
        gflops_lines.push_back(line);
      }
      std::fflush(stdout);
    }
    if (!gflops_lines.empty()) {
      std::printf("%-29s     | %.3f GFLOP per run (%d Conv/ConvTranspose/MatMul/Gemm nodes);", m.name.c_str(),
                  flops.flops / 1e9, flops.nodes);
      for (const auto &l : gflops_lines) std::printf("%s", l.c_str());
      std::printf("\n");
    }
    if (f.busy && ms1 > 0 && ms2 > 0)
      std::printf("%-29s     | one core busy: omrun 2-thread / 1-thread = %.2f (target <= 1.3)\n", m.name.c_str(),
                  ms2 / ms1);
  }
  StopSpinner(spinner);
  if (node_base_kb > 0) std::printf("\nnode base: Node.js's RSS before InferenceSession.create: %.1f MiB\n", node_base_kb / 1024.0);
  openatc::testing::RemoveTree(work);
  return failed ? 1 : 0;
}
