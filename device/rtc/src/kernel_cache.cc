// The entries of the op compile cache: lookup, store, the per-key lock and aging (kernel_cache.h).
#include "kernel_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "kernel_cache_internal.h"
#include "openatc/block_sync.h"
#include "openatc/common/atomic_file.h"
#include "openatc/common/target.h"
#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rtc {
namespace {

using Mode = rt::KernelCacheConfig::Mode;
constexpr time_t kAgingSeconds = 30 * 60;  // entries not used for 30 minutes may be aged out

std::string Errno() { return std::strerror(errno); }

/** mkdir -p; false (errno set) on failure. */
bool MakeDirs(const std::string &path) {
  for (size_t pos = path.find('/', 1);; pos = path.find('/', pos + 1)) {
    const std::string dir = path.substr(0, pos);
    if (!dir.empty() && mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (pos == std::string::npos) return true;
  }
}

bool ReadFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

/** An exclusive flock on <key>.lock for the lifetime of the object (none if it cannot be had). */
class KeyLock {
 public:
  explicit KeyLock(const std::string &path) : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) return;
    while (flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      close(fd_);
      fd_ = -1;
      return;
    }
  }
  ~KeyLock() {
    if (fd_ >= 0) close(fd_);  // releases the lock
  }
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

/** The binary of a valid entry, or why there is none ("" = absent, else what is wrong). */
struct Lookup {
  bool hit = false;
  std::vector<uint8_t> binary;
  std::string problem;
};

Lookup Read(const std::string &base, const std::string &key) {
  Lookup r;
  std::string meta_text, bin;
  const bool has_meta = ReadFile(base + ".json", meta_text);
  const bool has_bin = ReadFile(base + ".bin", bin);
  if (!has_meta && !has_bin) return r;
  if (!has_meta || !has_bin) {
    r.problem = has_meta ? "its .bin is missing" : "its .json is missing";
    return r;
  }
  const nlohmann::json meta = nlohmann::json::parse(meta_text, nullptr, false);
  auto text = [&](const char *field) {
    auto it = meta.is_object() ? meta.find(field) : meta.end();
    return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (text("format") != kKernelCacheFormat || text("key") != key) {
    r.problem = "its .json is not an entry of this key";
    return r;
  }
  const auto size = meta.find("binary_size");
  const std::string hash = Hex128(XXH3_128bits(bin.data(), bin.size()));
  if (size == meta.end() || !size->is_number_unsigned() || size->get<uint64_t>() != bin.size() ||
      text("binary_xxh3_128") != hash) {
    r.problem = "its binary does not match the size and hash its .json records";
    return r;
  }
  r.hit = true;
  r.binary.assign(bin.begin(), bin.end());
  return r;
}

std::string Write(const std::string &base, const std::string &key, const std::string &program_name,
                  const CompileRequest &request, const std::vector<uint8_t> &binary) {
  const Target target = rt::CompileTarget();
  const CompilerIdentity &cxx = IdentifyCompiler(CompilerPath());
  nlohmann::json meta = {
      {"format", kKernelCacheFormat},
      {"key", key},
      {"kernel", program_name},
      {"soc_version", target.soc_version},
      {"arch", target.kind == TargetKind::kAscendCann ? target.arch : HostCpuArch()},
      {"compiler", cxx.path},
      {"compiler_version", cxx.version.substr(0, cxx.version.find('\n'))},
      {"compiler_stamp", cxx.stamp},
      {"options", request.user_flags},
      {"output", request.object ? "object" : "shared object"},
      {"abi",
       {{"host_kernel", OPENATC_HOST_KERNEL_ABI_VERSION},
        {"gm_check", OPENATC_GM_CHECK_ABI_VERSION},
        {"block_sync", OPENATC_BLOCK_SYNC_ABI_VERSION}}},
      {"binary_size", binary.size()},
      {"binary_xxh3_128", Hex128(XXH3_128bits(binary.data(), binary.size()))},
  };
  const std::string text = meta.dump(1) + "\n";
  // The binary first: an entry exists once its .json does.
  if (auto f = WriteFileAtomic(base + ".bin", binary.data(), binary.size())) return std::strerror(f->err);
  if (auto f = WriteFileAtomic(base + ".json", text.data(), text.size())) return std::strerror(f->err);
  return "";
}

void Remove(const std::string &base) {
  unlink((base + ".json").c_str());
  unlink((base + ".bin").c_str());
}

/** Ages out entries of `dir` (see kernel_cache.h) when it holds more than the limit. */
void Age(const std::string &dir, const rt::KernelCacheConfig &config) {
  if (config.max_size_mb < 0) return;
  struct Entry {
    time_t used = 0;
    uint64_t bytes = 0;
  };
  std::map<std::string, Entry> entries;  // by stem
  uint64_t total = 0;
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent *e = readdir(d)) {
    const std::string name = e->d_name;
    const size_t dot = name.rfind('.');
    if (name[0] == '.' || dot == std::string::npos) continue;
    const std::string ext = name.substr(dot);
    if (ext != ".json" && ext != ".bin") continue;
    struct stat st {};
    if (stat((dir + "/" + name).c_str(), &st) != 0) continue;
    Entry &entry = entries[name.substr(0, dot)];
    entry.bytes += static_cast<uint64_t>(st.st_size);
    if (ext == ".json" || entry.used == 0) entry.used = st.st_mtime;  // the .json's time is the use time
    total += static_cast<uint64_t>(st.st_size);
  }
  closedir(d);
  const uint64_t limit = static_cast<uint64_t>(config.max_size_mb) << 20;
  if (total <= limit) return;
  const uint64_t keep = limit / 100 * static_cast<uint64_t>(config.remain_ratio);
  std::vector<std::pair<time_t, std::string>> old;
  const time_t now = time(nullptr);
  for (const auto &[stem, entry] : entries)
    if (now - entry.used >= kAgingSeconds) old.emplace_back(entry.used, stem);
  std::sort(old.begin(), old.end());
  for (const auto &[used, stem] : old) {
    if (total <= keep) break;
    Remove(dir + "/" + stem);
    total -= entries[stem].bytes;
  }
}

}  // namespace

