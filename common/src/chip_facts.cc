// The emulated chips' facts (openatc/common/chip_facts.h). Every row cites where its numbers were
// read; a number no source gives is marked UNCONFIRMED in the row's source, with the value chosen.
#include "openatc/common/chip_facts.h"

#include <cctype>

namespace openatc {
namespace {

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ATC's --precision_mode default: its documentation gives force_fp16 when the flag is absent; no
// GE source file read here states it per chip, so every row says so.
constexpr char kPrecisionSource[] = "precision_mode default: ATC's documented --precision_mode default (force_fp16), "
                                    "unconfirmed per chip in GE's sources";

// Atlas A2 (Ascend910B1): every number from GE's test platform config and CANN's CPU-debug facts.
ChipFacts Ascend910B1() {
  ChipFacts c;
  c.soc_version = "Ascend910B1";
  c.short_soc_version = "Ascend910B";
  c.npu_arch = 2201;
  c.aic_version = "AIC-C-220";
  c.ccec_aic_version = "dav-c220-cube";
  c.ccec_aiv_version = "dav-c220-vec";
  c.ai_core_cnt = 24;
  c.cube_core_cnt = 24;
  c.vector_core_cnt = 48;
  c.core_type_list = "CubeCore,VectorCore";
  c.cube_vector_combine = "split";
  c.l2_size = 201326592;  // 192 MiB
  c.ub_size = 196608;     // 192 KiB
  c.l1_size = 524288;
  c.l0_a_size = 65536;
  c.l0_b_size = 65536;
  c.l0_c_size = 131072;
  c.has_rtc = true;
  c.jit_compile = "2";
  c.precision_mode = "force_fp16";
  c.source = std::string("GE test platform config Ascend910B1.ini (hicann/ge tests/engines/nn_engine/config/data/"
                         "platform_config); NpuArch and jit_compile: GE platform_info_util.cc; CANN CPU-debug "
                         "ascend910B1_ini.h (hicann/asc-tools); ") + kPrecisionSource;
  return c;
}

// Atlas A3 (Ascend910_9362). Sourced: NpuArch 2201 (asc-devkit's npu-arch guide lists the A3 names
// under dav-2201; asc-devkit's ascendc_runtime.cpp maps Ascend910_93 to SocVersion ASCEND910B), so
// the AI Core is A2's: the AIC/CCEC versions, UB 192 KiB, L1/L0 sizes follow the arch, and the RTC
// exists (asc-devkit aclrtcCompileProg.md: 950, A3, A2). Unconfirmed: the core counts and L2 size,
// which no CANN repository gives for this SKU; A2's 24/48 and 192 MiB are used.
ChipFacts Ascend910_9362() {
  ChipFacts c = Ascend910B1();
  c.soc_version = "Ascend910_9362";
  c.short_soc_version = "Ascend910_93";
  c.source = std::string("NpuArch 2201 and the AI Core facts (AIC/CCEC versions, UB 192 KiB, L1, L0A/B/C) of the "
                         "dav-2201 arch: asc-devkit npu-arch-guide.md and tools/build/asc_rt/ascendc_runtime.cpp "
                         "(Ascend910_93 -> ASCEND910B); RTC: asc-devkit aclrtcCompileProg.md; jit_compile: GE "
                         "platform_info_util.cc (2201 -> 2); UNCONFIRMED: ai_core_cnt, cube_core_cnt, "
                         "vector_core_cnt, l2_size (Ascend910B1's values); ") + kPrecisionSource;
  return c;
}

// Atlas inference (Ascend310P3): no RTC there, so a Compile that runs the RTC fails as on the chip.
ChipFacts Ascend310P3() {
  ChipFacts c;
  c.soc_version = "Ascend310P3";
  c.short_soc_version = "Ascend310P";
  c.npu_arch = 2002;
  c.aic_version = "AIC-M-200";
  c.ccec_aic_version = "dav-m200";
  c.ccec_aiv_version = "dav-m200-vec";
  c.ai_core_cnt = 8;
  c.cube_core_cnt = 8;
  c.vector_core_cnt = 7;
  c.core_type_list = "AiCore,VectorCore";
  c.cube_vector_combine = "fuse";
  c.l2_size = 0;        // unconfirmed: not given by the sources below
  c.ub_size = 262144;   // 256 KiB
  c.l1_size = 1048576;  // 1 MiB
  c.l0_a_size = 65536;  // unconfirmed (the dav-m200 L0A/L0B sizes are not in the sources below)
  c.l0_b_size = 65536;  // unconfirmed
  c.l0_c_size = 262144;
  c.has_rtc = false;
  c.jit_compile = "1";
  c.precision_mode = "force_fp16";
  c.source = std::string("GE test platform config Ascend310P3.ini (AIC/CCEC versions, 8 AI Cores + 7 Vector Cores, "
                         "UB 256 KiB, L1 1 MiB, L0C 256 KiB); NpuArch 2002: asc-devkit GetCurNpuArch.md; no RTC: "
                         "asc-devkit aclrtcCompileProg.md; jit_compile: GE platform_info_util.cc (2002 -> 1); "
                         "UNCONFIRMED: cube_core_cnt (= AI Cores), core_type_list, cube_vector_combine, l2_size (0), "
                         "l0_a_size, l0_b_size; ") + kPrecisionSource;
  return c;
}

// Atlas 200I/500 A2 (Ascend310B1): no RTC there either.
ChipFacts Ascend310B1() {
  ChipFacts c;
  c.soc_version = "Ascend310B1";
  c.short_soc_version = "Ascend310B";
  c.npu_arch = 3002;
  c.aic_version = "AIC-M-300";
  c.ccec_aic_version = "dav-m300";
  c.ccec_aiv_version = "dav-m300";
  c.ai_core_cnt = 1;
  c.cube_core_cnt = 1;
  c.vector_core_cnt = 1;
  c.core_type_list = "AiCore";
  c.cube_vector_combine = "fuse,split";
  c.l2_size = 0;       // unconfirmed: not given by the sources below
  c.ub_size = 253952;  // 248 KiB
  c.l1_size = 1048576;
  c.l0_a_size = 65536;
  c.l0_b_size = 65536;
  c.l0_c_size = 131072;
  c.has_rtc = false;
  c.jit_compile = "1";
  c.precision_mode = "force_fp16";
  c.source = std::string("GE test platform config Ascend310B1.ini (AIC/CCEC versions, 1 / 1 cores, "
                         "cube_vector_combine); CANN CPU-debug ascend310B1_ini.h (hicann/asc-tools: UB 253952, L1, "
                         "L0A/B/C); NpuArch 3002: asc-devkit GetCurNpuArch.md; no RTC: asc-devkit "
                         "aclrtcCompileProg.md; jit_compile: GE platform_info_util.cc (3002 -> 1); UNCONFIRMED: "
                         "core_type_list, l2_size (0); ") + kPrecisionSource;
  return c;
}

std::vector<ChipFacts> MakeTable() { return {Ascend910B1(), Ascend910_9362(), Ascend310P3(), Ascend310B1()}; }

}  // namespace

const std::vector<ChipFacts> &ChipTable() {
  static const std::vector<ChipFacts> table = MakeTable();
  return table;
}

const ChipFacts *FindChip(const std::string &soc_version) {
  const std::string want = Lower(soc_version);
  for (const ChipFacts &c : ChipTable()) {
    if (Lower(c.soc_version) == want) return &c;
  }
  return nullptr;
}

std::string ChipTableNames() {
  std::string names;
  for (const ChipFacts &c : ChipTable()) names += (names.empty() ? "" : ", ") + c.soc_version;
  return names;
}

const ChipFacts *FindChipByNpuArch(uint32_t npu_arch) {
  for (const ChipFacts &c : ChipTable()) {
    if (c.npu_arch == npu_arch) return &c;
  }
  return nullptr;
}

}  // namespace openatc
