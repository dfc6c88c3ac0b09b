// The key of the op compile cache (kernel_cache.h lists what goes into it and why).
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "child_process.h"
#include "kernel_cache.h"
#include "kernel_cache_internal.h"
#include "openatc/block_sync.h"
#include "openatc/common/op_cache.h"
#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rtc {
namespace {

using opcache::KeyHasher;

/** args[0] as the kernel would run it: a name without '/' searched on $PATH, then realpath. */
std::string ResolveProgram(const std::string &program) {
  std::string found = program;
  if (program.find('/') == std::string::npos) {
    const char *path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
      if (access(candidate.c_str(), X_OK) == 0) {
        found = candidate;
        break;
      }
    }
  }
  char buf[PATH_MAX];
  return realpath(found.c_str(), buf) != nullptr ? std::string(buf) : found;
}

/** The XXH3-128 of every file under `dir` (relative path + bytes, in path order); "" if absent. */
std::string TreeHash(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return "";
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), dir, ec).string());
  }
  std::sort(files.begin(), files.end());
  KeyHasher h;
  for (const std::string &f : files) {
    std::ifstream in(dir + "/" + f, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    h.Add(f);
    h.Add(bytes);
  }
  return h.Hex();
}

}  // namespace

const CompilerIdentity &IdentifyCompiler(const std::string &program) {
  static std::mutex mutex;
  static auto *known = new std::map<std::string, CompilerIdentity>();  // read until exit
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known->find(program);
  if (it != known->end()) return it->second;
  CompilerIdentity id;
  id.path = ResolveProgram(program);
  struct stat st {};
  if (stat(id.path.c_str(), &st) == 0) {
    id.stamp = std::to_string(st.st_size) + " bytes, mtime " + std::to_string(st.st_mtim.tv_sec) + "." +
               std::to_string(st.st_mtim.tv_nsec);
  }
  // Throws when the compiler cannot run: the caller then compiles uncached and reports that error.
  id.version = RunChild({id.path, "--version"}, "", "", "the host compiler", "").log;
  return known->emplace(program, id).first->second;
}

std::string KernelCacheKey(const CompileRequest &request, const std::string &program_name) {
  static const std::string headers_hash = TreeHash(SdkIncludeDir()) + TreeHash(AscendCIncludeDir());
  const CompilerIdentity &cxx = IdentifyCompiler(CompilerPath());
  const Target target = rt::CompileTarget();
  KeyHasher h;
  h.Add(std::string(kKernelCacheFormat));
  h.Add(program_name);
  h.Add(request.source);
  h.Add(request.headers.size());
  for (const auto &[name, text] : request.headers) {
    h.Add(name);
    h.Add(text);
  }
  h.Add(request.user_flags.size());
  for (const std::string &f : request.user_flags) h.Add(f);
  h.Add(request.object ? 1 : 0);
  for (const std::string &f : FixedCompileArgs(request.object)) h.Add(f);
  h.Add(cxx.path);
  h.Add(cxx.version);
  h.Add(cxx.stamp);
  h.Add(static_cast<uint64_t>(target.kind));
  h.Add(target.soc_version);
  h.Add(target.kind == TargetKind::kAscendCann ? target.arch : HostCpuArch());
  h.Add(OPENATC_HOST_KERNEL_ABI_VERSION);
  h.Add(OPENATC_GM_CHECK_ABI_VERSION);
  h.Add(OPENATC_BLOCK_SYNC_ABI_VERSION);
  h.Add(headers_hash);
  std::string stem;
  for (char c : program_name.substr(0, 64)) stem += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return (stem.empty() ? std::string("kernel") : stem) + "_" + h.Hex();
}

}  // namespace rtc
}  // namespace openatc
