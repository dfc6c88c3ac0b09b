/**
 * @file openatc/om/container_info.h
 * Inspection of an OpenATC OM container's layout (preamble fields and segment table), for tools
 * that print or check a file (`omrun --info`, tests). The file is verified exactly as ReadFile
 * verifies it (om_format/FORMAT.md), so the values returned are trusted.
 */
#ifndef OPENATC_OM_CONTAINER_INFO_H_
#define OPENATC_OM_CONTAINER_INFO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace openatc::om {

/// How a segment's stored bytes encode its raw bytes (om.fbs `Codec`).
enum class SegmentCodec : uint8_t { kNone = 0, kZstd = 1 };
/// What a segment holds (om.fbs `SegmentKind`).
enum class SegmentKind : uint8_t { kWeight = 0, kArtifact = 1, kDeliverable = 2, kKernel = 3 };

struct SegmentInfo {
  uint64_t offset = 0;       ///< bytes, relative to the segment area (a multiple of 64)
  uint64_t file_offset = 0;  ///< bytes from the start of the file (a multiple of 64)
  uint64_t stored_size = 0;  ///< bytes in the file
  uint64_t raw_size = 0;     ///< bytes after decoding
  SegmentCodec codec = SegmentCodec::kNone;
  SegmentKind kind = SegmentKind::kWeight;
  uint64_t hash = 0;         ///< XXH3-64 of the stored bytes
  /// 1.3: the weight file holding the bytes (`weight/<file>`, relative to the OM's folder) and
  /// their offset there; empty for bytes in the segment area (file_offset is then 0).
  std::string external_file;
  uint64_t external_offset = 0;
};

struct ContainerInfo {
  std::string magic;                 ///< "OAOM"
  uint16_t version_major = 0;
  uint16_t version_minor = 0;
  uint32_t preamble_size = 0;        ///< bytes
  uint32_t flags = 0;
  uint64_t envelope_offset = 0;      ///< bytes from the start of the file
  uint64_t envelope_size = 0;        ///< bytes
  uint64_t envelope_hash = 0;        ///< XXH3-64 of the envelope
  uint64_t segment_area_offset = 0;  ///< bytes from the start of the file
  uint64_t segment_area_size = 0;    ///< bytes
  uint64_t file_size = 0;            ///< bytes
  std::vector<SegmentInfo> segments; ///< in table order (ascending offsets)
};

/// Reads and fully verifies the OM at `path` (as ReadFile) and returns its layout.
/// Errors: openatc::Error kNotOm / kCorruptOm / kIo exactly as ReadFile.
ContainerInfo InspectFile(const std::string &path);

/// As InspectFile, from bytes in memory.
ContainerInfo InspectBytes(const uint8_t *data, size_t size);

/// True when `data` starts with GE's OM magic "IMOD" (ModelFileHeader.magic 0x444F4D49,
/// docs/ge-om.md §2), i.e. a model made by CANN's ATC. Never throws.
bool LooksLikeGeOm(const uint8_t *data, size_t size);

/// Names for printing: "none"/"zstd", "weight"/"artifact"/"deliverable".
const char *SegmentCodecName(SegmentCodec codec);
const char *SegmentKindName(SegmentKind kind);

}  // namespace openatc::om

#endif  // OPENATC_OM_CONTAINER_INFO_H_
