/**
 * @file openatc/common/chip_facts.h
 * The checked-in table of Ascend chip facts that emulation answers with (docs/architecture.md
 * "Targets"): one row per SoC version that OPENATC_EMULATION and `--soc_version` can emulate on
 * the host. Each row names its source. The one home of these numbers: the platform infos a
 * `Compile` sees (fe::PlatFormInfos), aclrtGetDeviceInfo, the host RTC's `--npu-arch=dav-<n>`
 * and the Ascend C host library's UB size all read them from here.
 */
#ifndef OPENATC_COMMON_CHIP_FACTS_H_
#define OPENATC_COMMON_CHIP_FACTS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace openatc {

struct ChipFacts {
  std::string soc_version;        ///< [version] SoC_version, e.g. "Ascend910B1"
  std::string short_soc_version;  ///< [version] Short_SoC_version, e.g. "Ascend910B"
  uint32_t npu_arch = 0;          ///< [version] NpuArch as a number (2201); bisheng's dav-<n>
  std::string aic_version;        ///< [version] AIC_version
  std::string ccec_aic_version;   ///< [version] CCEC_AIC_version
  std::string ccec_aiv_version;   ///< [version] CCEC_AIV_version
  uint32_t ai_core_cnt = 0;       ///< [SoCInfo] ai_core_cnt
  uint32_t cube_core_cnt = 0;     ///< [SoCInfo] cube_core_cnt
  uint32_t vector_core_cnt = 0;   ///< [SoCInfo] vector_core_cnt
  std::string core_type_list;     ///< [SoCInfo] core_type_list
  std::string cube_vector_combine;///< [SoCInfo] cube_vector_combine ("split", "fuse")
  uint64_t l2_size = 0;           ///< [SoCInfo] l2_size, bytes
  uint64_t ub_size = 0;           ///< [AICoreSpec] ub_size, bytes per core
  uint64_t l1_size = 0;           ///< [AICoreSpec] l1_size, bytes
  uint64_t l0_a_size = 0;         ///< [AICoreSpec] l0_a_size, bytes
  uint64_t l0_b_size = 0;         ///< [AICoreSpec] l0_b_size, bytes
  uint64_t l0_c_size = 0;         ///< [AICoreSpec] l0_c_size, bytes
  bool has_rtc = false;           ///< aclrtcCompileProg exists for this chip (A2, A3, 950)
  std::string jit_compile;        ///< ATC's default ge.jit_compile for this chip ("1" or "2")
  std::string precision_mode;     ///< ATC's default --precision_mode (option ge.exec.precision_mode)
  std::string source;             ///< where these numbers come from
};

/// Every emulatable chip, in table order.
const std::vector<ChipFacts> &ChipTable();
/// The row for `soc_version` (any letter case), or nullptr.
const ChipFacts *FindChip(const std::string &soc_version);
/// "Ascend910B1, Ascend910_9362, ...": the table's chips as messages list them.
std::string ChipTableNames();
/// The first row whose NpuArch is `npu_arch` (2201 -> Ascend910B1), or nullptr.
const ChipFacts *FindChipByNpuArch(uint32_t npu_arch);

}  // namespace openatc

#endif  // OPENATC_COMMON_CHIP_FACTS_H_
