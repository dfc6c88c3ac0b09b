// Runs the host compiler for the RTC. Without $OPENATC_RTC_LAUNCHER, clang reads the source on
// stdin and the GNU linker writes the shared object to a memfd (/proc/self/fd/N, inherited by the
// compiler's children), so no file outlives the call and no random path lands in the output.
// In-memory headers go to a private temporary folder that is removed before returning (its path
// is remapped to "." in the output by -ffile-prefix-map). With a launcher, see
// CompileWithLauncher. The child processes are run by child_process.cc.
#include "compiler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "child_process.h"
#include "openatc/common/error.h"


namespace openatc {
namespace rtc {
namespace {

[[noreturn]] void Fail(int code, const std::string &message, const std::string &hint = {}) {
  throw openatc::Error(ErrorCategory::kInternal, "ACL" + std::to_string(code), message, hint);
}

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
  /** Removes `path` (a file of this folder) with the folder. */
  void Adopt(const std::string &path) { files_.push_back(path); }
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

namespace {

const char *const kNoCompilerHint = "Install clang (clang-19 preferred) or set OPENATC_HOST_CXX to a C++ compiler";
/** The flags every compile gets before the user's, and every shared-object link after them. */
const char *const kBaseFlags[] = {"-fPIC", "-O2", "-std=c++17"};
const char *const kLinkFlags[] = {"-fuse-ld=bfd", "-Wl,--build-id=none"};

/** The words of $OPENATC_RTC_LAUNCHER (split on blanks), empty when unset. */
std::vector<std::string> LauncherWords() {
  std::vector<std::string> words;
  const char *env = std::getenv("OPENATC_RTC_LAUNCHER");
  std::string word;
  for (const char *p = env ? env : ""; ; ++p) {
    if (*p == ' ' || *p == '\t' || *p == '\0') {
      if (!word.empty()) words.push_back(word);
      word.clear();
      if (*p == '\0') break;
    } else {
      word += *p;
    }
  }
  return words;
}

/** -I folders of the SDK and Ascend C headers. */
void AppendSdkIncludes(std::vector<std::string> &args) {
  std::string sdk = SdkIncludeDir();
  if (!sdk.empty()) args.push_back("-I" + sdk);
  std::string asc = AscendCIncludeDir();
  if (!asc.empty()) args.push_back("-I" + asc);
}

/** Without a launcher: source on stdin, output to a memfd (see the top of this file). */
CompileResult CompileDirect(const CompileRequest &request, const std::string &cxx) {
  HeaderDir header_dir(request.headers);
  Fd memfd(memfd_create("openatc-rtc-output", 0));  // inherited by the compiler and its linker
  if (memfd.fd < 0) Fail(ACL_ERROR_RTC_FAILURE, std::string("memfd_create failed: ") + std::strerror(errno));
  std::vector<std::string> args = {cxx, request.object ? "-c" : "-shared"};
  args.insert(args.end(), std::begin(kBaseFlags), std::end(kBaseFlags));
  AppendSdkIncludes(args);
  if (!header_dir.path().empty()) {
    args.push_back("-I" + header_dir.path());
    args.push_back("-ffile-prefix-map=" + header_dir.path() + "=.");
  }
  for (const auto &f : request.user_flags) args.push_back(f);
  if (!request.object) args.insert(args.end(), std::begin(kLinkFlags), std::end(kLinkFlags));
  args.insert(args.end(), {"-o", "/proc/self/fd/" + std::to_string(memfd.fd), "-x", "c++", "-"});
  ChildResult child = RunChild(args, request.source, "", "the host compiler", kNoCompilerHint);
  CompileResult result;
  result.log = child.log;
  if (!child.ok) return result;
  result.binary = ReadAll(memfd.fd);
  if (result.binary.empty()) result.log += cxx + " exited with status 0 but wrote no output\n";
  return result;
}

/** Reads a whole file of the private work folder. */
std::vector<uint8_t> ReadFile(const std::string &path) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.fd < 0) return {};
  return ReadAll(fd.fd);
}

/** With a launcher (ccache, sccache, distcc): a cacheable command line. The source and the
 *  in-memory headers are files of a private work folder that is the compiler's working
 *  directory, so every path on the command line is relative or fixed; the object is compiled by
 *  `launcher cxx -c`, and a shared object is then linked by `cxx -shared` alone (launchers do not
 *  cache links). */
CompileResult CompileWithLauncher(const CompileRequest &request, const std::string &cxx,
                                  const std::vector<std::string> &launcher) {
  std::vector<std::pair<std::string, std::string>> files = request.headers;
  files.emplace_back("openatc_rtc_kernel.cc", request.source);
  HeaderDir work(files);
  std::vector<std::string> args = launcher;
  args.insert(args.end(), {cxx, "-c"});
  args.insert(args.end(), std::begin(kBaseFlags), std::end(kBaseFlags));
  AppendSdkIncludes(args);
  args.push_back("-I.");
  for (const auto &f : request.user_flags) args.push_back(f);
  args.insert(args.end(), {"-o", "openatc_rtc_kernel.o", "openatc_rtc_kernel.cc"});
  const std::string hint = std::string("Check OPENATC_RTC_LAUNCHER ('") + std::getenv("OPENATC_RTC_LAUNCHER") +
                           "'): its first word must be a program on PATH, or unset it";
  ChildResult child = RunChild(args, "", work.path(), "the compiler launcher", hint);
  CompileResult result;
  result.log = child.log;
  if (!child.ok) return result;
  std::string out = "openatc_rtc_kernel.o";
  if (!request.object) {
    out = "openatc_rtc_kernel.so";
    std::vector<std::string> link_args = {cxx, "-shared"};
    link_args.insert(link_args.end(), std::begin(kLinkFlags), std::end(kLinkFlags));
    link_args.insert(link_args.end(), {"openatc_rtc_kernel.o", "-o", out});
    ChildResult link = RunChild(link_args, "", work.path(), "the host compiler", kNoCompilerHint);
    result.log += link.log;
    if (!link.ok) return result;
  }
  result.binary = ReadFile(work.path() + "/" + out);
  if (result.binary.empty()) result.log += cxx + " exited with status 0 but wrote no " + out + "\n";
  work.Adopt(work.path() + "/openatc_rtc_kernel.o");
  work.Adopt(work.path() + "/" + out);
  return result;
}

}  // namespace

std::vector<std::string> FixedCompileArgs(bool object) {
  std::vector<std::string> args(std::begin(kBaseFlags), std::end(kBaseFlags));
  AppendSdkIncludes(args);
  if (!object) args.insert(args.end(), std::begin(kLinkFlags), std::end(kLinkFlags));
  return args;
}

CompileResult Compile(const CompileRequest &request) {
  const std::string cxx = CompilerPath();
  const std::vector<std::string> launcher = LauncherWords();
  CompileResult result = launcher.empty() ? CompileDirect(request, cxx) : CompileWithLauncher(request, cxx, launcher);
  result.ok = !result.binary.empty();
  return result;
}

}  // namespace rtc
}  // namespace openatc
