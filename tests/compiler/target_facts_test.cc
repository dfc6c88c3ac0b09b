// The chip facts table (common/src/chip_facts.cc) and what Compile sees of a target
// (openatc/compiler/target_facts.h): every row sourced, the platform labels and keys of an
// emulated chip, the per-chip option defaults, and host's unchanged answers.
#include <catch2/catch.hpp>

#include <map>
#include <thread>
#include <tuple>

#include "openatc/common/chip_facts.h"
#include "openatc/compiler/target_facts.h"

using openatc::Target;
using openatc::TargetKind;

TEST_CASE("chip facts: the table's rows, each with a source", "[emulation]") {
  std::vector<std::string> names;
  for (const auto &c : openatc::ChipTable()) {
    names.push_back(c.soc_version);
    CHECK_FALSE(c.source.empty());
    CHECK(c.npu_arch != 0U);
    CHECK(c.ub_size != 0U);
  }
  CHECK(names == std::vector<std::string>{"Ascend910B1", "Ascend910_9362", "Ascend310P3", "Ascend310B1"});
  CHECK(openatc::ChipTableNames() == "Ascend910B1, Ascend910_9362, Ascend310P3, Ascend310B1");
  CHECK(openatc::FindChip("ASCEND910_9362")->soc_version == "Ascend910_9362");
  CHECK(openatc::FindChip("Ascend910B2") == nullptr);
  CHECK(openatc::FindChipByNpuArch(2201)->soc_version == "Ascend910B1");
  CHECK(openatc::FindChipByNpuArch(2002)->soc_version == "Ascend310P3");
  CHECK(openatc::FindChipByNpuArch(3002)->soc_version == "Ascend310B1");
  CHECK(openatc::FindChipByNpuArch(9999) == nullptr);
  CHECK(openatc::FindChip("Ascend910B1")->has_rtc);
  CHECK(openatc::FindChip("Ascend910_9362")->has_rtc);
  CHECK_FALSE(openatc::FindChip("Ascend310P3")->has_rtc);
  CHECK_FALSE(openatc::FindChip("Ascend310B1")->has_rtc);
}

TEST_CASE("target facts: an emulated Ascend910B1's platform infos", "[emulation]") {
  const auto d = openatc::compiler::PlatformDescriptionFor(Target{TargetKind::kAscendEmulated, "Ascend910B1", "x86_64"});
  fe::PlatFormInfos pi;
  fe::OptionalInfos oi;
  openatc::reg::FillPlatformInfos(d, pi, oi);
  const std::vector<std::tuple<std::string, std::string, std::string>> expected = {
      {"version", "SoC_version", "Ascend910B1"},      {"version", "Short_SoC_version", "Ascend910B"},
      {"version", "AIC_version", "AIC-C-220"},        {"version", "CCEC_AIC_version", "dav-c220-cube"},
      {"version", "CCEC_AIV_version", "dav-c220-vec"}, {"version", "NpuArch", "2201"},
      {"SoCInfo", "ai_core_cnt", "24"},               {"SoCInfo", "cube_core_cnt", "24"},
      {"SoCInfo", "vector_core_cnt", "48"},           {"SoCInfo", "core_type_list", "CubeCore,VectorCore"},
      {"SoCInfo", "cube_vector_combine", "split"},    {"SoCInfo", "l2_size", "201326592"},
      {"AICoreSpec", "ub_size", "196608"},            {"AICoreSpec", "l1_size", "524288"},
      {"AICoreSpec", "l0_a_size", "65536"},           {"AICoreSpec", "l0_b_size", "65536"},
      {"AICoreSpec", "l0_c_size", "131072"},          {"AICoreSpec", "ubblock_size", "32"}};
  for (const auto &[label, key, value] : expected) {
    std::string v;
    INFO(label << "/" << key);
    CHECK(pi.GetPlatformResWithLock(label, key, v));
    CHECK(v == value);
  }
  CHECK(pi.GetCoreNum() == 24U);
  CHECK(oi.GetSocVersion() == "Ascend910B1");
}

TEST_CASE("target facts: host and CANN targets keep their answers", "[emulation]") {
  const auto host = openatc::compiler::PlatformDescriptionFor(openatc::HostTarget());
  CHECK(host.soc_version == "host");
  CHECK(host.npu_arch == "host");
  const unsigned n = std::thread::hardware_concurrency();
  CHECK(host.core_num == (n == 0 ? 1U : n));
  CHECK(host.extra.empty());
  const auto b2 = openatc::compiler::PlatformDescriptionFor(Target{TargetKind::kAscendCann, "Ascend910B2", ""});
  CHECK(b2.soc_version == "Ascend910B2");
  CHECK(b2.npu_arch == "2201");
  const auto a910 = openatc::compiler::PlatformDescriptionFor(Target{TargetKind::kAscendCann, "Ascend910", ""});
  CHECK(a910.npu_arch.empty());
}

TEST_CASE("target facts: ATC's per-chip option defaults, unless the flag was given", "[emulation]") {
  using openatc::compiler::ApplyTargetOptionDefaults;
  using Map = std::map<std::string, std::string>;
  const Target a2{TargetKind::kAscendEmulated, "Ascend910B1", "x86_64"};
  const Target p3{TargetKind::kAscendEmulated, "Ascend310P3", "x86_64"};
  Map o = {{"ge.jit_compile", "1"}};
  ApplyTargetOptionDefaults(a2, {}, o);
  CHECK(o == Map{{"ge.jit_compile", "2"}, {"ge.exec.precision_mode", "force_fp16"}});
  o = {{"ge.jit_compile", "1"}};
  ApplyTargetOptionDefaults(p3, {}, o);
  CHECK(o == Map{{"ge.jit_compile", "1"}, {"ge.exec.precision_mode", "force_fp16"}});
  o = {{"ge.jit_compile", "1"}, {"ge.exec.precision_mode", "force_fp32"}};
  ApplyTargetOptionDefaults(a2, {{"jit_compile", "1"}, {"precision_mode", "force_fp32"}}, o);
  CHECK(o == Map{{"ge.jit_compile", "1"}, {"ge.exec.precision_mode", "force_fp32"}});
  o = {{"ge.jit_compile", "1"}};
  ApplyTargetOptionDefaults(openatc::HostTarget(), {}, o);
  CHECK(o == Map{{"ge.jit_compile", "1"}, {"ge.exec.precision_mode", "must_keep_origin_dtype"}});
  o = {{"ge.jit_compile", "1"}};
  ApplyTargetOptionDefaults(Target{TargetKind::kAscendCann, "Ascend910B1", ""}, {}, o);  // CANN: left as given
  CHECK(o == Map{{"ge.jit_compile", "1"}});
}
