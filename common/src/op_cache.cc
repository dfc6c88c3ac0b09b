// The entries of the op compile cache: lookup, store, the per-key lock and aging (op_cache.h).
#include "openatc/common/op_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>

#include "openatc/common/atomic_file.h"

namespace openatc::opcache {
namespace {

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
  KeyLock(const KeyLock &) = delete;
  KeyLock &operator=(const KeyLock &) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

/** A valid entry, or why there is none ("" = absent, else what is wrong). */
struct Lookup {
  bool hit = false;
  std::string problem;
};

Lookup Read(const std::string &base, const Use &use, Entry &entry) {
  Lookup r;
  std::string meta_text, bin;
  const bool has_meta = ReadFile(base + ".json", meta_text);
  const bool has_bin = ReadFile(base + ".bin", bin);
  if (!has_meta && !has_bin) return r;
  if (!has_meta || !has_bin) {
    r.problem = has_meta ? "its .bin is missing" : "its .json is missing";
    return r;
  }
  nlohmann::json meta = nlohmann::json::parse(meta_text, nullptr, false);
  auto text = [&](const char *field) {
    auto it = meta.is_object() ? meta.find(field) : meta.end();
    return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (text("format") != use.format || text("key") != use.key) {
    r.problem = "its .json is not an entry of this key";
    return r;
  }
  const auto size = meta.find("binary_size");
  const std::string hash = Xxh3Hex128(bin.data(), bin.size());
  if (size == meta.end() || !size->is_number_unsigned() || size->get<uint64_t>() != bin.size() ||
      text("binary_xxh3_128") != hash) {
    r.problem = "its binary does not match the size and hash its .json records";
    return r;
  }
  std::vector<uint8_t> bytes(bin.begin(), bin.end());
  if (use.check) {
    r.problem = use.check(bytes, meta);
    if (!r.problem.empty()) return r;
  }
  entry.bytes = std::move(bytes);
  entry.fields = std::move(meta);
  r.hit = true;
  return r;
}

/** Writes the .bin, then the .json; "" or the reason it failed. */
std::string Write(const std::string &base, const Use &use, const Entry &entry) {
  nlohmann::json meta = {{"format", use.format}, {"key", use.key}};
  if (entry.fields.is_object())
    for (const auto &[name, value] : entry.fields.items()) meta[name] = value;
  meta["binary_size"] = entry.bytes.size();
  meta["binary_xxh3_128"] = Xxh3Hex128(entry.bytes.data(), entry.bytes.size());
  const std::string text = meta.dump(1) + "\n";
  // The binary first: an entry exists once its .json does. Not fsync'ed (a cache is no place for
  // 2 x 2 disk flushes per entry): an entry a crash left partial fails its check and is a miss.
  if (auto f = WriteFileAtomic(base + ".bin", entry.bytes.data(), entry.bytes.size(), false))
    return std::strerror(f->err);
  if (auto f = WriteFileAtomic(base + ".json", text.data(), text.size(), false)) return std::strerror(f->err);
  return "";
}

void Remove(const std::string &base) {
  unlink((base + ".json").c_str());
  unlink((base + ".bin").c_str());
}

/** Ages out entries of `folders` (see op_cache.h) when they hold more than the limit together. */
void Age(const std::vector<std::string> &folders, int64_t max_size_mb, int remain_ratio) {
  if (max_size_mb < 0) return;
  struct Stem {
    time_t used = 0;
    uint64_t bytes = 0;
  };
  std::map<std::string, Stem> entries;  // by <folder>/<stem>
  uint64_t total = 0;
  for (const std::string &dir : folders) {
    DIR *d = opendir(dir.c_str());
    if (d == nullptr) continue;
    while (dirent *e = readdir(d)) {
      const std::string name = e->d_name;
      const size_t dot = name.rfind('.');
      if (name[0] == '.' || dot == std::string::npos) continue;
      const std::string ext = name.substr(dot);
      if (ext != ".json" && ext != ".bin") continue;
      struct stat st {};
      if (stat((dir + "/" + name).c_str(), &st) != 0) continue;
      Stem &entry = entries[dir + "/" + name.substr(0, dot)];
      entry.bytes += static_cast<uint64_t>(st.st_size);
      if (ext == ".json" || entry.used == 0) entry.used = st.st_mtime;  // the .json's time is the use time
      total += static_cast<uint64_t>(st.st_size);
    }
    closedir(d);
  }
  const uint64_t limit = static_cast<uint64_t>(max_size_mb) << 20;
  if (total <= limit) return;
  const uint64_t keep = limit / 100 * static_cast<uint64_t>(remain_ratio);
  std::vector<std::pair<time_t, std::string>> old;
  const time_t now = time(nullptr);
  for (const auto &[stem, entry] : entries)
    if (now - entry.used >= kAgingSeconds) old.emplace_back(entry.used, stem);
  std::sort(old.begin(), old.end());
  for (const auto &[used, stem] : old) {
    if (total <= keep) break;
    Remove(stem);
    total -= entries[stem].bytes;
  }
}

}  // namespace

std::string Xxh3Hex128(const void *data, size_t size) {
  const XXH128_hash_t hash = XXH3_128bits(data, size);
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return text;
}

std::string KernelFolder(const std::string &dir, const std::string &soc_version) {
  return dir + "/kernel_cache/" + soc_version;
}

std::string WeightFolder(const std::string &dir, const std::string &soc_version) {
  return dir + "/prepacked_weights/" + soc_version;
}

std::vector<std::string> AgingFolders(const std::string &dir, const std::string &soc_version) {
  return {KernelFolder(dir, soc_version), WeightFolder(dir, soc_version)};
}

Outcome Through(const Use &use, const std::function<bool(Entry &entry)> &build, Entry &entry) {
  auto info = [&](const std::string &line) {
    if (use.info) use.info(line);
  };
  auto warn = [&](const std::string &line) {
    if (use.warning) use.warning(line);
  };
  if (!MakeDirs(use.folder)) {
    warn("cannot create the op compile cache folder '" + use.folder + "' (" + Errno() + "): " + use.what + " " +
         use.built + " without the cache. Check --op_compiler_cache_dir and the folder's permissions");
    return build(entry) ? Outcome::kNotStored : Outcome::kFailed;
  }
  const std::string base = use.folder + "/" + use.key;
  KeyLock lock(base + ".lock");
  if (!lock.held())
    warn("cannot lock '" + base + ".lock' (" + Errno() + "): another atc may build the same entry at the same time");
  std::string why;
  if (use.force) {
    Remove(base);
    why = " (force)";
  } else {
    const Lookup found = Read(base, use, entry);
    if (found.hit) {
      if (use.max_size_mb >= 0) utimensat(AT_FDCWD, (base + ".json").c_str(), nullptr, 0);  // used now
      info(use.label + " hit " + use.key);
      return Outcome::kHit;
    }
    if (!found.problem.empty()) {
      why = " (the entry was corrupt: " + found.problem + "; it is replaced)";
      warn("the op compile cache entry '" + base + "' is corrupt (" + found.problem + "): it is not used; " + use.what +
           " " + use.built + " again and the entry replaced");
    }
  }
  info(use.label + " miss " + use.key + why);
  entry = Entry();
  if (!build(entry)) return Outcome::kFailed;
  const std::string failure = Write(base, use, entry);
  if (!failure.empty()) {
    Remove(base);
    warn("cannot store " + use.what + " in the op compile cache '" + use.folder + "' (" + failure + "): " + use.what +
         " " + use.built + " again next time. Check the folder's free space and permissions");
    return Outcome::kNotStored;
  }
  info(use.label + " stored " + use.key);
  Age(use.aging_folders.empty() ? std::vector<std::string>{use.folder} : use.aging_folders, use.max_size_mb,
      use.remain_ratio);
  return Outcome::kStored;
}

}  // namespace openatc::opcache
