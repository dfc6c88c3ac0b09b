// The one table of atc's flags. Types, defaults and allowed values are ATC's
// (GE's api/atc/atc_flags.cc; docs/atc-flags.md §5); descriptions are ours. Order = --help order.
#include "flag_table.h"

namespace openatc {
namespace atc {
namespace {
using T = FlagType;
using G = FlagGroup;

const std::vector<FlagSpec> kFlags = {
    // Input
    {"mode", T::kInt, G::kInput, "0", "0,1,3,5,6",
     "0 compile to OM, 1 OM or model to JSON, 3 pre-check only, 5 GE text dump to JSON, 6 print OM summary"},
    {"model", T::kString, G::kInput, "", "", "source graph: .air, .json, .txt, .pbtxt (GE IR) or .onnx"},
    {"framework", T::kInt, G::kInput, "", "1,5",
     "1 GE IR, 5 ONNX; inferred from the --model extension when omitted"},
    {"input_shape", T::kString, G::kInput, "", "",
     "\"name:d0,d1;name2:...\" (-1 unknown dim, lo~hi range, nothing after ':' = scalar)"},
    {"out_nodes", T::kString, G::kInput, "", "", "graph outputs \"node:idx;node:idx\""},
    {"om", T::kString, G::kInput, "", "", "input file of modes 1, 5 and 6"},
    // Target
    {"soc_version", T::kString, G::kTarget, "", "",
     "target: host (this CPU) or an Ascend name such as Ascend910B1; required by modes 0 and 3"},
    // Output
    {"output", T::kString, G::kOutput, "", "", "path of the OM file; .om is appended unless present, folders are created"},
    {"json", T::kString, G::kOutput, "", "", "JSON output file of modes 1 and 5"},
    {"check_report", T::kString, G::kOutput, "check_result.json", "", "mode 3 report file"},
    {"compress", T::kInt, G::kOutput, "3", "", "zstd level 0..22 for artifact and deliverable segments; 0 = off"},
    {"compress_weights", T::kBool, G::kOutput, "false", "", "also compress weights (they are then not zero-copy)"},
    // Debug
    {"log", T::kString, G::kDebug, "error", "debug,info,warning,error,null", "stderr log level: debug, info, warning, error or null"},
    {"check_portable", T::kBool, G::kDebug, "false", "",
     "round-trip every PortableOp through Serialize and Deserialize"},
    {"help", T::kBool, G::kDebug, "", "", "print this text"},
    // Accepted for compatibility: recorded in the OM, warned about when they have no effect.
    {"weight", T::kString, G::kCompat, "", "", "Caffe weight file"},
    {"input_hint_shape", T::kString, G::kCompat, "", "", "shape hints for dynamic inputs \"idx:[d,d];...\""},
    {"input_shape_range", T::kString, G::kCompat, "", "", "deprecated range form \"name:[1~2,3]\""},
    {"cal_conf", T::kString, G::kCompat, "", "", "calibration config file"},
    {"insert_op_conf", T::kString, G::kCompat, "", "", "AIPP insertion config file"},
    {"op_name_map", T::kString, G::kCompat, "", "", "custom op name mapping file"},
    {"target", T::kString, G::kCompat, "", "", "\"mini\""},
    {"op_precision_mode", T::kString, G::kCompat, "", "", "per-op precision file"},
    {"allow_hf32", T::kString, G::kCompat, "", "true,false", "allow HF32: true or false"},
    {"precision_mode", T::kString, G::kCompat, "",
     "force_fp16,force_fp32,cube_fp16in_fp32out,allow_mix_precision,allow_fp32_to_fp16,must_keep_origin_dtype,"
     "allow_mix_precision_fp16,allow_mix_precision_bf16,allow_fp32_to_bf16",
     "force_fp16, force_fp32, cube_fp16in_fp32out, allow_mix_precision, must_keep_origin_dtype, ..."},
    {"precision_mode_v2", T::kString, G::kCompat, "",
     "fp16,origin,cube_fp16in_fp32out,mixed_float16,mixed_bfloat16,cube_hif8,mixed_hif8",
     "fp16, origin, cube_fp16in_fp32out, mixed_float16, mixed_bfloat16, ..."},
    {"modify_mixlist", T::kString, G::kCompat, "", "", "mixed-precision list file"},
    {"keep_dtype", T::kString, G::kCompat, "", "", "keep-dtype config file"},
    {"input_format", T::kString, G::kCompat, "", "NCHW,NHWC,ND,NCDHW,NDHWC", "input layout: NCHW, NHWC, ND, NCDHW or NDHWC"},
    {"input_fp16_nodes", T::kString, G::kCompat, "", "", "inputs fed as float16"},
    {"is_output_adjust_hw_layout", T::kString, G::kCompat, "", "", "\"false,true,...\" per output"},
    {"is_input_adjust_hw_layout", T::kString, G::kCompat, "", "", "\"false,true,...\" per input"},
    {"output_type", T::kString, G::kCompat, "", "", "output dtype: FP32, FP16, ... or \"node:idx:FP16;...\""},
    {"op_select_implmode", T::kString, G::kCompat, "",
     "high_precision,high_performance,high_precision_for_all,high_performance_for_all",
     "high_precision, high_performance, high_precision_for_all, high_performance_for_all"},
    {"optypelist_for_implmode", T::kString, G::kCompat, "", "", "op types for --op_select_implmode"},
    {"singleop", T::kString, G::kCompat, "", "", "single-op JSON file"},
    {"disable_reuse_memory", T::kInt, G::kCompat, "0", "0,1", "0 or 1 (1 = no memory reuse)"},
    {"auto_tune_mode", T::kString, G::kCompat, "", "", "deprecated; any value is an error"},
    {"jit_compile", T::kString, G::kCompat, "1", "0,1,2",
     "0 binary first, 1 compile online, 2 online for static shapes (option ge.jit_compile)"},
    {"optimization_switch", T::kString, G::kCompat, "", "", "\"pass:on;pass:off\""},
    {"static_model_ops_lower_limit", T::kString, G::kCompat, "", "", "integer >= -1"},
    {"h2d_overlapped_with_compute", T::kString, G::kCompat, "", "", "overlap host-to-device copies"},
    {"raw_ge_options", T::kString, G::kCompat, "", "", "JSON file of GE options"},
    {"raw_ge_options_ignore_unsupported", T::kBool, G::kCompat, "false", "", "ignore unsupported raw GE options"},
    {"virtual_type", T::kInt, G::kCompat, "0", "0,1", "virtualization: 0 or 1"},
    {"core_type", T::kString, G::kCompat, "AiCore", "AiCore,VectorCore", "AiCore or VectorCore"},
    {"aicore_num", T::kString, G::kCompat, "", "", "AI core count"},
    {"buffer_optimize", T::kString, G::kCompat, "l2_optimize", "l1_optimize,l2_optimize,off_optimize",
     "l1_optimize, l2_optimize or off_optimize"},
    {"fusion_switch_file", T::kString, G::kCompat, "", "", "graph passes on/off (host target too): JSON or <pass>:on|off lines"},
    {"compression_optimize_conf", T::kString, G::kCompat, "", "", "AMCT compression config"},
    {"customize_dtypes", T::kString, G::kCompat, "", "", "customized dtypes file"},
    {"op_debug_config", T::kString, G::kCompat, "", "", "op debug config file"},
    {"save_original_model", T::kString, G::kCompat, "", "true,false", "also write <output>_original.om"},
    {"dynamic_batch_size", T::kString, G::kCompat, "", "", "batch gears \"1,2,4\""},
    {"dynamic_image_size", T::kString, G::kCompat, "", "", "image size gears \"h,w;h,w\""},
    {"dynamic_dims", T::kString, G::kCompat, "", "", "dims gears \"d,d;d,d\""},
    {"enable_small_channel", T::kString, G::kCompat, "0", "", "small channel optimization"},
    {"enable_compress_weight", T::kString, G::kCompat, "false", "", "Ascend weight compression"},
    {"enable_attr_compression", T::kString, G::kCompat, "true", "", "compress attribute names"},
    {"compress_weight_conf", T::kString, G::kCompat, "", "", "weight compression config"},
    {"sparsity", T::kInt, G::kCompat, "0", "0,1", "sparse weights: 0 or 1"},
    {"enable_single_stream", T::kString, G::kCompat, "", "", "single stream"},
    {"ac_parallel_enable", T::kString, G::kCompat, "0", "", "AI CPU in parallel"},
    {"tiling_schedule_optimize", T::kString, G::kCompat, "0", "", "tiling sink"},
    {"dump_mode", T::kString, G::kCompat, "0", "0,1", "0 or 1 (mode 1: add inferred shapes)"},
    {"op_debug_level", T::kInt, G::kCompat, "0", "0,1,2,3,4", "kernel debug artifacts: 0..4"},
    {"enable_scope_fusion_passes", T::kString, G::kCompat, "", "", "scope fusion passes to enable"},
    {"debug_dir", T::kString, G::kCompat, "", "", "op compile intermediates folder"},
    {"status_check", T::kString, G::kCompat, "0", "", "overflow check"},
    {"op_compiler_cache_dir", T::kString, G::kCompat, "", "", "op compile cache folder"},
    {"op_compiler_cache_mode", T::kString, G::kCompat, "disable", "enable,disable,force", "op compile cache: enable, disable or force"},
    {"mdl_bank_path", T::kString, G::kCompat, "", "", "model tuning bank"},
    {"op_bank_path", T::kString, G::kCompat, "", "", "op tuning bank"},
    {"display_model_info", T::kString, G::kCompat, "0", "0,1", "0 or 1: print model info after the build"},
    {"device_id", T::kString, G::kCompat, "0", "", "device id"},
    {"shape_generalized_build_mode", T::kString, G::kCompat, "shape_precise", "", "deprecated"},
    {"atomic_clean_policy", T::kString, G::kCompat, "0", "0,1", "atomic clean policy: 0 or 1"},
    {"external_weight", T::kString, G::kCompat, "0", "0,1,2", "0 weights in OM, 1 per-const files, 2 one file"},
    {"deterministic", T::kString, G::kCompat, "0", "0,1", "deterministic computation: 0 or 1"},
    {"deterministic_level", T::kString, G::kCompat, "0", "0,1,2,3", "deterministic level: 0..3"},
    {"host_env_os", T::kString, G::kCompat, "", "", "runtime host OS of embedded custom-op libraries"},
    {"host_env_cpu", T::kString, G::kCompat, "", "", "runtime host CPU of embedded custom-op libraries"},
    {"cluster_config", T::kString, G::kCompat, "", "", "HCCL cluster config"},
    {"hccl_sub_comm_config", T::kString, G::kCompat, "", "", "HCCL sub-communicator config"},
    {"quant_dumpable", T::kString, G::kCompat, "", "", "quantization dumpable"},
    {"is_weight_clip", T::kString, G::kCompat, "1", "", "weight clipping"},
    {"oo_level", T::kString, G::kCompat, "O3", "", "graph optimizer level"},
    {"build_config", T::kString, G::kCompat, "", "", "make command template for generated source"},
    {"export_compile_stat", T::kString, G::kCompat, "1", "0,1,2", "compile statistics: 0, 1 or 2"},
    {"multi_stream_parallel_mode", T::kString, G::kCompat, "", "", "cv, LoadBalance:N or MainStream:N"},
    {"oo_constant_folding", T::kString, G::kCompat, "true", "true,false", "constant folding of built-in ops (host target too): true or false"},
    {"oo_dead_code_elimination", T::kString, G::kCompat, "true", "true,false", "removal of nodes that feed nothing (host target too): true or false"},
    {"topo_sorting_mode", T::kString, G::kCompat, "1", "0,1,2,3", "0 BFS, 1 DFS, 2 RDFS, 3 StableRDFS"},
};
}  // namespace

const std::vector<FlagSpec> &AtcFlagTable() { return kFlags; }

const FlagSpec *FindAtcFlag(const std::string &name) {
  for (const auto &f : kFlags)
    if (name == f.name) return &f;
  return nullptr;
}

const char *FlagGroupTitle(FlagGroup group) {
  switch (group) {
    case FlagGroup::kInput: return "Input";
    case FlagGroup::kTarget: return "Target";
    case FlagGroup::kOutput: return "Output";
    case FlagGroup::kDebug: return "Debug";
    case FlagGroup::kCompat: return "Accepted for compatibility";
  }
  return "";
}

}  // namespace atc
}  // namespace openatc
