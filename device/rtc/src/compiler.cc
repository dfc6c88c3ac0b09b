// Runs the host compiler for the RTC: clang reads the source on stdin and the GNU linker writes
// the shared object to a memfd (/proc/self/fd/N, inherited by the compiler's children), so no
// file outlives the call and no random path lands in the output. In-memory headers go to a
// private temporary folder that is removed before returning (its path is remapped to "." in
// the output by -ffile-prefix-map). stdin and the merged stdout/stderr are serviced together
// with poll(), so large sources or logs cannot deadlock.
#include "compiler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "openatc/common/error.h"

extern char **environ;

namespace openatc {
namespace rtc {
namespace {

[[noreturn]] void Fail(int code, const std::string &message, const std::string &hint = {}) {
  throw openatc::Error(ErrorCategory::kInternal, "ACL" + std::to_string(code), message, hint);
}

/** Closes a file descriptor when it goes out of scope. */
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { Reset(); }
  void Reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

bool FileExists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

/** A temporary folder holding in-memory headers; removed (with its files) on destruction. */
class HeaderDir {
 public:
  explicit HeaderDir(const std::vector<std::pair<std::string, std::string>> &headers) {
    if (headers.empty()) return;
    const char *tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/openatc-rtc-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) == nullptr) {
      Fail(ACL_ERROR_RTC_FAILURE, std::string("cannot create a folder for in-memory headers: ") + std::strerror(errno));
    }
    dir_ = buf.data();
    for (const auto &h : headers) {
      std::string path = dir_ + "/" + h.first;
      files_.push_back(path);
      std::ofstream out(path, std::ios::binary);
      out << h.second;
      if (!out) Fail(ACL_ERROR_RTC_FAILURE, "cannot write in-memory header '" + h.first + "'");
    }
  }
  ~HeaderDir() {
    for (const auto &f : files_) unlink(f.c_str());
    if (!dir_.empty()) rmdir(dir_.c_str());
  }
  const std::string &path() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

std::vector<uint8_t> ReadAll(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) Fail(ACL_ERROR_RTC_FAILURE, std::string("fstat of the output memfd failed: ") + std::strerror(errno));
  std::vector<uint8_t> out(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out.size()) {
    ssize_t r = pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) Fail(ACL_ERROR_RTC_FAILURE, "reading the compiled binary from its memfd failed");
    done += static_cast<size_t>(r);
  }
  return out;
}

/** Writes `input` to `in_fd` and collects `out_fd` until EOF, without blocking on either. */
std::string Pump(Fd &in_fd, Fd &out_fd, const std::string &input) {
  std::string output;
  size_t written = 0;
  if (input.empty()) in_fd.Reset();
  fcntl(in_fd.fd, F_SETFL, O_NONBLOCK);
  char buf[16384];
  while (out_fd.fd >= 0) {
    pollfd fds[2];
    nfds_t n = 0;
    fds[n++] = {out_fd.fd, POLLIN, 0};
    if (in_fd.fd >= 0) fds[n++] = {in_fd.fd, POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      Fail(ACL_ERROR_RTC_FAILURE, std::string("poll failed while running the compiler: ") + std::strerror(errno));
    }
    if (n > 1 && fds[1].revents != 0) {
      ssize_t w = send(in_fd.fd, input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in_fd.Reset();  // EOF for clang
    }
    if (fds[0].revents != 0) {
      ssize_t r = read(out_fd.fd, buf, sizeof buf);
      if (r > 0) {
        output.append(buf, static_cast<size_t>(r));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        out_fd.Reset();
      }
    }
  }
  return output;
}

}  // namespace

std::string CompilerPath() {
  const char *env = std::getenv("OPENATC_HOST_CXX");
  if (env != nullptr && *env != '\0') return env;
#ifdef OPENATC_HOST_CXX_DEFAULT_PATH
  if (OPENATC_HOST_CXX_DEFAULT_PATH[0] != '\0' && FileExists(OPENATC_HOST_CXX_DEFAULT_PATH)) return OPENATC_HOST_CXX_DEFAULT_PATH;
#endif
  return "clang++";
}

