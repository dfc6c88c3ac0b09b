/**
 * @file openatc/common/atomic_file.h
 * The one atomic file writer of the project (OMs, tensor files, JSON and check reports): the
 * bytes go to a temp file `.<name>.tmp.<pid>` in the target's folder, are fsync'ed, and the temp
 * file is renamed over the target; the folder is then fsync'ed (best effort). A reader therefore
 * sees the old file or the complete new one, never a part. On failure the temp file is removed
 * and the target is untouched.
 *
 * The writer reports which step failed and errno instead of throwing, so each caller raises its
 * own error (code, wording, fix) naming the path.
 */
#ifndef OPENATC_COMMON_ATOMIC_FILE_H_
#define OPENATC_COMMON_ATOMIC_FILE_H_

#include <cstddef>
#include <optional>
#include <string>

namespace openatc {

/// Where an atomic write failed.
enum class AtomicWriteStep {
  kCreate,  ///< the temp file could not be created
  kWrite,   ///< writing to the temp file failed
  kSync,    ///< fsync of the temp file failed
  kClose,   ///< close of the temp file failed
  kRename,  ///< renaming the temp file over the target failed
};

struct AtomicWriteFailure {
  AtomicWriteStep step;
  int err;          ///< errno of the failed call
  std::string tmp;  ///< the temp file's path (already removed)
};

/// The temp file WriteFileAtomic uses for `path`: `<dir>/.<base>.tmp.<pid>`.
std::string AtomicTempPath(const std::string &path);

/// Writes `size` bytes at `data` to `path` atomically (see the file comment). Returns nothing on
/// success, else the failed step and its errno. Never throws. `durable` false skips both
/// fsyncs: readers still see the old file or the whole new one, but after a crash the file may
/// be empty or partial, so only for files every reader checks (the op compile cache's entries,
/// openatc/common/op_cache.h, which are a miss then).
std::optional<AtomicWriteFailure> WriteFileAtomic(const std::string &path, const void *data,
                                                  size_t size, bool durable = true);

}  // namespace openatc

#endif  // OPENATC_COMMON_ATOMIC_FILE_H_
