// Private: external weight files (atc --external_weight, format 1.3). The writer side names and
// packs weights into files; the reader side maps those files and hands out verified views.
// om_format/FORMAT.md "External weights" describes the layout.
#ifndef OPENATC_OM_SRC_EXTERNAL_WEIGHTS_H_
#define OPENATC_OM_SRC_EXTERNAL_WEIGHTS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "openatc/om/model.h"

namespace openatc::om::detail {

/// A read-only mapping of a whole file (munmap when the last view goes away).
struct MappedFile {
  const uint8_t *data = nullptr;
  size_t size = 0;
  void *addr = nullptr;
  ~MappedFile();
};

/// Maps `path` read-only. On failure returns null and sets `*err` (errno) and `*step`
/// ("open", "stat", "not a regular file", "mmap").
std::shared_ptr<const MappedFile> MapFile(const std::string &path, int *err, const char **step);

/// Collects the weight files of one OM while it is written (ATC's naming): kPerWeight gives
/// `weight_<sha256 hex>` per distinct weight, kCombined appends each distinct weight to one file
/// at a 512-byte boundary. Equal bytes are stored once.
class WeightFileBuilder {
 public:
  WeightFileBuilder(ExternalWeights mode, std::string combined_name)
      : mode_(mode), combined_name_(std::move(combined_name)) {}

  /// Places `size` bytes at `data`; returns the path to record (`weight/<file>`) and the offset.
  std::pair<std::string, uint64_t> Add(const uint8_t *data, size_t size);

  /// The files, in name order.
  std::vector<WeightFile> Take();

 private:
  ExternalWeights mode_;
  std::string combined_name_;
  std::map<std::string, std::vector<uint8_t>> files_;   // name -> bytes
  std::map<std::string, uint64_t> combined_offsets_;    // sha256 hex -> offset (kCombined)
};

/// SHA-256 of the bytes, each byte in lower-case hex without zero padding (ATC's
/// `_value_sha256`: a byte below 0x10 gives one digit).
std::string WeightSha256(const uint8_t *data, size_t size);

/// Why `path` (a Segment.external_file from an untrusted file) is not a plain relative path
/// inside the OM's folder (absolute, `..` or `.` component, empty component, NUL, backslash,
/// over 4096 bytes); empty when it is fine.
std::string ExternalPathProblem(const std::string &path);

/// Resolves the external weight files of one OM being read: maps each file once (or takes the
/// caller's buffer) and returns the bytes of one segment after checking bounds and XXH3-64.
class WeightFileSource {
 public:
  WeightFileSource(const ReadOptions &options, const std::string &om_path)
      : options_(options), om_path_(om_path) {}

  /// The `size` bytes at `offset` of `file` (Segment.external_file, already checked), whose
  /// XXH3-64 must be `hash`. `what` names the segment and its user for messages. Throws
  /// OA2112 (missing: kIo; truncated / altered: kCorruptOm) or OA2113 (no folder to look in).
  ir::Bytes Fetch(const std::string &file, uint64_t offset, uint64_t size, uint64_t hash,
                  const std::string &what);

 private:
  struct Source {
    std::string path;   // the file read (empty for a caller's buffer)
    std::string shown;  // how messages name it
    ir::Bytes bytes;   // the whole file
  };
  const Source &Open(const std::string &file, const std::string &what);

  const ReadOptions &options_;
  std::string om_path_;
  std::map<std::string, Source> open_;  // Segment.external_file -> its bytes
};

}  // namespace openatc::om::detail

#endif  // OPENATC_OM_SRC_EXTERNAL_WEIGHTS_H_
