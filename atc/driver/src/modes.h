// Private to the atc driver: the inspection modes (1: OM or graph -> JSON, 6: model summary)
// and the OM facts they share (inputs/outputs, hashes, GE OM header fields). Not installed.
#ifndef OPENATC_ATC_DRIVER_SRC_MODES_H_
#define OPENATC_ATC_DRIVER_SRC_MODES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/atc/options.h"
#include "openatc/ir/graph.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

namespace openatc::atc {

/// Mode 1 (docs/atc-flags.md §2): `--om` names an OpenATC OM or a GE IR graph file
/// (.json/.air/.txt/.pbtxt); writes its graph to `--json` as ge.proto.ModelDef JSON that atc
/// compiles again, and for an OM also the OM facts to the sibling file OmInfoPath(--json).
/// Both files are written atomically (temp file + rename). Throws openatc::Error.
void ConvertToJson(const Options &options);

/// Mode 5 (docs/atc-flags.md §2): `--om` names a GE text dump (protobuf text ModelDef, e.g.
/// ge_proto_*.txt); writes its graph to `--json` as mode 1 does. Throws openatc::Error (the
/// reader's codes when the file is not a text ModelDef).
void ConvertTextDumpToJson(const Options &options);

/// Mode 6: prints ATC's model summary of `--om` to stdout: for an OpenATC OM its identity,
/// inputs/outputs, op types, deliverables, segments and build options; for a GE OM (magic
/// IMOD) its header fields (docs/ge-om.md §2) and that this runtime cannot execute it.
/// Throws openatc::Error (kNotOm OA2001 for any other file).
void DisplayModel(const Options &options);

/// ATC's "Display Model Info" block (docs/atc-deploy-flags.md §7), lines ending with '\n':
/// command line, system info, resource info (memory_size = the planned arena, -1 for run-time
/// shapes; weight_size = raw weight bytes; one stream, no events) and om info (modeldef_size = the
/// FlatBuffers envelope; weight_data_size, tbe_kernels_size (artifact and kernel segments) and
/// so_store_size (embedded deliverables) = bytes stored in the file; AI CPU and task info: -1).
std::string ModelInfoBlock(const om::Model &m, const om::ContainerInfo &info, const std::string &command_line);
/// "atc --key=value ..." from the OM's build record (every flag that shaped the build, no
/// --output): the command line --mode=6 shows.
std::string RecordedCommandLine(const om::Model &m);

/// "<json without .json>.om_info.json" ("x.json" -> "x.om_info.json"; "x" -> "x.om_info.json").
std::string OmInfoPath(const std::string &json_path);

/// One model input or output as the summary and the JSON facts show it.
struct ModelIo {
  std::string name;  ///< Data node name / "node:index" of the producing output
  ir::TensorDesc desc;
};
std::vector<ModelIo> ModelInputs(const ir::Graph &g);
std::vector<ModelIo> ModelOutputs(const ir::Graph &g);

/// "0x" + 16 lowercase hex digits.
std::string Hex64(uint64_t v);
/// XXH3-64 of a byte range.
uint64_t HashBytes(const ir::Bytes &b);

/// The fields of GE's 256-byte ModelFileHeader (docs/ge-om.md §2).
struct GeOmHeader {
  uint32_t version = 0, headsize = 0, length = 0, ops = 0, om_ir_version = 0, model_num = 0;
  uint8_t is_encrypt = 0, is_checksum = 0, modeltype = 0, genmode = 0, platform_type = 0;
  uint8_t need_check_os_cpu_info = 0, is_unknow_model = 0;
  std::string name, platform_version;
  uint64_t model_length = 0;
  uint64_t file_size = 0;
};
/// Parses the header of a file that starts with "IMOD". Throws kNotOm (OA2001) when the file is
/// shorter than the 256-byte header.
GeOmHeader ParseGeOmHeader(const std::vector<uint8_t> &head, uint64_t file_size,
                           const std::string &path);

/// Reads at most `max` bytes from the start of `path` (kIo OA2021 when it cannot be read).
std::vector<uint8_t> ReadHead(const std::string &path, size_t max, uint64_t *file_size);

/// Writes `text` to `path` through a temp file in the same folder, fsync and rename; nothing is
/// left at `path` on failure. Throws kIo (E13001) naming the path.
void WriteTextAtomic(const std::string &path, const std::string &text);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_SRC_MODES_H_
