// Emulated Ascend targets end to end (docs/architecture.md "Targets"; README.md "atc"): under
// OPENATC_EMULATION an Ascend --soc_version of the facts table compiles for this CPU while Compile
// sees the chip's facts (the test op PlatformProbe reports them, tests/deliverables/platform_probe);
// the OM records "<chip>, emulated on host (<arch>)"; omrun runs it with or without the switch and
// never through CANN: the CANN stand-ins (tests/standins) are installed and must never be called
// (the stand-in runtime logs every call to $OPENATC_STANDIN_LOG; the stand-in RTC's blob cannot run).
#include <catch2/catch.hpp>

#include <cstring>
#include <thread>

#include "e2e_util.h"
#include "openatc/common/target.h"
#include "openatc/om/model.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
bool Contains(const std::string &s, const std::string &p) { return s.find(p) != std::string::npos; }
size_t Count(const std::string &s, const std::string &p) {
  size_t n = 0;
  for (size_t at = s.find(p); at != std::string::npos; at = s.find(p, at + 1)) ++n;
  return n;
}
std::string StandinHome() { return BuildPath("tests/standins/ascend_home"); }

struct Env {
  std::map<std::string, std::string> set;
  std::vector<std::string> unset;
};
// The environment of one run: the stand-in CANN installed, its log at `log`, the switch as given.
Env WithStandins(const std::string &log, const std::string &emulation) {
  Env e;
  e.set = {{"ASCEND_HOME_PATH", StandinHome()}, {"OPENATC_STANDIN_LOG", log}};
  if (emulation.empty()) e.unset.push_back("OPENATC_EMULATION");
  else e.set["OPENATC_EMULATION"] = emulation;
  return e;
}

struct Dir {
  std::string path = MakeTempDir();
  std::string log = path + "/standin.log";
  ~Dir() { RemoveTree(path); }
  CommandResult Atc(const std::string &graph_op, const std::string &opp, std::vector<std::string> args,
                    const std::string &emulation) const {
    WriteBytes(path + "/g.json", UnaryGraphJson(graph_op, {8}));
    std::vector<std::string> argv = {BuildPath("bin/atc"), "--model", path + "/g.json", "--output", path + "/m"};
    argv.insert(argv.end(), args.begin(), args.end());
    Env e = WithStandins(log, emulation);
    e.set["ASCEND_CUSTOM_OPP_PATH"] = opp;
    return RunCommand(argv, e.set, e.unset);
  }
  CommandResult Omrun(std::vector<std::string> args, const std::string &emulation) const {
    std::vector<std::string> argv = {BuildPath("bin/omrun")};
    argv.insert(argv.end(), args.begin(), args.end());
    Env e = WithStandins(log, emulation);
    e.unset.push_back("ASCEND_CUSTOM_OPP_PATH");
    return RunCommand(argv, e.set, e.unset);
  }
  // Runs m.om on x = 0..7 and returns y.
  std::vector<float> Run(const std::string &emulation, CommandResult *result = nullptr) const {
    tensor_io::HostTensor x;
    x.dtype = ge::DT_FLOAT;
    x.shape = {8};
    x.data.assign(32, 0);
    tensor_io::WriteNpy(path + "/x.npy", x);
    CommandResult r = Omrun({path + "/m.om", "--input", path + "/x.npy", "--output", path + "/out"}, emulation);
    if (result != nullptr) *result = r;
    if (r.exit_code != 0) FAIL(r.err);
    const auto y = tensor_io::ReadNpy(path + "/out/output_0.npy");
    std::vector<float> v(8);
    std::memcpy(v.data(), y.data.data(), 32);
    return v;
  }
  bool StandinsCalled() const { return !ReadText(log).empty(); }
};
std::string ProbeOpp() { return BuildPath("tests/opp/platform_probe"); }
const std::string kWarning = "warning: OA1302: OPENATC_EMULATION=";
}  // namespace

