// Atomic OM file writing through the common writer (openatc/common/atomic_file.h): temp file in
// the target's directory, fsync, rename, fsync directory. With external weights (1.3) the
// weight files are staged under temp names in `<dir>/weight/`, renamed into place, and the OM
// is written last; a failure removes what this call left behind.
#include <cerrno>
#include <cstring>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "openatc/common/atomic_file.h"
#include "openatc/om/write_image.h"

namespace openatc::om {
namespace {

Error IoError(const std::string &path, const std::string &what, int err) {
  return Error(ErrorCategory::kIo, detail::kErrWrite,
               "cannot write the OM: " + what + ": " + std::strerror(err),
               "Check that the directory exists and is writable, and that the disk has room")
      .WithFile(path);
}

void SplitPath(const std::string &path, std::string *dir, std::string *base) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    *dir = ".";
    *base = path;
  } else {
    *dir = slash == 0 ? "/" : path.substr(0, slash);
    *base = path.substr(slash + 1);
  }
}

// Writes `size` bytes to `path` atomically or throws kIo naming `path` and the failed step.
void WriteAtomicOrThrow(const std::string &path, const void *data, size_t size) {
  const auto failure = WriteFileAtomic(path, data, size);
  if (!failure) return;
  const std::string &tmp = failure->tmp;
  switch (failure->step) {
    case AtomicWriteStep::kCreate:
      throw IoError(path, "cannot create the temp file '" + tmp + "'", failure->err);
    case AtomicWriteStep::kWrite:
      throw IoError(path, "write to '" + tmp + "' failed", failure->err);
    case AtomicWriteStep::kSync:
      throw IoError(path, "fsync of '" + tmp + "' failed", failure->err);
    case AtomicWriteStep::kClose:
      throw IoError(path, "close of '" + tmp + "' failed", failure->err);
    case AtomicWriteStep::kRename:
      break;
  }
  throw IoError(path, "rename of the temp file failed", failure->err);
}

// The weight files of one OM on their way to `<dir>/weight/`: staged, then placed. Whatever
// was not placed by Commit is removed by the destructor, and so is every file Place created.
class WeightFileSet {
 public:
  WeightFileSet(const std::string &om_path, const std::string &dir) : om_path_(om_path), dir_(dir + "/" + kWeightDir) {}
  ~WeightFileSet() {
    if (committed_) return;
    for (const auto &s : staged_) ::unlink(s.c_str());
    for (const auto &c : created_) ::unlink(c.c_str());
  }

  void Stage(const std::vector<WeightFile> &files) {
    if (files.empty()) return;
    if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST)
      throw IoError(om_path_, "cannot create the weight folder '" + dir_ + "'", errno);
    for (const WeightFile &f : files) {
      const std::string final_path = dir_ + "/" + f.name;
      const std::string staged = AtomicTempPath(final_path) + ".staged";
      WriteAtomicOrThrow(staged, f.bytes.data(), f.bytes.size());
      staged_.push_back(staged);
      finals_.push_back(final_path);
    }
  }

  void Place() {
    for (size_t i = 0; i < staged_.size(); ++i) {
      const bool existed = ::access(finals_[i].c_str(), F_OK) == 0;
      if (::rename(staged_[i].c_str(), finals_[i].c_str()) != 0)
        throw IoError(om_path_, "cannot rename '" + staged_[i] + "' to '" + finals_[i] + "'", errno);
      staged_[i].clear();
      if (!existed) created_.push_back(finals_[i]);
    }
    staged_.clear();
  }

  void Commit() { committed_ = true; }

 private:
  std::string om_path_, dir_;
  std::vector<std::string> staged_, finals_, created_;
  bool committed_ = false;
};

}  // namespace

void WriteFile(const std::string &path, const Model &model, const WriteOptions &options) {
  // Serialise first: a bad model leaves the file system untouched.
  std::vector<WeightFile> weight_files;
  const std::vector<uint8_t> image = Serialize(model, options, &weight_files);
  WriteImage(path, image.data(), image.size(), weight_files);
}

void WriteImage(const std::string &path, const uint8_t *image, size_t size, const std::vector<WeightFile> &weight_files) {
  std::string dir, base;
  SplitPath(path, &dir, &base);
  if (base.empty() || base == "." || base == "..")
    throw IoError(path, "the path names a directory, not a file", EISDIR);
  WeightFileSet set(path, dir);
  set.Stage(weight_files);
  set.Place();
  WriteAtomicOrThrow(path, image, size);
  set.Commit();
}

}  // namespace openatc::om
