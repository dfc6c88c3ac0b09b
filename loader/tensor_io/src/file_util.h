// Whole-file read and atomic write with OA3006 (kIo) errors (internal to tensor_io).
#ifndef OPENATC_TENSOR_IO_FILE_UTIL_H_
#define OPENATC_TENSOR_IO_FILE_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace openatc {
namespace tensor_io {

/// Reads a regular file completely. Throws kIo OA3006 naming the file and the system error.
std::vector<uint8_t> ReadFileBytes(const std::string &path);
/// Writes `size` bytes to `path` with openatc::WriteFileAtomic (openatc/common/atomic_file.h: temp
/// file in the same folder, fsync, rename; the temp file is removed on failure). Throws kIo OA3006.
void WriteFileAtomic(const std::string &path, const void *data, size_t size);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_FILE_UTIL_H_
