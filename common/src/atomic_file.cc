// The atomic file writer (openatc/common/atomic_file.h).
#include "openatc/common/atomic_file.h"

#include <cerrno>
#include <cstdint>

#include <fcntl.h>
#include <unistd.h>

namespace openatc {
namespace {

void SplitPath(const std::string &path, std::string *dir, std::string *base) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    *dir = ".";
    *base = path;
  } else {
    *dir = slash == 0 ? "/" : path.substr(0, slash);
    *base = path.substr(slash + 1);
  }
}

}  // namespace

std::string AtomicTempPath(const std::string &path) {
  const size_t slash = path.rfind('/');
  const std::string prefix = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return prefix + "." + base + ".tmp." + std::to_string(::getpid());
}

std::optional<AtomicWriteFailure> WriteFileAtomic(const std::string &path, const void *data,
                                                  size_t size, bool durable) {
  const std::string tmp = AtomicTempPath(path);
  ::unlink(tmp.c_str());  // a stale temp file of this pid from an earlier crash
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return AtomicWriteFailure{AtomicWriteStep::kCreate, errno, tmp};
  auto fail = [&](AtomicWriteStep step) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    return AtomicWriteFailure{step, err, tmp};
  };
  const auto *p = static_cast<const uint8_t *>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t w = ::write(fd, p + done, size - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return fail(AtomicWriteStep::kWrite);
    }
    done += static_cast<size_t>(w);
  }
  if (durable && ::fsync(fd) != 0) return fail(AtomicWriteStep::kSync);
  const int close_rc = ::close(fd);
  fd = -1;
  if (close_rc != 0) return fail(AtomicWriteStep::kClose);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail(AtomicWriteStep::kRename);
  if (!durable) return std::nullopt;

  std::string dir, base;
  SplitPath(path, &dir, &base);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: some file systems refuse fsync on folders
    ::close(dfd);
  }
  return std::nullopt;
}

}  // namespace openatc
