/**
 * @file ge/ge_ir_build.h
 * GE's offline build API (GE `inc/external/ge/ge_ir_build.h`; implemented in libge_runner.so, which
 * `-lge_compiler` links): build a ge::Graph in C++, compile it in this process into an OM held in
 * memory, and save it as `<output_file>.om`, the same OM `atc` writes for the AIR file
 * Graph::SaveToFile writes for that graph (README.md "GE's offline build API").
 *
 * Lifecycle: aclgrphBuildInitialize(global options) reads ASCEND_CUSTOM_OPP_PATH and
 * OPENATC_EMULATION once and loads the custom-op deliverables and the built-in operators;
 * aclgrphBuildModel compiles any number of graphs; aclgrphBuildFinalize ends it (calling it twice,
 * or without initializing, is harmless). aclgrphSaveModel needs no initialization.
 *
 * Options are GE's keys (ge::ir_option below, ge/ge_api_types.h); each maps to the atc flag that
 * sets the same key (docs/atc-flags.md §5), so values are checked and recorded as atc checks and
 * records them. Global options (ge.socVersion is one, and is required) apply to every build; build
 * options override them for one graph. An unknown global key is a warning (as in GE); an unknown
 * build key fails the build (GRAPH_PARAM_INVALID, as in GE).
 *
 * Errors: a call returns GRAPH_SUCCESS or one of GE's codes: GE_CLI_GE_NOT_INITIALIZED (a build
 * before aclgrphBuildInitialize or after aclgrphBuildFinalize), GRAPH_PARAM_INVALID (a bad option,
 * graph, file name or model buffer), GRAPH_FAILED (the graph does not compile, the file cannot be
 * written). Never throws. The message (code from ge_api/ir_build/ERRORS.md or the compiler's,
 * what was wrong, what to do) is logged and kept as the calling thread's last SDK error.
 * Threading: any thread may call; builds from several threads run one at a time (the loaded
 * operators are shared, as GE's lifecycle requires).
 *
 * Not provided (declared by GE, not needed by its samples): the bundle, weight-refresh,
 * single-op, dump and aclmdlModel-based calls.
 */
#ifndef OPENATC_GE_GE_IR_BUILD_H_
#define OPENATC_GE_GE_IR_BUILD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ge/ge_api_error_codes.h"
#include "ge/ge_api_types.h"
#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/graph.h"

#define OPENATC_GE_IR_API __attribute__((visibility("default")))

