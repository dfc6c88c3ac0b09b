// fe::PlatFormInfos / fe::OptionalInfos over libregister's store, and FillPlatformInfos.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "openatc/register/platform.h"
#include "platform/platform_infos_def.h"

namespace {
bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("sdk_graph: FillPlatformInfos and the sample's reads", "[platform]") {
  openatc::reg::PlatformDescription desc;
  desc.soc_version = "Ascend910B1";
  desc.npu_arch = "2201";
  desc.core_num = 8;
  desc.extra["SoCInfo"]["l2_size"] = "1024";
  fe::PlatFormInfos pi;
  fe::OptionalInfos oi;
  openatc::reg::FillPlatformInfos(desc, pi, oi);
  std::string v;
  CHECK(pi.GetPlatformResWithLock("version", "NpuArch", v));
  CHECK(v == "2201");
  CHECK(pi.GetPlatformRes("version", "SoC_version", v));
  CHECK(v == "Ascend910B1");
  CHECK(pi.GetCoreNum() == 8U);
  CHECK(pi.GetCoreNumByType("AiCore") == 8U);
  CHECK(pi.GetCoreNumByType("Cube") == 0U);
  std::map<std::string, std::string> soc;
  CHECK(pi.GetPlatformResWithLock("SoCInfo", soc));
  CHECK(soc == std::map<std::string, std::string>{{"ai_core_cnt", "8"}, {"l2_size", "1024"}, {"vector_core_cnt", "8"}});
  v = "unchanged";
  CHECK_FALSE(pi.GetPlatformResWithLock("version", "Missing", v));
  CHECK(v == "unchanged");
  CHECK_FALSE(pi.GetPlatformResWithLock("NoLabel", soc));
  CHECK(oi.GetSocVersion() == "Ascend910B1");
  CHECK(oi.GetAICoreNum() == 8U);
  CHECK(oi.GetCoreType() == "AiCore");
  CHECK(oi.GetL1FusionFlag() == "false");

  const auto host = openatc::reg::HostPlatformDescription();
  CHECK(host.soc_version == "host");
  CHECK(host.npu_arch == "host");
  CHECK(host.core_num >= 1U);
}

TEST_CASE("sdk_graph: PlatFormInfos defaults, copies, SaveToBuffer round trip", "[platform]") {
  fe::PlatFormInfos empty;
  std::string v;
  CHECK_FALSE(empty.GetPlatformResWithLock("version", "NpuArch", v));
  CHECK(empty.GetCoreNum() == 0U);
  fe::OptionalInfos oi_empty;
  CHECK(oi_empty.GetSocVersion().empty());
  CHECK(oi_empty.GetAICoreNum() == 0U);

  fe::PlatFormInfos a;
  CHECK(a.Init());
  std::map<std::string, std::string> version = {{"NpuArch", "host"}, {"odd", std::string("a\nb:3\0c", 7)}};
  a.SetPlatformRes("version", version);
  a.SetCoreNum(12);
  fe::PlatFormInfos shared = a;  // copies share the store, as in GE
  std::map<std::string, std::string> replaced = {{"NpuArch", "x"}};
  shared.SetPlatformRes("version", replaced);
  CHECK(a.GetPlatformRes("version", "NpuArch", v));
  CHECK(v == "x");
  CHECK_FALSE(a.GetPlatformRes("version", "odd", v));  // SetPlatformRes replaces the label
  a.SetPlatformRes("version", version);

  const std::string buf = a.SaveToBuffer();
  fe::PlatFormInfos b;
  REQUIRE(b.LoadFromBuffer(buf.data(), buf.size()));
  CHECK(b.GetCoreNum() == 12U);
  CHECK(b.GetPlatformRes("version", "odd", v));
  CHECK(v == std::string("a\nb:3\0c", 7));
  CHECK(b.GetPlatformRes("version", "NpuArch", v));
  CHECK(v == "host");
}

TEST_CASE("sdk_graph: LoadFromBuffer rejects malformed text", "[platform]") {
  fe::PlatFormInfos a;
  std::map<std::string, std::string> version = {{"NpuArch", "host"}};
  a.SetPlatformRes("version", version);
  a.SetCoreNum(3);
  const std::string good = a.SaveToBuffer();
  fe::PlatFormInfos b;
  b.SetCoreNum(5);
  CHECK_FALSE(b.LoadFromBuffer("garbage", 7));
  CHECK(Contains(openatc::reg::LastSdkError(), "LoadFromBuffer: the buffer is not a PlatFormInfos::SaveToBuffer text (bad header)"));
  CHECK_FALSE(b.LoadFromBuffer(good.data(), good.size() - 3));
  CHECK(Contains(openatc::reg::LastSdkError(), "is truncated or malformed"));
  const std::string bad_core = "OAPI1\ncore_num x\n";
  CHECK_FALSE(b.LoadFromBuffer(bad_core.data(), bad_core.size()));
  CHECK(Contains(openatc::reg::LastSdkError(), "bad core_num line"));
  const std::string huge = "OAPI1\ncore_num 1\n99999999999:abc";
  CHECK_FALSE(b.LoadFromBuffer(huge.data(), huge.size()));
  CHECK(b.GetCoreNum() == 5U);  // unchanged on failure
  CHECK(OpenAtcInfoStoreSet(nullptr, "a", 1, "b", 1, "c", 1) == -1);
}
