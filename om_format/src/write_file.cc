// Atomic OM file writing through the common writer (openatc/common/atomic_file.h): temp file in
// the target's directory, fsync, rename, fsync directory.
#include <cerrno>
#include <cstring>

#include "internal.h"
#include "openatc/common/atomic_file.h"

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

}  // namespace

void WriteFile(const std::string &path, const Model &model, const WriteOptions &options) {
  std::string dir, base;
  SplitPath(path, &dir, &base);
  if (base.empty() || base == "." || base == "..")
    throw IoError(path, "the path names a directory, not a file", EISDIR);

  // Serialise first: a bad model leaves the file system untouched.
  const std::vector<uint8_t> image = Serialize(model, options);

  const auto failure = WriteFileAtomic(path, image.data(), image.size());
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

}  // namespace openatc::om
