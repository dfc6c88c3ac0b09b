/**
 * @file openatc/compiler/target_facts.h
 * What a Compile callback sees of the target (docs/architecture.md "Targets"): the platform facts
 * (OpCompileContext::GetPlatformInfos) and the GE options ATC defaults per chip
 * (OpCompileContext::GetOption). An emulated chip answers its row of the facts table
 * (openatc/common/chip_facts.h); host answers the host description (NpuArch "host").
 */
#ifndef OPENATC_COMPILER_TARGET_FACTS_H_
#define OPENATC_COMPILER_TARGET_FACTS_H_

#include <map>
#include <string>

#include "openatc/common/target.h"
#include "openatc/register/platform.h"

namespace openatc::compiler {

/// The platform description of `target`. kHost: reg::HostPlatformDescription(). kAscendEmulated:
/// the chip's row: [version] SoC_version, Short_SoC_version, AIC_version, CCEC_AIC_version,
/// CCEC_AIV_version, NpuArch (the number as text, "2201"); [SoCInfo] ai_core_cnt, cube_core_cnt,
/// vector_core_cnt, core_type_list, cube_vector_combine, l2_size; [AICoreSpec] ub_size, l1_size,
/// l0_a_size, l0_b_size, l0_c_size, ubblock_size "32"; core_num = ai_core_cnt. kAscendCann: the
/// table's row when the chip is in it, else soc_version with the family's NpuArch ("" unknown).
reg::PlatformDescription PlatformDescriptionFor(const Target &target);

/// Sets the GE options ATC defaults per target, for the flags the user did not give
/// (`given_flags`: atc flag names without dashes, e.g. "jit_compile"): for an emulated chip
/// "ge.jit_compile" and "ge.exec.precision_mode" are the chip's (a CANN target is left as is); for host
/// "ge.exec.precision_mode" is "must_keep_origin_dtype" ("ge.jit_compile" keeps its value).
void ApplyTargetOptionDefaults(const Target &target, const std::map<std::string, std::string> &given_flags,
                               std::map<std::string, std::string> &ge_options);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_TARGET_FACTS_H_
