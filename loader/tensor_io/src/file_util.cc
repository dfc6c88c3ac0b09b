// Whole-file read, and the tensor files' atomic write (through openatc/common/atomic_file.h).
#include "file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "openatc/common/atomic_file.h"
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
  const auto failure = openatc::WriteFileAtomic(path, data, size);
  if (!failure) return;
  switch (failure->step) {
    case AtomicWriteStep::kCreate:
      IoError(path, "cannot create the file", failure->err);
      break;
    case AtomicWriteStep::kWrite:
      IoError(path, "cannot write the file", failure->err);
      break;
    case AtomicWriteStep::kSync:
    case AtomicWriteStep::kClose:
      IoError(path, "cannot flush the file", failure->err);
      break;
    case AtomicWriteStep::kRename:
      break;
  }
  IoError(path, "cannot rename the temporary file into place", failure->err);
}

}  // namespace tensor_io
}  // namespace openatc
