// Private declarations shared by the OM writer and reader: preamble layout, error codes,
// limits, and the semantic model checks used on both sides (kInternal when writing,
// kCorruptOm when reading). Nothing here is part of the public API.
#ifndef OPENATC_OM_SRC_INTERNAL_H_
#define OPENATC_OM_SRC_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

namespace openatc::om::detail {

// Error codes (om_format/ERRORS.md).
inline constexpr const char *kErrNotOm = "OA2001";
inline constexpr const char *kErrGeOm = "OA2002";
inline constexpr const char *kErrVersion = "OA2003";
inline constexpr const char *kErrPreamble = "OA2004";
inline constexpr const char *kErrBounds = "OA2005";
inline constexpr const char *kErrEnvelopeHash = "OA2006";
inline constexpr const char *kErrEnvelope = "OA2007";
inline constexpr const char *kErrSegmentTable = "OA2008";
inline constexpr const char *kErrSegmentHash = "OA2009";
inline constexpr const char *kErrDecompress = "OA2010";
inline constexpr const char *kErrGraph = "OA2011";
inline constexpr const char *kErrTensorSize = "OA2012";
inline constexpr const char *kErrArtifact = "OA2013";
inline constexpr const char *kErrExpansion = "OA2014";
inline constexpr const char *kErrPreRelease = "OA2015";
inline constexpr const char *kErrWrite = "OA2020";
inline constexpr const char *kErrRead = "OA2021";
inline constexpr const char *kErrModel = "OA2022";
inline constexpr const char *kErrMemory = "OA2023";
inline constexpr const char *kErrSourceDateEpoch = "OA2024";
inline constexpr const char *kErrPlan = "OA2025";
inline constexpr const char *kErrTarget = "OA2026";
// External weight files (1.3): loading errors, README.md "Error codes".
inline constexpr const char *kErrWeightFile = "OA2112";
inline constexpr const char *kErrWeightLocation = "OA2113";

inline constexpr char kMagic[4] = {'O', 'A', 'O', 'M'};
using ::openatc::om::kFormatMajor;
using ::openatc::om::kFormatMinor;
/// Size of the preamble this version writes; readers accept larger ones (the preamble can grow).
inline constexpr uint32_t kPreambleSize = 64;
/// Largest preamble a reader accepts.
inline constexpr uint32_t kMaxPreambleSize = 4096;
inline constexpr uint64_t kSegmentAlign = 64;
/// Raw (decoded) size limits of one compressed segment.
inline constexpr uint64_t kMaxExpansion = 1024;
inline constexpr uint64_t kMaxRawSize = 64ull << 30;

/// The fixed little-endian preamble (byte offsets in om_format/FORMAT.md).
struct Preamble {
  uint32_t preamble_size = kPreambleSize;
  uint16_t major = kFormatMajor;
  uint16_t minor = kFormatMinor;
  uint32_t flags = 0;
  uint64_t envelope_offset = 0;
  uint64_t envelope_size = 0;
  uint64_t segment_area_offset = 0;
  uint64_t segment_area_size = 0;
  uint64_t envelope_hash = 0;
};

/// Writes the kPreambleSize-byte preamble (with its own checksum) to `out`.
void EncodePreamble(const Preamble &p, uint8_t *out);

/// Verifies size, magic, preamble checksum, version, flags and the bounds of the envelope and
/// segment area against `size` (all with subtraction, no overflow). Throws kNotOm / kCorruptOm.
Preamble ParsePreamble(const uint8_t *data, size_t size);

uint64_t Hash64(const void *data, size_t size);

uint64_t LoadLE64(const uint8_t *p);
uint32_t LoadLE32(const uint8_t *p);
uint16_t LoadLE16(const uint8_t *p);

/// Rounds up to a multiple of kSegmentAlign; `v` must be < 2^63.
inline uint64_t AlignUp(uint64_t v) { return (v + kSegmentAlign - 1) & ~(kSegmentAlign - 1); }

/// Bytes a constant tensor of `desc` must hold: element count x element size (sub-byte types
/// rounded up to whole bytes). nullopt when it cannot be computed: an unknown dim, an overflow,
/// or a dtype without a fixed size (strings, undefined) — the caller decides what that means.
std::optional<uint64_t> ConstTensorByteSize(const ir::TensorDesc &desc, std::string *why);

/// Semantic checks of a whole model (graph indices, control edges, constant tensor sizes,
/// artifact/deliverable consistency, hashes). Throws openatc::Error of `category` with the
/// matching code; `reading` only changes the wording of the hint.
void CheckModel(const Model &model, ErrorCategory category, bool reading);

/// Parses and verifies a complete image; fills `info` when non-null. `owner` keeps `data` alive
/// (null: every segment is copied). Throws kNotOm / kCorruptOm.
/// `om_path` is the OM's path for ReadFile (its folder holds `weight/`), empty for bytes.
Model ParseImage(const uint8_t *data, size_t size, std::shared_ptr<const void> owner,
                 ContainerInfo *info, const ReadOptions &options = {}, const std::string &om_path = "");

/// The oldest reader format (major, minor) that reads `model` correctly: 1.2 with gears, 1.1 when a node has
/// declared launches (typed NodePlan launches and Kernel segments), else 1.0.
std::pair<uint16_t, uint16_t> MinimumReader(const Model &model);

/// Format 1.0 files carried the plan as node attrs (`_output_offsets`, `_annotated_launches`,
/// `_annotated_workspaces`, om_format/FORMAT.md); moves them into NodePlan and
/// Graph::arena_bytes, so that readers see one form. Throws kCorruptOm for a malformed record.
void LiftLegacyPlan(Model &model);

/// The build time to record: `model_time` when >= 0, else SOURCE_DATE_EPOCH when set, else -1.
/// Throws kUsage (OA2024) when SOURCE_DATE_EPOCH is set but not a decimal integer >= 0.
int64_t ResolveBuildTime(int64_t model_time);

/// Builds the "corrupt OM" error with a part name and an optional byte offset.
Error Corrupt(const char *code, const std::string &message);

}  // namespace openatc::om::detail

#endif  // OPENATC_OM_SRC_INTERNAL_H_