namespace ge {
const int32_t IR_MAJOR_VERSION = 1;
const int32_t IR_MINOR_VERSION = 0;
const int32_t IR_PATCH_VERSION = 0;

/// A built model: `length` bytes at `data` (an OpenATC OM image), owned by `data`.
struct ModelBufferData {
  std::shared_ptr<uint8_t> data = nullptr;
  uint64_t length = 0;
};

/// GE's option keys for the offline build (GE's ir_option namespace; values as atc's flags).
namespace ir_option {
static const char_t *const SOC_VERSION = "ge.socVersion";  ///< global: host or an Ascend name
static const char_t *const INPUT_FORMAT = "input_format";
static const char_t *const INPUT_SHAPE = "input_shape";    ///< "name:d0,d1;name2:..."
static const char_t *const INPUT_SHAPE_RANGE = "input_shape_range";
static const char_t *const OP_NAME_MAP = "op_name_map";
static const char_t *const OUT_NODES = "ge.outputNodeName";  ///< "node:idx;node:idx"
static const char_t *const LOG_LEVEL = "log";                ///< debug, info, warning, error, null
static const char_t *const CORE_TYPE = "ge.engineType";      ///< AiCore or VectorCore
static const char_t *const PRECISION_MODE = "ge.exec.precision_mode";
static const char_t *const PRECISION_MODE_V2 = "ge.exec.precision_mode_v2";
static const char_t *const OP_PRECISION_MODE = "ge.exec.op_precision_mode";
static const char_t *const ALLOW_HF32 = "ge.exec.allow_hf32";
static const char_t *const EXEC_DISABLE_REUSED_MEMORY = "ge.exec.disableReuseMemory";
static const char_t *const DYNAMIC_BATCH_SIZE = "ge.dynamicBatchSize";
static const char_t *const DYNAMIC_IMAGE_SIZE = "ge.dynamicImageSize";
static const char_t *const DYNAMIC_DIMS = "ge.dynamicDims";
static const char_t *const INSERT_OP_FILE = "ge.insertOpFile";
static const char_t *const OUTPUT_TYPE = "ge.outputDatatype";
static const char_t *const OP_DEBUG_LEVEL = "ge.opDebugLevel";
static const char_t *const DEBUG_DIR = "ge.debugDir";
static const char_t *const OP_COMPILER_CACHE_DIR = "ge.op_compiler_cache_dir";
static const char_t *const OP_COMPILER_CACHE_MODE = "ge.op_compiler_cache_mode";
static const char_t *const OP_SELECT_IMPL_MODE = "ge.opSelectImplmode";
static const char_t *const OPTYPELIST_FOR_IMPLMODE = "ge.optypelistForImplmode";
static const char_t *const AICORE_NUM = "ge.aicoreNum";
static const char_t *const BUFFER_OPTIMIZE = "ge.bufferOptimize";
static const char_t *const ENABLE_SINGLE_STREAM = "ge.enableSingleStream";
static const char_t *const EXTERNAL_WEIGHT = "ge.externalWeight";
static const char_t *const DETERMINISTIC = "ge.deterministic";
static const char_t *const OO_LEVEL = "ge.oo.level";
static const char_t *const OO_CONSTANT_FOLDING = "ge.oo.constantFolding";
static const char_t *const OO_DEAD_CODE_ELIMINATION = "ge.oo.deadCodeElimination";
}  // namespace ir_option

/// Starts the offline build for this process (see the file comment). Calling it again while
/// initialized returns GRAPH_SUCCESS and keeps the first options, as GE does.
OPENATC_GE_IR_API graphStatus aclgrphBuildInitialize(std::map<AscendString, AscendString> &global_options);
/// Deprecated std::string form (header-inline: no std::string crosses the library ABI).
inline graphStatus aclgrphBuildInitialize(std::map<std::string, std::string> global_options) {
  std::map<AscendString, AscendString> converted;
  for (const auto &kv : global_options) converted[AscendString(kv.first.c_str())] = AscendString(kv.second.c_str());
  return aclgrphBuildInitialize(converted);
}
/// Ends the offline build. Later builds fail with GE_CLI_GE_NOT_INITIALIZED until it starts again.
OPENATC_GE_IR_API void aclgrphBuildFinalize();

/// Compiles `graph` with the global options overridden by `build_options` into `model` (replaced
/// on success, untouched on failure).
OPENATC_GE_IR_API graphStatus aclgrphBuildModel(const ge::Graph &graph,
                                                const std::map<AscendString, AscendString> &build_options,
                                                ModelBufferData &model);
inline graphStatus aclgrphBuildModel(const ge::Graph &graph, const std::map<std::string, std::string> &build_options,
                                     ModelBufferData &model) {
  std::map<AscendString, AscendString> converted;
  for (const auto &kv : build_options) converted[AscendString(kv.first.c_str())] = AscendString(kv.second.c_str());
  return aclgrphBuildModel(graph, converted, model);
}

/// Writes `model` to `<output_file>.om` (GE's rule: ".om" is always appended) atomically: a
/// reader sees the old file or the whole new one. The folder must exist.
OPENATC_GE_IR_API graphStatus aclgrphSaveModel(const char_t *output_file, const ModelBufferData &model);
inline graphStatus aclgrphSaveModel(const std::string &output_file, const ModelBufferData &model) {
  return aclgrphSaveModel(output_file.c_str(), model);
}

/// IR_MAJOR_VERSION.IR_MINOR_VERSION.IR_PATCH_VERSION; GRAPH_PARAM_INVALID for a null pointer.
OPENATC_GE_IR_API graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version,
                                                  int32_t *patch_version);
}  // namespace ge

#endif  // OPENATC_GE_GE_IR_BUILD_H_
