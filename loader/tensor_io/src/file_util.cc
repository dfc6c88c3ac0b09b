// Whole-file read and atomic (temp + fsync + rename) write for tensor files.
#include "file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "openatc/common/error.h"

namespace openatc {
namespace tensor_io {
namespace {
[[noreturn]] void IoError(const std::string &path, const std::string &what, int err) {
  throw Error(ErrorCategory::kIo, "OA3006", what + ": " + std::strerror(err),
              "Check that the path exists and is accessible")
      .WithFile(path);
}
}  // namespace

std::vector<uint8_t> ReadFileBytes(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) IoError(path, "cannot open the file", errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    IoError(path, "cannot stat the file", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(ErrorCategory::kIo, "OA3006", "not a regular file", "Give the path of a tensor file").WithFile(path);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      IoError(path, "cannot read the file", err);
    }
    if (n == 0) break;  // shrank while reading
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  return bytes;
}

void WriteFileAtomic(const std::string &path, const void *data, size_t size) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) IoError(path, "cannot create the file", errno);
  const uint8_t *p = static_cast<const uint8_t *>(data);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      IoError(path, "cannot write the file", err);
    }
    done += static_cast<size_t>(n);
  }
  int sync_rc = ::fsync(fd);
  int sync_err = errno;
  int close_rc = ::close(fd);
  if (sync_rc != 0 || close_rc != 0) {
    int err = sync_rc != 0 ? sync_err : errno;
    ::unlink(tmp.c_str());
    IoError(path, "cannot flush the file", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    IoError(path, "cannot rename the temporary file into place", err);
  }
}

}  // namespace tensor_io
}  // namespace openatc
