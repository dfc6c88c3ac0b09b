/**
 * @file openatc/register/platform.h
 * INTERNAL (not part of the public SDK): filling fe::PlatFormInfos / fe::OptionalInfos for a
 * compile target, as OpCompileContext::GetPlatformInfos hands them to custom ops.
 */
#ifndef OPENATC_REGISTER_PLATFORM_H_
#define OPENATC_REGISTER_PLATFORM_H_

#include <cstdint>
#include <map>
#include <string>

#include "openatc/register/attr_value.h"
#include "platform/platform_infos_def.h"

namespace openatc::reg {

struct PlatformDescription {
  std::string soc_version = "host";  ///< OptionalInfos::GetSocVersion(), version/SoC_version
  std::string npu_arch = "host";     ///< version/NpuArch (samples build "--npu-arch=dav-<this>")
  std::string core_type = "AiCore";  ///< OptionalInfos::GetCoreType()
  uint32_t core_num = 1;             ///< GetCoreNum(), SoCInfo/ai_core_cnt, GetAICoreNum()
  /// Extra label -> key -> value entries (override the ones above on conflict).
  std::map<std::string, std::map<std::string, std::string>> extra;
};

/// The host target: soc_version/npu_arch "host", core_num = hardware threads (at least 1).
OPENATC_REG_INTERNAL_API PlatformDescription HostPlatformDescription();

/// Resets both objects to `desc`: PlatFormInfos gets core_num, ("version", "SoC_version"),
/// ("version", "NpuArch"), ("SoCInfo", "ai_core_cnt"), ("SoCInfo", "vector_core_cnt") and
/// `desc.extra`; OptionalInfos gets soc_version, core_type, ai_core_num, l1_fusion_flag "false".
OPENATC_REG_INTERNAL_API void FillPlatformInfos(const PlatformDescription &desc, fe::PlatFormInfos &platform_infos,
                                                fe::OptionalInfos &optional_infos);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_PLATFORM_H_
