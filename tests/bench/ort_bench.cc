// Benchmark (not a test): omrun vs ONNX Runtime (onnxruntime-node 1.30.0, README.md "Benchmarks")
// on the shared real models, same model file, same inputs (test_data_set_0), same thread count.
// For each model and thread count it prints the median latency of both (warm-up runs excluded)
// and the ratio omrun/ORT, the load time (OM load vs InferenceSession.create) and the peak
// resident memory of each process.
//
// How each side is measured: both run as child processes, one per model and thread count, so
// each peak RSS (wait4's ru_maxrss) covers one model only. Latency and load are timed inside the
// child, so process start is excluded on both sides: omrun's own `--warmup W --loop R` report
// ("load:" = LoadModelFile, "median" of R runs of LoadedModel::Run), ORT's by ort_peer.js
// (InferenceSession.create, then R runs of session.run). `--threads N` governs omrun's block pool
// and oneDNN's OpenMP team; ORT gets intraOpNumThreads N, interOpNumThreads 1.
//
// Usage: ort_bench [--models a,b] [--threads 1,2] [--runs 20] [--warmup 5] [--quick] [--busy]
//                  [--shared DIR] [--peer DIR] [--node PATH]
//   --busy    keep one core busy with a spinning child process for the whole run, and print per
//             model omrun's 2-thread/1-thread median ratio under that load (issue target <= 1.3).
//   --quick   mnist-8 only, 1 thread, 2 runs, 1 warm-up, and any failure exits 1 (the ctest).
//   --peer    folder with node_modules/onnxruntime-node (default <build>/ort-peer, installed by
//             `make bench-ort`); when absent, ORT is skipped with a message.
// Exit: 0, or 1 when a compiled model fails to run (any failure under --quick), 2 on bad flags.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "bench_util.h"
#include "run_command.h"

using namespace openatc::bench;

