// GeOptionKeys: which GE option keys atc's flags set. Key strings are GE's
// (inc/external/ge/ge_api_types.h, namespaces ir_option / configure_option); a flag maps to the
// key GE's ir_option table gives it. Values are passed through unchanged, except --core_type
// (GE's engine names: AiCore -> AIcoreEngine, VectorCore -> VectorEngine).
#include <map>
#include <string>

#include "openatc/atc/options.h"

namespace openatc {
namespace atc {
namespace {

struct KeyRow {
  const char *flag;
  const char *key;
};

// Flags of Options::other_flags -> GE key, set only when the flag was given.
const KeyRow kKeys[] = {
    {"precision_mode", "ge.exec.precision_mode"},
    {"precision_mode_v2", "ge.exec.precision_mode_v2"},
    {"op_precision_mode", "ge.exec.op_precision_mode"},
    {"allow_hf32", "ge.exec.allow_hf32"},
    {"modify_mixlist", "ge.exec.modify_mixlist"},
    {"keep_dtype", "keep_dtype"},
    {"input_format", "input_format"},
    {"input_shape_range", "input_shape_range"},
    {"op_name_map", "op_name_map"},
    {"is_input_adjust_hw_layout", "is_input_adjust_hw_layout"},
    {"is_output_adjust_hw_layout", "is_output_adjust_hw_layout"},
    {"enable_scope_fusion_passes", "enable_scope_fusion_passes"},
    {"dynamic_batch_size", "ge.dynamicBatchSize"},
    {"dynamic_image_size", "ge.dynamicImageSize"},
    {"dynamic_dims", "ge.dynamicDims"},
    {"insert_op_conf", "ge.insertOpFile"},
    {"cal_conf", "ge.calibrationConfFile"},
    {"output_type", "ge.outputDatatype"},
    {"input_fp16_nodes", "ge.INPUT_NODES_SET_FP16"},
    {"op_select_implmode", "ge.opSelectImplmode"},
    {"optypelist_for_implmode", "ge.optypelistForImplmode"},
    {"virtual_type", "ge.virtual_type"},
    {"aicore_num", "ge.aicoreNum"},
    {"buffer_optimize", "ge.bufferOptimize"},
    {"fusion_switch_file", "ge.fusionSwitchFile"},
    {"compression_optimize_conf", "ge.compressionOptimizeConf"},
    {"customize_dtypes", "ge.customizeDtypes"},
    {"op_debug_config", "op_debug_config"},
    {"save_original_model", "ge.saveOriginalModel"},
    {"enable_small_channel", "ge.enableSmallChannel"},
    {"enable_compress_weight", "ge.enableCompressWeight"},
    {"compress_weight_conf", "compress_weight_conf"},
    {"sparsity", "ge.enableSparseMatrixWeight"},
    {"enable_single_stream", "ge.enableSingleStream"},
    {"ac_parallel_enable", "ac_parallel_enable"},
    {"tiling_schedule_optimize", "ge.tiling_schedule_optimize"},
    {"op_debug_level", "ge.opDebugLevel"},
    {"debug_dir", "ge.debugDir"},
    {"status_check", "ge.status_check"},
    {"op_compiler_cache_dir", "ge.op_compiler_cache_dir"},
    {"op_compiler_cache_mode", "ge.op_compiler_cache_mode"},
    {"mdl_bank_path", "ge.mdl_bank_path"},
    {"op_bank_path", "ge.op_bank_path"},
    {"display_model_info", "ge.display_model_info"},
    {"shape_generalized_build_mode", "ge.shape_generalized_build_mode"},
    {"atomic_clean_policy", "ge.exec.atomicCleanPolicy"},
    {"external_weight", "ge.externalWeight"},
    {"deterministic", "ge.deterministic"},
    {"quant_dumpable", "ge.quant_dumpable"},
    {"host_env_os", "ge.host_env_os"},
    {"host_env_cpu", "ge.host_env_cpu"},
    {"cluster_config", "ge.cluster_config"},
    {"static_model_ops_lower_limit", "ge.exec.static_model_ops_lower_limit"},
    {"oo_level", "ge.oo.level"},
    {"oo_constant_folding", "ge.oo.constantFolding"},
    {"oo_dead_code_elimination", "ge.oo.deadCodeElimination"},
    {"export_compile_stat", "ge.exportCompileStat"},
    {"optimization_switch", "ge.optimizationSwitch"},
};

// Keys GeOptionKeys fills from options other than the kKeys table.
const KeyRow kFixedKeys[] = {
    {"soc_version", "ge.socVersion"},   {"framework", "ge.frameworkType"},
    {"input_shape", "input_shape"},     {"out_nodes", "ge.outputNodeName"},
    {"log", "log"},                     {"jit_compile", "ge.jit_compile"},
    {"disable_reuse_memory", "ge.exec.disableReuseMemory"}, {"core_type", "ge.engineType"},
};

}  // namespace

std::string AtcFlagForGeOptionKey(const std::string &key) {
  for (const KeyRow &row : kFixedKeys)
    if (key == row.key) return row.flag;
  for (const KeyRow &row : kKeys)
    if (key == row.key) return row.flag;
  return "";
}

std::map<std::string, std::string> GeOptionKeys(const Options &options) {
  std::map<std::string, std::string> keys;
  if (!options.soc_version.empty()) keys["ge.socVersion"] = options.soc_version;
  if (options.framework != -1) keys["ge.frameworkType"] = std::to_string(options.framework);
  if (!options.input_shape.empty()) keys["input_shape"] = options.input_shape;
  if (!options.out_nodes_text.empty()) keys["ge.outputNodeName"] = options.out_nodes_text;
  keys["log"] = options.log;
  // Defaults GE applies when the flag is absent (docs/atc-flags.md §5).
  keys["ge.jit_compile"] = "1";
  keys["ge.exec.disableReuseMemory"] = "0";
  const auto &other = options.other_flags;
  if (auto it = other.find("jit_compile"); it != other.end()) keys["ge.jit_compile"] = it->second;
  if (auto it = other.find("disable_reuse_memory"); it != other.end())
    keys["ge.exec.disableReuseMemory"] = it->second;
  if (auto it = other.find("core_type"); it != other.end())
    keys["ge.engineType"] = (it->second == "VectorCore") ? "VectorEngine" : "AIcoreEngine";
  for (const KeyRow &row : kKeys) {
    auto it = other.find(row.flag);
    if (it != other.end()) keys[row.key] = it->second;
  }
  return keys;
}

}  // namespace atc
}  // namespace openatc
