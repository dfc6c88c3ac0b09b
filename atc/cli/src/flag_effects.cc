// The table of which other flags take effect on which target (openatc/atc/flag_effects.h).
// A flag not listed has no effect anywhere yet: accepted, validated, recorded, warned about.
#include "openatc/atc/flag_effects.h"

namespace openatc {
namespace atc {
namespace {

struct Effect {
  const char *flag;
  bool host;      ///< --soc_version host
  bool ascend;    ///< an Ascend chip, emulated or through CANN
  const char *what;
};

const Effect kEffects[] = {
    {"oo_constant_folding", true, true, "constant folding of built-in ops"},
    {"oo_dead_code_elimination", true, true, "removal of nodes that feed nothing"},
    {"fusion_switch_file", true, true, "the graph passes of atc/compiler/src/passes"},
    {"insert_op_conf", true, true, "static AIPP: an Aipp node (ops/Aipp.cc) behind each input a block names"},
    // One static variant per gear in one OM (atc/compiler/src/gears.cc).
    {"dynamic_batch_size", true, true, "one static variant per batch gear"},
    {"dynamic_image_size", true, true, "one static variant per image-size gear"},
    {"dynamic_dims", true, true, "one static variant per dims gear"},
    {"singleop", true, true, "one OM per op description (atc/driver/src/singleop_build.cc)"},
    // The chip's ATC defaults (atc/compiler target_facts.cc): Compile reads them through GetOption.
    {"jit_compile", false, true, "ge.jit_compile as the chip's Compile reads it"},
    // Precision on the host (atc/compiler/src/passes/precision.h): built-in ops compute as the
    // mode makes the chip compute; on an Ascend chip also what its Compile reads.
    {"precision_mode", true, true, "reduced-precision built-in ops (passes/precision.h); ge.exec.precision_mode"},
    {"precision_mode_v2", true, true, "reduced-precision built-in ops (passes/precision.h)"},
    {"keep_dtype", true, true, "nodes kept in their dtype under a precision mode"},
    {"modify_mixlist", true, true, "the mixed-precision op lists"},
    // enable_(hi_)float_32_execution entries and HF32 operands; other modes warn in the pass.
    {"op_precision_mode", true, true, "per-op float32 / HF32 execution (passes/precision.h)"},
    {"allow_hf32", true, true, "HF32 operands of float32 Conv/MatMul ops (passes/precision.h)"},
    {"output_type", true, true, "model outputs cast to the type (passes/io_dtypes.cc)"},
    {"input_fp16_nodes", true, true, "Data inputs fed as float16 (passes/io_dtypes.cc)"},
    // The op compile cache: the host RTC's kernels (device/rtc/src/kernel_cache.h) and built-in
    // ops' pre-packed weights (atc/compiler/src/passes/weight_cache.h).
    {"op_compiler_cache_mode", true, true, "the op compile cache (host RTC kernels, pre-packed weights)"},
    {"op_compiler_cache_dir", true, true, "the op compile cache folder"},
    // Build outputs (atc/driver/src/compile_model.cc, model_info.cc).
    {"save_original_model", true, true, "<output>_original.om: the graph before optimisation"},
    {"display_model_info", true, true, "ATC's Display Model Info block after the build"},
    // Deprecated spelling of --input_shape ranges (atc/cli/src/options.cc merges it).
    {"input_shape_range", true, true, "shape ranges of the inputs it names, overriding --input_shape"},
    // The static memory plan (atc/compiler/src/memory_plan.cc): no tensor shares another's bytes.
    {"disable_reuse_memory", true, true, "every planned tensor gets bytes of its own in the arena"},
    // The OM writer (om_format/FORMAT.md "External weights"), for every target.
    {"external_weight", true, true, "Const weights in files under <om dir>/weight/"},
};

const Effect *Find(const std::string &flag) {
  for (const Effect &e : kEffects)
    if (flag == e.flag) return &e;
  return nullptr;
}

std::string TargetName(const Target &t) {
  return t.is_host() ? std::string("host") : t.soc_version + (t.kind == TargetKind::kAscendEmulated ? " (emulated)" : "");
}

}  // namespace

std::vector<std::string> FlagsWithoutEffect(const Options &options, TargetKind kind) {
  std::vector<std::string> out;
  for (const auto &kv : options.other_flags) {
    const Effect *e = Find(kv.first);
    const bool takes = e != nullptr && (kind == TargetKind::kHost ? e->host : e->ascend);
    if (!takes) out.push_back(kv.first);
  }
  return out;
}

std::vector<std::string> FlagEffectWarnings(const Options &options, const Target *target) {
  std::vector<std::string> lines;
  if (target == nullptr) {
    for (const auto &kv : options.other_flags)
      lines.push_back("--" + kv.first + " has no effect with --mode=" + std::to_string(options.mode));
    return lines;
  }
  for (const std::string &flag : FlagsWithoutEffect(options, target->kind))
    lines.push_back("--" + flag + " is recorded in the OM's build record but has no effect on the " +
                    TargetName(*target) + " target");
  if (options.other_flags.count("input_shape_range"))
    lines.push_back("--input_shape_range is deprecated: its ranges override --input_shape for the inputs it names; "
                    "write them in --input_shape instead (e.g. \"x:1~4,3,224,224\")");
  return lines;
}

}  // namespace atc
}  // namespace openatc
