// The emulated chips' facts (openatc/common/chip_facts.h). Every row cites the platform
// configuration it was read from; numbers without a published source are not guessed: a chip
// whose counts are unknown is not in the table.
#include "openatc/common/chip_facts.h"

#include <cctype>

namespace openatc {
namespace {

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<ChipFacts> MakeTable() {
  std::vector<ChipFacts> t;
  {
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
    c.source = "GE test platform config Ascend910B1.ini (hicann/ge tests/engines/nn_engine/config/data/platform_config); "
               "NpuArch and jit_compile: GE platform_info_util.cc; CANN CPU-debug ascend910B1_ini.h";
    t.push_back(c);
  }
  return t;
}

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

const ChipFacts *FindChipByNpuArch(uint32_t npu_arch) {
  for (const ChipFacts &c : ChipTable()) {
    if (c.npu_arch == npu_arch) return &c;
  }
  return nullptr;
}

}  // namespace openatc