CompileResult CompileThroughCache(const CompileRequest &request, const std::string &program_name,
                                  const std::function<CompileResult()> &compile) {
  const rt::KernelCacheConfig config = rt::KernelCache();
  auto info = [&](const std::string &line) {
    if (config.info) config.info(line);
  };
  auto warn = [&](const std::string &line) {
    if (config.warning) config.warning(line);
  };
  if (config.mode == Mode::kDisable) return compile();
  std::string bypass = config.bypass_reason;
  if (bypass.empty() && std::find(request.user_flags.begin(), request.user_flags.end(), "-g") != request.user_flags.end())
    bypass = "the option -g";
  if (!bypass.empty()) {
    info("kernel '" + program_name + "': compile cache bypassed (" + bypass + ")");
    return compile();
  }
  const std::string dir = config.dir + "/kernel_cache/" + rt::CompileTarget().soc_version;
  if (!MakeDirs(dir)) {
    warn("cannot create the op compile cache folder '" + dir + "' (" + Errno() + "): kernels are compiled without "
         "the cache. Check --op_compiler_cache_dir and the folder's permissions");
    return compile();
  }
  std::string key;
  try {
    key = KernelCacheKey(request, program_name);
  } catch (const std::exception &) {
    return compile();  // the compiler cannot run: its own error comes from compile()
  }
  const std::string base = dir + "/" + key;
  KeyLock lock(base + ".lock");
  if (!lock.held())
    warn("cannot lock '" + base + ".lock' (" + Errno() + "): another atc may compile the same kernel at the same time");
  std::string why;
  if (config.mode == Mode::kForce) {
    Remove(base);
    why = " (force)";
  } else {
    Lookup found = Read(base, key);
    if (found.hit) {
      if (config.max_size_mb >= 0) utimensat(AT_FDCWD, (base + ".json").c_str(), nullptr, 0);  // used now
      info("compile cache hit " + key);
      CompileResult r;
      r.ok = true;
      r.binary = std::move(found.binary);
      return r;
    }
    if (!found.problem.empty()) why = " (the entry was corrupt: " + found.problem + "; it is replaced)";
  }
  info("compile cache miss " + key + why);
  CompileResult r = compile();
  if (!r.ok) return r;
  const std::string failure = Write(base, key, program_name, request, r.binary);
  if (!failure.empty()) {
    Remove(base);
    warn("cannot store kernel '" + program_name + "' in the op compile cache '" + dir + "' (" + failure +
         "): it is compiled again next time. Check the folder's free space and permissions");
    return r;
  }
  info("compile cache stored " + key);
  Age(dir, config);
  return r;
}

}  // namespace rtc
}  // namespace openatc