/** The folder of the binary holding this code: libacl_rtc.so (P/lib64) or bisheng (P/bin). */
static std::string SelfDir() {
  Dl_info info;
  std::string self;
  if (dladdr(reinterpret_cast<void *>(&SelfDir), &info) != 0 && info.dli_fname != nullptr) self = info.dli_fname;
  if (self.find('/') == std::string::npos) {  // the main program is named as it was started
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    self = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  }
  size_t slash = self.rfind('/');
  return slash == std::string::npos ? "." : self.substr(0, slash);
}

std::string SdkIncludeDir() {
  std::string candidate = SelfDir() + "/../include";
  if (FileExists(candidate + "/openatc/host_kernel.h")) return candidate;
#ifdef OPENATC_RTC_SOURCE_INCLUDE_DIR
  return OPENATC_RTC_SOURCE_INCLUDE_DIR;
#else
  return "";
#endif
}

std::string AscendCIncludeDir() {
  std::string candidate = SelfDir() + "/../asc/include";
  if (FileExists(candidate + "/kernel_operator.h")) return candidate;
  std::string sdk = SdkIncludeDir();
  return sdk.empty() ? sdk : sdk + "/ascendc";
}

CompileResult Compile(const CompileRequest &request) {
  HeaderDir header_dir(request.headers);
  Fd memfd(memfd_create("openatc-rtc-output", 0));  // inherited by the compiler and its linker
  if (memfd.fd < 0) Fail(ACL_ERROR_RTC_FAILURE, std::string("memfd_create failed: ") + std::strerror(errno));

  const std::string cxx = CompilerPath();
  std::vector<std::string> args = {cxx, request.object ? "-c" : "-shared", "-fPIC", "-O2", "-std=c++17"};
  std::string sdk = SdkIncludeDir();
  if (!sdk.empty()) args.push_back("-I" + sdk);
  std::string asc = AscendCIncludeDir();
  if (!asc.empty()) args.push_back("-I" + asc);
  if (!header_dir.path().empty()) {
    args.push_back("-I" + header_dir.path());
    args.push_back("-ffile-prefix-map=" + header_dir.path() + "=.");
  }
  for (const auto &f : request.user_flags) args.push_back(f);
  if (!request.object) args.insert(args.end(), {"-fuse-ld=bfd", "-Wl,--build-id=none"});
  args.insert(args.end(), {"-o", "/proc/self/fd/" + std::to_string(memfd.fd), "-x", "c++", "-"});
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);

  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    Fail(ACL_ERROR_RTC_FAILURE, std::string("socketpair failed: ") + std::strerror(errno));
  }
  Fd in_parent(sv[0]), in_child(sv[1]);
  int pp[2];
  if (pipe2(pp, O_CLOEXEC) != 0) Fail(ACL_ERROR_RTC_FAILURE, std::string("pipe failed: ") + std::strerror(errno));
  Fd out_parent(pp[0]), out_child(pp[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_child.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, out_child.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, out_child.fd, 2);
  pid_t pid = -1;
  int rc = cxx.find('/') == std::string::npos
               ? posix_spawnp(&pid, cxx.c_str(), &actions, nullptr, argv.data(), environ)
               : posix_spawn(&pid, cxx.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    Fail(ACL_ERROR_RTC_FAILURE, "cannot run the host compiler '" + cxx + "': " + std::strerror(rc),
         "Install clang (clang-19 preferred) or set OPENATC_HOST_CXX to a C++ compiler");
  }
  in_child.Reset();
  out_child.Reset();

  CompileResult result;
  std::string pump_error;
  try {
    result.log = Pump(in_parent, out_parent, request.source);
  } catch (const openatc::Error &e) {
    pump_error = e.message();
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!pump_error.empty()) Fail(ACL_ERROR_RTC_FAILURE, pump_error);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (WIFSIGNALED(status)) result.log += "\n" + cxx + " was killed by signal " + std::to_string(WTERMSIG(status)) + "\n";
    return result;
  }
  result.binary = ReadAll(memfd.fd);
  if (result.binary.empty()) {
    result.log += cxx + " exited with status 0 but wrote no output\n";
    return result;
  }
  result.ok = true;
  return result;
}

}  // namespace rtc
}  // namespace openatc
