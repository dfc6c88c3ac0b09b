// The target's platform facts and per-chip option defaults (openatc/compiler/target_facts.h).
#include "openatc/compiler/target_facts.h"

#include "openatc/common/log.h"

#include "openatc/common/chip_facts.h"

namespace openatc::compiler {
namespace {

// The NPU architecture code of an Ascend SoC family outside the facts table (a CANN target), for
// the families whose code is known here; "" otherwise.
std::string NpuArchOf(const std::string &soc) {
  if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return "2201";
  if (soc.rfind("Ascend310P", 0) == 0) return "2002";
  return "";
}

reg::PlatformDescription ChipDescription(const ChipFacts &c) {
  reg::PlatformDescription d;
  d.soc_version = c.soc_version;
  d.npu_arch = std::to_string(c.npu_arch);
  d.core_num = c.ai_core_cnt;
  auto &version = d.extra["version"];
  version["Short_SoC_version"] = c.short_soc_version;
  version["AIC_version"] = c.aic_version;
  version["CCEC_AIC_version"] = c.ccec_aic_version;
  version["CCEC_AIV_version"] = c.ccec_aiv_version;
  auto &soc = d.extra["SoCInfo"];
  soc["ai_core_cnt"] = std::to_string(c.ai_core_cnt);
  soc["cube_core_cnt"] = std::to_string(c.cube_core_cnt);
  soc["vector_core_cnt"] = std::to_string(c.vector_core_cnt);
  soc["core_type_list"] = c.core_type_list;
  soc["cube_vector_combine"] = c.cube_vector_combine;
  soc["l2_size"] = std::to_string(c.l2_size);
  auto &core = d.extra["AICoreSpec"];
  core["ub_size"] = std::to_string(c.ub_size);
  core["l1_size"] = std::to_string(c.l1_size);
  core["l0_a_size"] = std::to_string(c.l0_a_size);
  core["l0_b_size"] = std::to_string(c.l0_b_size);
  core["l0_c_size"] = std::to_string(c.l0_c_size);
  core["ubblock_size"] = "32";
  return d;
}

}  // namespace

reg::PlatformDescription PlatformDescriptionFor(const Target &target) {
  if (target.is_host()) return reg::HostPlatformDescription();
  if (const ChipFacts *chip = FindChip(target.soc_version)) return ChipDescription(*chip);
  reg::PlatformDescription desc = reg::HostPlatformDescription();
  desc.soc_version = target.soc_version;
  desc.npu_arch = NpuArchOf(target.soc_version);  // "" when unknown: the op then fails clearly
  return desc;
}

void ApplyTargetOptionDefaults(const Target &target, const std::map<std::string, std::string> &given_flags,
                               std::map<std::string, std::string> &ge_options) {
  const bool jit_given = given_flags.count("jit_compile") != 0;
  const bool precision_given = given_flags.count("precision_mode") != 0 || given_flags.count("precision_mode_v2") != 0;
  if (target.is_host()) {
    if (!precision_given) ge_options["ge.exec.precision_mode"] = "must_keep_origin_dtype";
    return;
  }
  if (target.kind != TargetKind::kAscendEmulated) return;  // CANN targets: as before, the given options
  const ChipFacts *chip = FindChip(target.soc_version);
  if (chip == nullptr) return;
  if (!jit_given) ge_options["ge.jit_compile"] = chip->jit_compile;
  if (!precision_given) {
    ge_options["ge.exec.precision_mode"] = chip->precision_mode;
    LogInfo("precision mode " + chip->precision_mode + ": ATC's default for " + target.soc_version +
            " (built-in ops compute as that mode makes the chip compute; --precision_mode chooses another)");
  }
}

}  // namespace openatc::compiler
