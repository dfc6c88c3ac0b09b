// Atomic OM file writing: temp file in the target's directory, fsync, rename, fsync directory.
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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

  const std::string tmp =
      (dir == "/" ? "" : dir) + "/." + base + ".tmp." + std::to_string(::getpid());
  ::unlink(tmp.c_str());  // a stale temp file of this pid from an earlier crash
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(path, "cannot create the temp file '" + tmp + "'", errno);

  auto fail = [&](const std::string &what) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    return IoError(path, what, err);
  };
  size_t done = 0;
  while (done < image.size()) {
    ssize_t w = ::write(fd, image.data() + done, image.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw fail("write to '" + tmp + "' failed");
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0) throw fail("fsync of '" + tmp + "' failed");
  if (::close(fd) != 0) {
    fd = -1;
    throw fail("close of '" + tmp + "' failed");
  }
  fd = -1;
  if (::rename(tmp.c_str(), path.c_str()) != 0) throw fail("rename of the temp file failed");

  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: some file systems refuse fsync on directories
    ::close(dfd);
  }
}

}  // namespace openatc::om
