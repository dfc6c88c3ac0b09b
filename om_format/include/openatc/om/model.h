/**
 * @file openatc/om/model.h
 * The contents of an OpenATC OM file as plain C++ values, and the functions that write and read
 * the container (preamble + FlatBuffers envelope `schemas/om.fbs` + 64-byte-aligned segments).
 * No generated FlatBuffers type appears here: callers see only these structs.
 *
 * Bulk bytes (Const weights, large Serialize payloads, embedded deliverable .so files) travel as
 * ir::Bytes; when a model is read from a file they are views into the mapped file (zero-copy) or
 * into a decompressed buffer, kept alive by ir::Bytes::owner.
 */
#ifndef OPENATC_OM_MODEL_H_
#define OPENATC_OM_MODEL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "openatc/common/target.h"
#include "openatc/ir/graph.h"

namespace openatc::om {

/// A custom-op deliverable (.so) embedded in the OM so that omrun needs no environment.
struct Deliverable {
  std::string file_name;            ///< base name as found under its OPP root
  std::string sdk_version;          ///< OpenATC SDK version the .so was built against
  uint64_t hash = 0;                ///< XXH3-64 of `data`
  std::vector<std::string> op_types;  ///< op types this model resolves to it (sorted)
  ir::Bytes data;                   ///< the ELF file
};

/// Capability bits as GE's CustomOpCapability (kEagerExecute=1, kCompilable=2, kShapeInfer=4,
/// kPortable=8, kArgsUpdater=16, kAnnotatedArgs=32).
using CapabilityMask = uint32_t;

/// One op type's compile result: its PortableOp::Serialize buffer, or none for ops without
/// PortableOp (they still have an entry so the runtime knows which deliverable provides them).
struct OpArtifact {
  std::string op_type;
  CapabilityMask capabilities = 0;
  int32_t deliverable = -1;   ///< index into Model::deliverables; -1 for a built-in without .so
  bool has_payload = false;   ///< true when the op is a PortableOp (payload may still be empty)
  std::string producer;       ///< "OpenATC <version>"
  uint64_t hash = 0;          ///< XXH3-64 of payload
  ir::Bytes payload;
};

/// Container format version this library writes (om_format/FORMAT.md). A reader accepts any
/// file of the same major version whose minimum reader version is not newer than this.
inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 3;

/// What the gears of a geared model set (1.2; ATC's mbatch_dynamic_type values).
enum class GearKind : uint8_t { kNone = 0, kBatch = 1, kImageSize = 2, kDims = 3 };

/// Name of the extra last input of a geared model (ATC's ACL_DYNAMIC_TENSOR_NAME): int32 ND [k],
/// the values of the gear to run (k = values per gear); all zeros = the largest gear.
inline constexpr const char *kGearShapeInput = "ascend_mbatch_shape_data";
/// Node attr (ListInt) of each user Data node of a geared model's main graph: its --input_shape
/// dims with -1 where the gears set a value (ATC's `_mbatch_origin_input_dims`).
inline constexpr const char *kGearOriginDimsAttr = "_mbatch_origin_input_dims";

/// One gear compiled as a static variant (1.2): the values of the -1 dims of --input_shape, in
/// order, and the graph compiled for those shapes (its own memory plan in graph.arena_bytes).
struct GearVariant {
  std::vector<int64_t> values;
  ir::Graph graph;
};

struct Model {
  uint16_t format_major = kFormatMajor;  ///< container format version of the file read
  uint16_t format_minor = kFormatMinor;
  /// Oldest reader format that can use the file read. The writer records the oldest that reads
  /// what it wrote (1.1 when a node has declared launches, else 1.0); the values here are
  /// ignored when writing.
  uint16_t min_reader_major = kFormatMajor;
  uint16_t min_reader_minor = kFormatMinor;
  /// Build time, seconds since the Unix epoch, or -1 for none. Written only when >= 0 or, when
  /// -1, taken from the environment variable SOURCE_DATE_EPOCH if it is set
  /// (reproducible-builds.org convention); otherwise the OM holds no time, so the same inputs
  /// give the same bytes.
  int64_t build_time = -1;
  std::string producer;       ///< "OpenATC <version>"
  /// Where the model runs (openatc/common/target.h). The file records soc_version and arch; the
  /// reader derives the kind (TargetFromRecord: an Ascend chip of the facts table with a CPU arch
  /// is kAscendEmulated) and refuses a record no kind fits (OA2026); the writer refuses a target
  /// whose record would read back differently (e.g. an emulated chip outside the table, OA2026).
  openatc::Target target;
  ir::Graph graph;            ///< topologically ordered; Const values carry their weights
  std::vector<OpArtifact> artifacts;      ///< sorted by op_type, unique
  std::vector<Deliverable> deliverables;  ///< in OPP search order
  /// Build record: every atc flag given, by name without dashes ("soc_version" -> "host").
  std::map<std::string, std::string> build_options;
  /// Dynamic gears (1.2, atc --dynamic_batch_size / --dynamic_image_size / --dynamic_dims). With
  /// gears, `graph` is the largest gear plus the last input kGearShapeInput, `gears` every gear
  /// (their Const weights are stored once when equal), `gear_input_order` the user inputs' Data
  /// node names in --input_shape order (the order the gear values fill their -1 dims).
  GearKind gear_kind = GearKind::kNone;
  std::vector<GearVariant> gears;
  std::vector<std::string> gear_input_order;
};

/// Where the writer puts Const/Constant weights (atc --external_weight; 1.3).
enum class ExternalWeights : uint8_t {
  kInOm = 0,      ///< in the OM's segment area (default)
  kPerWeight = 1, ///< one file `weight_<sha256>` per distinct weight, offset 0
  kCombined = 2,  ///< one file holding every distinct weight, each padded to 512 bytes
};

/// The folder beside the OM that holds its weight files (ATC's `<om dir>/weight/`).
inline constexpr const char *kWeightDir = "weight";

struct WriteOptions {
  int compress_level = 3;        ///< zstd level for artifact and deliverable segments; 0 = off
  bool compress_weights = false; ///< weights stay uncompressed (mapped zero-copy) unless set
  ExternalWeights external_weights = ExternalWeights::kInOm;
  /// kCombined: the weight file's name (ATC: `<om basename>_weight_combined`); empty:
  /// `<graph name>_weight_combined`.
  std::string combined_weight_file;
};

/// One weight file of an OM written with external weights: it belongs at
/// `<om dir>/kWeightDir/<name>`.
struct WeightFile {
  std::string name;            ///< bare file name
  std::vector<uint8_t> bytes;  ///< the whole file
};

/// Where a reader finds the weight files of an OM with external weights (1.3).
struct ReadOptions {
  /// Folder holding the weight files (ACL_MDL_WEIGHT_PATH_PTR). Empty: ReadFile looks in
  /// `<the OM's folder>/weight/`; ReadBytes then has no folder and refuses a model whose
  /// weight files are not all in `weight_buffers` (OA2113).
  std::string weight_dir;
  /// Caller memory holding the whole contents of a weight file, by bare file name
  /// (aclmdlSetExternalWeightAddress); used instead of reading that file. Viewed, not copied:
  /// the caller keeps it alive and unchanged while the model lives.
  std::map<std::string, ir::Bytes> weight_buffers;
};

/// Serialises `model` into a complete OM image in memory, format kFormatMajor.kFormatMinor.
/// Deterministic: the same model (and the same SOURCE_DATE_EPOCH, see Model::build_time) gives
/// the same bytes. Throws openatc::Error: kInternal (OA2011-OA2013, OA2022) if the model is
/// inconsistent, kUsage (OA2024) if SOURCE_DATE_EPOCH is set but not a decimal integer >= 0.
std::vector<uint8_t> Serialize(const Model &model, const WriteOptions &options = {});

/// As Serialize; with options.external_weights other than kInOm the Const weights go to
/// `weight_files` (in name order, the same bytes for the same model) instead of the image, and
/// the image refers to them as `weight/<name>` (min_reader 1.3). `weight_files` may be null only
/// for kInOm.
std::vector<uint8_t> Serialize(const Model &model, const WriteOptions &options,
                               std::vector<WeightFile> *weight_files);

/// Writes `model` to `path` atomically: a temp file in the same directory, fsync, rename. On any
/// failure nothing is left at `path` (an older file there is kept) and openatc::Error (kIo) is
/// thrown naming the path. With external weights the weight files go to `<dir of path>/weight/`
/// first (each staged under a temp name, then all renamed, then the OM); on failure the staged
/// files and any weight file this call created are removed.
void WriteFile(const std::string &path, const Model &model, const WriteOptions &options = {});

/// Reads and verifies an OM file (mmap; uncompressed segments are zero-copy views).
/// Errors (openatc::Error): kNotOm for a file that is not an OpenATC OM (a GE OM is named as
/// such), or has an unsupported version; kCorruptOm for checksum, bounds or verifier failures,
/// naming the part and byte offset; kIo when the file cannot be read.
/// External weights (1.3) are read from the files `options` names, each checked against the
/// segment's size and XXH3-64 before use: a missing, truncated or altered file is refused naming
/// the file and the expected hash (OA2112; kIo when it cannot be read, else kCorruptOm).
Model ReadFile(const std::string &path, const ReadOptions &options = {});

/// As ReadFile, from bytes in memory (copied or referenced through `owner`).
Model ReadBytes(const uint8_t *data, size_t size, std::shared_ptr<const void> owner = nullptr,
                const ReadOptions &options = {});

}  // namespace openatc::om

#endif  // OPENATC_OM_MODEL_H_