namespace {

struct Flags {
  std::vector<std::string> models = {"mnist-8", "ultraface-rfb-320", "ppocr-mobile-v2-cls", "super-resolution-10",
                                     "ppocr-v4-det"};
  std::vector<int> threads = {1, 2};
  int runs = 20, warmup = 5;
  bool quick = false, busy = false;
  std::string shared, peer, node = "node";
};

// One side's numbers for one model and thread count; `error` set when it did not run.
struct Side {
  std::string error;
  double median_ms = 0, load_ms = 0;
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
  s.rss_kb = c.max_rss_kb;
  if (s.load_ms < 0 || s.median_ms < 0) s.error = "omrun printed no timings: " + FirstLine(c.out);
  return s;
}

Side RunOrt(const Flags &f, const SharedModel &m, int threads, const std::string &log) {
  Child c = RunChild({f.node, SourceDir("tests/bench/ort_peer.js"), "--peer", f.peer, "--model", m.onnx, "--inputs",
                      JoinList(m.inputs), "--threads", std::to_string(threads), "--runs", std::to_string(f.runs),
                      "--warmup", std::to_string(f.warmup)},
                     1800, log);
  Side s;
  std::smatch e;
  if (std::regex_search(c.out, e, std::regex("\"error\":\"([^\"]*)\""))) {
    s.error = "ORT: " + e[1].str();
  } else if (c.exit_code != 0) {
    s.error = "node exit " + std::to_string(c.exit_code) + ": " + FirstLine(c.err);
  } else {
    s.load_ms = Number(c.out, "\"load_ms\":([0-9.eE+-]+)");
    s.median_ms = Number(c.out, "\"median_ms\":([0-9.eE+-]+)");
    s.base_rss_kb = static_cast<long>(Number(c.out, "\"base_rss_kb\":([0-9]+)"));
    s.rss_kb = c.max_rss_kb;
    if (s.load_ms < 0 || s.median_ms < 0) s.error = "ort_peer.js printed no timings: " + FirstLine(c.out);
  }
  return s;
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
              "peak RSS = each child process's ru_maxrss (ORT's includes Node.js itself, shown as 'node base').\n\n",
              BuildDir("bin/omrun").c_str(), f.warmup, f.runs);
  std::printf("%-20s %3s | %10s %10s %7s | %9s %9s %7s | %9s %9s %7s\n", "model", "thr", "omrun ms", "ORT ms",
              "ratio", "load om", "load ORT", "ratio", "RSS om", "RSS ORT", "ratio");
  std::printf("%-20s %3s | %10s %10s %7s | %9s %9s %7s | %9s %9s %7s\n", "", "", "median", "median", "om/ORT", "ms",
              "ms", "om/ORT", "MiB", "MiB", "om/ORT");
  bool failed = false;
  long node_base_kb = 0;
  const pid_t spinner = f.busy ? StartSpinner() : -1;
  for (const SharedModel &m : FindSharedModels(f.shared, f.models)) {
    if (m.onnx.empty()) {
      std::printf("%-20s skipped: no model.onnx under %s\n", m.name.c_str(), f.shared.c_str());
      failed = failed || f.quick;
      continue;
    }
    const std::string om = work + "/" + m.name;
    const std::string why = CompileWithAtc(m.onnx, om);
    if (!why.empty()) {
      std::printf("%-20s skipped: %s\n", m.name.c_str(), why.c_str());
      failed = failed || f.quick;
      continue;
    }
    double ms1 = 0, ms2 = 0;  // omrun's medians at 1 and 2 threads (--busy's ratio)
    for (int t : f.threads) {
      const std::string log = work + "/" + m.name + "_t" + std::to_string(t);
      const Side o = RunOmrun(f, om + ".om", m, t, log + "_omrun");
      Side r;
      if (no_ort.empty()) r = RunOrt(f, m, t, log + "_ort");
      else r.error = "skipped";
      if (!o.error.empty()) std::printf("%-20s %3d | omrun failed: %s\n", m.name.c_str(), t, o.error.c_str());
      if (!r.error.empty() && no_ort.empty())
        std::printf("%-20s %3d | ORT failed: %s\n", m.name.c_str(), t, r.error.c_str());
      failed = failed || !o.error.empty() || (f.quick && no_ort.empty() && !r.error.empty());
      if (!o.error.empty()) continue;
      if (t == 1) ms1 = o.median_ms;
      if (t == 2) ms2 = o.median_ms;
      if (r.error.empty()) {
        node_base_kb = std::max(node_base_kb, r.base_rss_kb);
        std::printf("%-20s %3d | %10.3f %10.3f %7.2f | %9.1f %9.1f %7.2f | %9.1f %9.1f %7.2f\n", m.name.c_str(), t,
                    o.median_ms, r.median_ms, o.median_ms / r.median_ms, o.load_ms, r.load_ms, o.load_ms / r.load_ms,
                    o.rss_kb / 1024.0, r.rss_kb / 1024.0, static_cast<double>(o.rss_kb) / static_cast<double>(r.rss_kb));
      } else {
        std::printf("%-20s %3d | %10.3f %10s %7s | %9.1f %9s %7s | %9.1f %9s %7s\n", m.name.c_str(), t, o.median_ms,
                    "-", "-", o.load_ms, "-", "-", o.rss_kb / 1024.0, "-", "-");
      }
      std::fflush(stdout);
    }
    if (f.busy && ms1 > 0 && ms2 > 0)
      std::printf("%-20s     | one core busy: omrun 2-thread / 1-thread = %.2f (target <= 1.3)\n", m.name.c_str(),
                  ms2 / ms1);
  }
  StopSpinner(spinner);
  if (node_base_kb > 0) std::printf("\nnode base: Node.js's RSS before InferenceSession.create: %.1f MiB\n", node_base_kb / 1024.0);
  openatc::testing::RemoveTree(work);
  return failed ? 1 : 0;
}
