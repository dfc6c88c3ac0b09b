// Test support: subprocesses via fork/exec with stdout/stderr captured through temp files.
#include "run_command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace openatc::testing {

std::string ReadText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string MakeTempDir() {
  const char *tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/oa-test-XXXXXX";
  if (::mkdtemp(&templ[0]) == nullptr) throw std::runtime_error("mkdtemp failed");
  return templ;
}

void RemoveTree(const std::string &path) {
  if (path.size() < 8) return;
  RunCommand({"/bin/rm", "-rf", path});
}

std::string BuildPath(const std::string &relative) {
  const char *b = std::getenv("OPENATC_BUILD_DIR");
  if (b == nullptr) throw std::runtime_error("OPENATC_BUILD_DIR is not set (run the tests through ctest)");
  return std::string(b) + "/" + relative;
}

std::string SourcePath(const std::string &relative) {
  const char *s = std::getenv("OPENATC_SOURCE_DIR");
  if (s == nullptr) throw std::runtime_error("OPENATC_SOURCE_DIR is not set (run the tests through ctest)");
  return std::string(s) + "/" + relative;
}

CommandResult RunCommand(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set_env,
                         const std::vector<std::string> &unset_env) {
  std::string dir = MakeTempDir();
  std::string out_path = dir + "/out", err_path = dir + "/err";
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    for (const auto &name : unset_env) ::unsetenv(name.c_str());
    for (const auto &kv : set_env) ::setenv(kv.first.c_str(), kv.second.c_str(), 1);
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadText(out_path);
  r.err = ReadText(err_path);
  ::unlink(out_path.c_str());
  ::unlink(err_path.c_str());
  ::rmdir(dir.c_str());
  return r;
}

}  // namespace openatc::testing
