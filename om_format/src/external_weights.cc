// External weight files (format 1.3): ATC's names for them when writing, and verified views of
// them when reading (see external_weights.h).
#include "external_weights.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

namespace openatc::om::detail {
namespace {

constexpr uint64_t kCombinedAlign = 512;  // ATC pads each weight of a combined file to this
constexpr size_t kMaxExternalPath = 4096;

std::string Hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

std::string BaseName(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

MappedFile::~MappedFile() {
  if (addr) ::munmap(addr, size);
}

std::shared_ptr<const MappedFile> MapFile(const std::string &path, int *err, const char **step) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = errno;
    *step = "open failed";
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *err = S_ISDIR(st.st_mode) ? EISDIR : (errno != 0 ? errno : EINVAL);
    *step = S_ISREG(st.st_mode) ? "stat failed" : "not a regular file";
    ::close(fd);
    return nullptr;
  }
  static const uint8_t kEmpty = 0;
  auto map = std::make_shared<MappedFile>();
  map->size = static_cast<size_t>(st.st_size);
  map->data = &kEmpty;
  if (map->size > 0) {
    void *a = ::mmap(nullptr, map->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (a == MAP_FAILED) {
      *err = errno;
      *step = "mmap failed";
      ::close(fd);
      return nullptr;
    }
    map->addr = a;
    map->data = static_cast<const uint8_t *>(a);
  }
  ::close(fd);
  return map;
}

std::string WeightSha256(const uint8_t *data, size_t size) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data, size, md, &len, EVP_sha256(), nullptr) != 1)
    throw Error(ErrorCategory::kInternal, kErrModel, "SHA-256 of a weight failed (OpenSSL EVP_Digest)");
  std::string hex;
  char buf[4];
  for (unsigned int i = 0; i < len; ++i) {
    std::snprintf(buf, sizeof buf, "%x", md[i]);  // no zero padding, as ATC
    hex += buf;
  }
  return hex;
}

std::pair<std::string, uint64_t> WeightFileBuilder::Add(const uint8_t *data, size_t size) {
  const std::string sha = WeightSha256(data, size);
  if (mode_ == ExternalWeights::kPerWeight) {
    const std::string name = "weight_" + sha;
    files_.try_emplace(name, data, data + size);
    return {std::string(kWeightDir) + "/" + name, 0};
  }
  std::vector<uint8_t> &file = files_[combined_name_];
  auto [it, added] = combined_offsets_.try_emplace(sha, file.size());
  if (added) {
    file.insert(file.end(), data, data + size);
    file.resize((file.size() + kCombinedAlign - 1) / kCombinedAlign * kCombinedAlign, 0);
  }
  return {std::string(kWeightDir) + "/" + combined_name_, it->second};
}

std::vector<WeightFile> WeightFileBuilder::Take() {
  std::vector<WeightFile> out;
  for (auto &[name, bytes] : files_) out.push_back(WeightFile{name, std::move(bytes)});
  files_.clear();
  return out;
}

std::string ExternalPathProblem(const std::string &path) {
  if (path.size() > kMaxExternalPath) return "is over " + std::to_string(kMaxExternalPath) + " bytes";
  if (path.find('\0') != std::string::npos) return "holds a NUL byte";
  if (path.find('\\') != std::string::npos) return "holds a backslash";
  if (!path.empty() && path[0] == '/') return "is absolute";
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty()) return "has an empty component";
    if (part == "." || part == "..") return "has a '" + part + "' component";
    if (slash == std::string::npos) return "";
    start = slash + 1;
  }
}

const WeightFileSource::Source &WeightFileSource::Open(const std::string &file, const std::string &what) {
  auto found = open_.find(file);
  if (found != open_.end()) return found->second;
  const std::string name = BaseName(file);
  Source src;
  auto buffer = options_.weight_buffers.find(name);
  if (buffer != options_.weight_buffers.end()) {
    src.shown = "(the caller's buffer for '" + name + "')";
    src.bytes = buffer->second;
  } else {
    if (!options_.weight_dir.empty()) {
      src.path = options_.weight_dir + "/" + name;
    } else if (!om_path_.empty()) {
      src.path = DirName(om_path_) + "/" + file;
    } else {
      throw Error(ErrorCategory::kUsage, kErrWeightLocation,
                  what + " lives in the external weight file '" + name +
                      "', and a model loaded from memory has no folder to find it in",
                  "Load it with aclmdlLoadWithConfig and ACL_MDL_WEIGHT_PATH_PTR (the folder of its weight "
                  "files) or aclmdlSetExternalWeightAddress, or load the .om file");
    }
    int err = 0;
    const char *step = "";
    src.shown = "'" + src.path + "'";
    std::shared_ptr<const MappedFile> map = MapFile(src.path, &err, &step);
    if (!map)
      throw Error(ErrorCategory::kIo, kErrWeightFile,
                  "cannot read the external weight file '" + src.path + "' of " + what + ": " + step + ": " +
                      std::strerror(err),
                  "Keep the weight/ folder atc wrote beside the OM (or pass its folder), or rebuild with "
                  "--external_weight=0");
    src.bytes.data = map->data;
    src.bytes.size = map->size;
    src.bytes.owner = map;
  }
  return open_.emplace(file, std::move(src)).first->second;
}

ir::Bytes WeightFileSource::Fetch(const std::string &file, uint64_t offset, uint64_t size, uint64_t hash,
                                  const std::string &what) {
  const Source &src = Open(file, what);
  const std::string rebuild = "Use the weight files atc wrote with this OM, or rebuild the OM";
  if (offset > src.bytes.size || size > src.bytes.size - offset)
    throw Error(ErrorCategory::kCorruptOm, kErrWeightFile,
                "the external weight file " + src.shown +
                    " of " + what + " holds " + std::to_string(src.bytes.size) + " bytes; the OM needs " +
                    std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                    " (XXH3-64 " + Hex64(hash) + "): it is truncated or not this OM's",
                rebuild);
  const uint8_t *at = src.bytes.data + offset;
  const uint64_t got = Hash64(at, size);
  if (got != hash)
    throw Error(ErrorCategory::kCorruptOm, kErrWeightFile,
                "the external weight file " + src.shown +
                    " of " + what + ": the " + std::to_string(size) + " bytes at offset " +
                    std::to_string(offset) + " have XXH3-64 " + Hex64(got) + ", the OM expects " + Hex64(hash) +
                    ": the file was altered or is not this OM's",
                rebuild);
  ir::Bytes out;
  out.data = at;
  out.size = size;
  out.owner = src.bytes.owner;
  return out;
}

}  // namespace openatc::om::detail