TEST_CASE("emulation: Compile sees Ascend910B1's facts; the OM runs without the switch, never through CANN",
          "[e2e][emulation]") {
  Dir d;
  auto atc = d.Atc("PlatformProbe", ProbeOpp(), {"--soc_version", "Ascend910B1"}, "1");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(Count(atc.err, kWarning) == 1);  // one line, naming the chip, the CPU and the unused CANN
  CHECK(Contains(atc.err, "atc: warning: OA1302: OPENATC_EMULATION=1: emulation is on: Ascend --soc_version values "
                          "of the facts table build and run on this CPU (" + HostCpuArch() +
                              "), the device is an emulated Ascend910B1; CANN (" + StandinHome() +
                              "/lib64/libacl_rtc.so) is not used: the switch wins. Unset OPENATC_EMULATION to use CANN.\n"));
  CHECK(om::ReadFile(d.path + "/m.om").target == Target{TargetKind::kAscendEmulated, "Ascend910B1", HostCpuArch()});
  auto info = d.Omrun({d.path + "/m.om", "--info"}, "");
  CHECK(Contains(info.out, "target: Ascend910B1, emulated on host (" + HostCpuArch() + ")\n"));
  CHECK_FALSE(Contains(info.err, "OA1302"));
  // NpuArch 2201, 24 AI cores, 48 vector cores, UB 192 KiB, jit_compile 2, device arch at run
  // (no switch: the host's 0), force_fp16, strlen("Ascend910B1").
  CHECK(d.Run("") == std::vector<float>{2201, 24, 48, 192, 2, 0, 1, 11});
  CommandResult r;
  CHECK(d.Run("Ascend910_9362", &r) == std::vector<float>{2201, 24, 48, 192, 2, 2201, 1, 11});
  CHECK(Count(r.err, "omrun: " + kWarning + "Ascend910_9362: ") == 1);
  CHECK_FALSE(d.StandinsCalled());
}

TEST_CASE("emulation: --soc_version picks the chip; given flags beat the chip's defaults", "[e2e][emulation]") {
  Dir d;
  auto atc = d.Atc("PlatformProbe", ProbeOpp(),
                   {"--soc_version", "ascend910_9362", "--jit_compile=0", "--precision_mode=force_fp32"}, "1");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(om::ReadFile(d.path + "/m.om").target.soc_version == "Ascend910_9362");
  CHECK(d.Run("") == std::vector<float>{2201, 24, 48, 192, 0, 0, 0, 14});
  CHECK_FALSE(d.StandinsCalled());
}

TEST_CASE("emulation: host keeps its answers under the switch", "[e2e][emulation]") {
  Dir d;
  auto atc = d.Atc("PlatformProbe", ProbeOpp(), {"--soc_version", "host"}, "1");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(om::ReadFile(d.path + "/m.om").target == HostTarget());
  const unsigned n = std::thread::hardware_concurrency();
  const float cores = static_cast<float>(n == 0 ? 1 : n);
  // NpuArch "host" (not a number), no AICoreSpec, jit_compile 1, must_keep_origin_dtype, "host".
  CHECK(d.Run("") == std::vector<float>{-1, cores, cores, -1, 1, 0, 2, 4});
}

TEST_CASE("emulation: an Ascend kernel compiled by the host RTC runs; CANN's stand-ins are never called",
          "[e2e][emulation]") {
  Dir d;
  std::vector<std::string> argv = {BuildPath("bin/atc"), "--model",
                                   SourcePath("examples/compilable_add_custom/single_add.json"),
                                   "--soc_version", "Ascend910B1", "--output", d.path + "/m"};
  Env e = WithStandins(d.log, "1");
  e.set["ASCEND_CUSTOM_OPP_PATH"] = AddCustomOpp();
  auto atc = RunCommand(argv, e.set, e.unset);
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {4, 4};
  std::vector<float> xs(16);
  for (int i = 0; i < 16; ++i) xs[i] = static_cast<float>(i) - 3.5f;
  x.data.resize(64);
  std::memcpy(x.data.data(), xs.data(), 64);
  tensor_io::WriteNpy(d.path + "/x.npy", x);
  auto run = d.Omrun({d.path + "/m.om", "--input", d.path + "/x.npy", "--output", d.path + "/out"}, "");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const auto y = tensor_io::ReadNpy(d.path + "/out/output_0.npy");
  std::vector<float> ys(16);
  std::memcpy(ys.data(), y.data.data(), 64);
  for (int i = 0; i < 16; ++i) CHECK(ys[i] == 3.0f * xs[i]);  // add2 = (x + x) + x, exact in float
  CHECK_FALSE(d.StandinsCalled());
}

