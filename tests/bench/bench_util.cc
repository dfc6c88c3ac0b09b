// Paths, shared-model discovery, atc compilation and child processes with rusage for the model
// benchmarks (see bench_util.h).
#include "bench_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

namespace openatc::bench {
namespace {

std::string ReadHead(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string s(1 << 20, '\0');
  in.read(&s[0], static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

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

bool EndsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

SharedModel ModelInFolder(const std::string &root, const std::string &name) {
  SharedModel m;
  m.name = name;
  const std::string dir = root + "/" + name;
  if (name.rfind("onnx-light/", 0) == 0) {  // a bare light_X.onnx without inputs
    if (Exists(dir + ".onnx")) m.onnx = dir + ".onnx";
    return m;
  }
  if (!Exists(dir + "/model.onnx")) return m;
  m.onnx = dir + "/model.onnx";
  for (const auto &f : ListDir(dir))
    if (f.rfind("model_opset", 0) == 0 && EndsWith(f, ".onnx")) m.onnx = dir + "/" + f;
  const std::string set = dir + "/test_data_set_0";
  for (int k = 0; Exists(set + "/input_" + std::to_string(k) + ".pb"); ++k)
    m.inputs.push_back(set + "/input_" + std::to_string(k) + ".pb");
  return m;
}

}  // namespace

std::string BuildDir(const std::string &relative) {
  const char *b = std::getenv("OPENATC_BUILD_DIR");
  return std::string(b != nullptr && *b ? b : OPENATC_BENCH_BUILD_DIR) + "/" + relative;
}

std::string SourceDir(const std::string &relative) {
  const char *s = std::getenv("OPENATC_SOURCE_DIR");
  return std::string(s != nullptr && *s ? s : OPENATC_BENCH_SOURCE_DIR) + "/" + relative;
}

bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<SharedModel> FindSharedModels(const std::string &root, const std::vector<std::string> &names) {
  std::vector<SharedModel> out;
  for (const auto &n : names) out.push_back(ModelInFolder(root, n));
  return out;
}

std::vector<SharedModel> AllSharedModels(const std::string &root) {
  std::vector<SharedModel> out;
  for (const auto &dir : ListDir(root)) {
    if (dir == "onnx-light") {
      for (const auto &f : ListDir(root + "/" + dir))
        if (EndsWith(f, ".onnx")) out.push_back({dir + "/" + f.substr(0, f.size() - 5), root + "/" + dir + "/" + f, {}});
      continue;
    }
    SharedModel m = ModelInFolder(root, dir);
    if (!m.onnx.empty()) out.push_back(m);
  }
  return out;
}

Child RunChild(const std::vector<std::string> &argv, double timeout_s, const std::string &log_prefix) {
  Child r;
  const std::string out_path = log_prefix + ".out", err_path = log_prefix + ".err";
  std::vector<char *> args;
  for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.err = "fork failed";
    return r;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) ::dup2(out, 1);
    if (err >= 0) ::dup2(err, 2);
    ::unsetenv("ASCEND_CUSTOM_OPP_PATH");
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  struct rusage ru {};
  for (;;) {
    if (::wait4(pid, &status, WNOHANG, &ru) == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::wait4(pid, &status, 0, &ru);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.max_rss_kb = ru.ru_maxrss;
  r.out = ReadHead(out_path);
  r.err = ReadHead(err_path);
  return r;
}

std::string CompileWithAtc(const std::string &onnx, const std::string &out_prefix) {
  Child c = RunChild({BuildDir("bin/atc"), "--model", onnx, "--soc_version", "host", "--output", out_prefix, "--log",
                      "error"},
                     900, out_prefix + ".atc");
  if (c.timed_out) return "atc timed out";
  if (c.signal != 0) return "atc killed by signal " + std::to_string(c.signal);
  if (c.exit_code == 0) return "";
  std::string e = c.err.empty() ? c.out : c.err;
  const size_t p = e.find("error");
  if (p != std::string::npos) e = e.substr(p);
  e = e.substr(0, e.find('\n'));
  return "atc exit " + std::to_string(c.exit_code) + ": " + e;
}

std::vector<std::string> SplitList(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    const std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string JoinList(const std::vector<std::string> &items) {
  std::string s;
  for (const auto &x : items) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace openatc::bench
