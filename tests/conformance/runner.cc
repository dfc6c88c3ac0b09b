// Case discovery, one case through atc + omrun, and the worker pool.
#include "runner.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "subprocess.h"

namespace openatc::conformance {
namespace {

std::vector<std::string> ListDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool IsFile(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// "<prefix>_<k>.pb" files of a data set, in k order.
std::vector<std::string> Numbered(const std::string &dir, const std::string &prefix) {
  std::vector<std::string> out;
  for (int k = 0;; ++k) {
    std::string p = dir + "/" + prefix + "_" + std::to_string(k) + ".pb";
    if (!IsFile(p)) break;
    out.push_back(p);
  }
  return out;
}

std::string Join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

// The first line of stderr that carries an error, shortened.
std::string FirstErrorLine(const std::string &err) {
  size_t pos = err.find("error: ");
  size_t start = pos == std::string::npos ? 0 : err.rfind('\n', pos);
  start = start == std::string::npos || pos == std::string::npos ? 0 : start + 1;
  std::string line = err.substr(start, err.find('\n', start) - start);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

// For an OA1503/OA1104 refusal: the op types it names ("op type 'X'").
std::string UnsupportedSummary(const std::string &err) {
  std::vector<std::string> types;
  for (size_t p = err.find("op type '"); p != std::string::npos; p = err.find("op type '", p + 1)) {
    size_t s = p + 9, e = err.find('\'', s);
    if (e == std::string::npos) break;
    std::string t = err.substr(s, e - s);
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  }
  std::string other;
  if (err.find("has dtype") != std::string::npos) other += " dtype";
  if (err.find("domain '") != std::string::npos && err.find("is not supported (only the default") != std::string::npos)
    other += " domain";
  if (err.find("attribute '") != std::string::npos && err.find("of kind") != std::string::npos) other += " subgraph";
  if (err.find("not a dense tensor") != std::string::npos) other += " sequence";
  std::string s = types.empty() ? "" : "ops: " + Join(types);
  if (!other.empty()) s += s.empty() ? other.substr(1) : ";" + other;
  return s.empty() ? FirstErrorLine(err) : s;
}

std::string Describe(const ProcessResult &r, const std::string &tool, double timeout) {
  if (r.timed_out) return tool + " timed out after " + std::to_string(static_cast<int>(timeout)) + " s";
  if (r.signal) return tool + " killed by signal " + std::to_string(r.signal);
  return tool + " exit " + std::to_string(r.exit_code) + ": " + FirstErrorLine(r.err);
}

void RemoveTree(const std::string &path) {
  for (const auto &n : ListDir(path)) {
    std::string p = path + "/" + n;
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) RemoveTree(p);
    else ::unlink(p.c_str());
  }
  ::rmdir(path.c_str());
}

}  // namespace

const char *OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "pass";
    case Outcome::kMismatch: return "mismatch";
    case Outcome::kUnsupported: return "unsupported";
    case Outcome::kError: return "error";
    case Outcome::kCrash: return "crash";
  }
  return "?";
}

std::vector<std::string> ListCases(const std::string &data_root, const std::vector<std::string> &folders) {
  std::vector<std::string> ids;
  for (const auto &f : folders)
    for (const auto &c : ListDir(data_root + "/" + f))
      if (IsFile(data_root + "/" + f + "/" + c + "/model.onnx")) ids.push_back(f + "/" + c);
  return ids;
}

CaseResult RunCase(const RunConfig &cfg, const std::string &id) {
  const auto t0 = std::chrono::steady_clock::now();
  CaseResult res;
  res.id = id;
  const std::string case_dir = cfg.data_root + "/" + id;
  std::string flat = id;
  std::replace(flat.begin(), flat.end(), '/', '_');
  const std::string work = cfg.work_dir + "/" + flat;
  ::mkdir(work.c_str(), 0755);
  auto finish = [&](Outcome o, std::string detail) {
    res.outcome = o;
    res.detail = std::move(detail);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    RemoveTree(work);
    return res;
  };

  ProcessResult a = RunWithTimeout({cfg.atc, "--model", case_dir + "/model.onnx", "--framework", "5",
                                    "--soc_version", "host", "--output", work + "/m", "--log", "error"},
                                   cfg.timeout_s, work + "/atc");
  if (a.timed_out || a.signal) return finish(Outcome::kCrash, Describe(a, "atc", cfg.timeout_s));
  if (a.exit_code != 0) {
    const bool refused = a.err.find("error: OA1503") != std::string::npos || a.err.find("error: OA1104") != std::string::npos;
    if (refused) return finish(Outcome::kUnsupported, UnsupportedSummary(a.err));
    return finish(Outcome::kError, Describe(a, "atc", cfg.timeout_s));
  }
  std::vector<std::string> sets;
  for (const auto &n : ListDir(case_dir))
    if (n.rfind("test_data_set_", 0) == 0) sets.push_back(n);
  if (sets.empty()) return finish(Outcome::kError, "no test_data_set_* folder");
  for (const auto &set : sets) {
    const std::string dir = case_dir + "/" + set;
    std::vector<std::string> argv = {cfg.omrun, work + "/m.om", "--output", work + "/out"};
    auto inputs = Numbered(dir, "input"), outputs = Numbered(dir, "output");
    if (!inputs.empty()) argv.insert(argv.end(), {"--input", Join(inputs)});
    char atol[32], rtol[32];
    std::snprintf(atol, sizeof(atol), "%g", cfg.atol);
    std::snprintf(rtol, sizeof(rtol), "%g", cfg.rtol);
    argv.insert(argv.end(), {"--expected_output", Join(outputs), "--atol", atol, "--rtol", rtol});
    ProcessResult r = RunWithTimeout(argv, cfg.timeout_s, work + "/omrun");
    if (r.timed_out || r.signal) return finish(Outcome::kCrash, Describe(r, "omrun", cfg.timeout_s));
    if (r.exit_code == 1) {
      std::string line = FirstErrorLine(r.err.empty() ? r.out : r.err);
      return finish(Outcome::kMismatch, set + ": " + line);
    }
    if (r.exit_code != 0) return finish(Outcome::kError, set + ": " + Describe(r, "omrun", cfg.timeout_s));
  }
  return finish(Outcome::kPass, "");
}

std::vector<CaseResult> RunAll(const RunConfig &cfg, const std::vector<std::string> &ids, int jobs) {
  std::vector<CaseResult> results(ids.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex print;
  auto worker = [&] {
    for (size_t i = next++; i < ids.size(); i = next++) {
      results[i] = RunCase(cfg, ids[i]);
      size_t d = ++done;
      if (d % 50 == 0 || d == ids.size()) {
        std::lock_guard<std::mutex> lock(print);
        std::fprintf(stderr, "onnx_conformance: %zu/%zu cases run\n", d, ids.size());
      }
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::max(1, jobs); ++j) pool.emplace_back(worker);
  for (auto &t : pool) t.join();
  return results;
}

}  // namespace openatc::conformance