TEST_CASE("emulation: refusals", "[e2e][emulation]") {
  Dir d;
  SECTION("no switch, no CANN: OA1301 names the switch") {
    WriteBytes(d.path + "/g.json", UnaryGraphJson("PlatformProbe", {8}));
    auto r = RunCommand({BuildPath("bin/atc"), "--model", d.path + "/g.json", "--soc_version", "Ascend910B1",
                         "--output", d.path + "/m"},
                        {{"ASCEND_HOME_PATH", d.path + "/none"}, {"ASCEND_CUSTOM_OPP_PATH", ProbeOpp()}},
                        {"OPENATC_EMULATION"});
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: OA1301: --soc_version Ascend910B1 needs CANN's RTC"));
    CHECK(Contains(r.err, "or emulate the chip on this CPU with `export OPENATC_EMULATION=1` (chips: Ascend910B1, "
                          "Ascend910_9362, Ascend310P3, Ascend310B1).\n"));
  }
  SECTION("a bad switch value names the table") {
    auto r = d.Atc("PlatformProbe", ProbeOpp(), {"--soc_version", "host"}, "Ascend999");
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: E10001: value 'Ascend999' of OPENATC_EMULATION is not supported. Accepted: 1 "
                          "(= Ascend910B1), Ascend910B1, Ascend910_9362, Ascend310P3, Ascend310B1 (the chips of the "
                          "facts table, common/src/chip_facts.cc). Set OPENATC_EMULATION to one of them, or unset "
                          "it.\n"));
    auto o = d.Omrun({d.path + "/m.om"}, "2");
    CHECK(o.exit_code == 2);
    CHECK(Contains(o.err, "omrun: error: E10001: value '2' of OPENATC_EMULATION is not supported."));
  }
  SECTION("an Ascend chip outside the table cannot be emulated") {
    auto r = d.Atc("PlatformProbe", ProbeOpp(), {"--soc_version", "Ascend910B2"}, "1");
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: E10001: --soc_version Ascend910B2 cannot be emulated (OPENATC_EMULATION=1 is "
                          "set); the chips of the facts table are: Ascend910B1, Ascend910_9362, Ascend310P3, "
                          "Ascend310B1. Pass one of them, or --soc_version host; for another chip unset "
                          "OPENATC_EMULATION and install CANN.\n"));
  }
  SECTION("a chip without RTC fails the Compile that needs it, as on the chip") {
    std::vector<std::string> argv = {BuildPath("bin/atc"), "--model",
                                     SourcePath("examples/compilable_add_custom/single_add.json"),
                                     "--soc_version", "Ascend310P3", "--output", d.path + "/m"};
    Env e = WithStandins(d.log, "1");
    e.set["ASCEND_CUSTOM_OPP_PATH"] = AddCustomOpp();
    auto r = RunCommand(argv, e.set, e.unset);
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: OA1401:"));
    CHECK(Contains(r.err, "node 'add1' (AddCustom): "));
  }
  SECTION("an emulated OM built for another CPU is refused") {
    REQUIRE(d.Atc("PlatformProbe", ProbeOpp(), {"--soc_version", "Ascend910B1"}, "1").exit_code == 0);
    om::Model m = om::ReadFile(d.path + "/m.om");
    const std::string other = HostCpuArch() == "x86_64" ? "aarch64" : "x86_64";
    m.target.arch = other;
    om::WriteFile(d.path + "/foreign.om", m);
    auto r = d.Omrun({d.path + "/foreign.om"}, "1");
    CHECK(r.exit_code == 4);
    CHECK(Contains(r.err, "omrun: error: OA2101: '" + d.path + "/foreign.om': the OM was built for Ascend910B1, "
                          "emulated on host (" + other + "), but this runtime runs host (" + HostCpuArch() +
                              "). Rebuild it with atc --soc_version Ascend910B1 and OPENATC_EMULATION set, on this "
                              "machine.\n"));
  }
  CHECK_FALSE(d.StandinsCalled());
}
