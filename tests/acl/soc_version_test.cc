// The target record's decision (common/src/target.cc; docs/architecture.md "Targets",
// docs/atc-flags.md §7): "host" in any letter case gives this CPU's host target; every Ascend
// name in any letter case gives the canonical name when CANN's RTC is installed (a fake CANN root
// here: a folder holding lib64/libacl_rtc.so) and OA1301 naming every path searched when it is
// not; an unknown name gets E10001 with the accepted list. With the emulation switch
// (OPENATC_EMULATION, openatc::Emulation) a chip of the facts table is emulated on this CPU, with
// or without CANN. Also the OM record's reading (TargetFromRecord) and the default CANN roots
// ($ASCEND_HOME_PATH first).
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "openatc/common/cann_lookup.h"
#include "openatc/common/error.h"
#include "openatc/common/target.h"
#include "run_command.h"

using openatc::ResolveTarget;
using openatc::Target;
using openatc::TargetKind;

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

/// A temporary folder with `<dir>/cann/lib64/libacl_rtc.so` (an empty file: the decision only
/// looks for it) and an empty `<dir>/none`.
struct FakeCann {
  std::string dir = openatc::testing::MakeTempDir();
  std::string with = dir + "/cann";
  std::string without = dir + "/none";
  FakeCann() {
    ::mkdir(with.c_str(), 0755);
    ::mkdir((with + "/lib64").c_str(), 0755);
    ::mkdir(without.c_str(), 0755);
    openatc::testing::WriteBytes(with + "/lib64/libacl_rtc.so", "");
  }
  ~FakeCann() { openatc::testing::RemoveTree(dir); }
};

/// Sets ASCEND_HOME_PATH for the scope, restoring the previous value.
struct ScopedHome {
  std::string old;
  bool had = false;
  explicit ScopedHome(const std::string &value) {
    if (const char *v = std::getenv("ASCEND_HOME_PATH")) {
      old = v;
      had = true;
    }
    setenv("ASCEND_HOME_PATH", value.c_str(), 1);
  }
  ~ScopedHome() {
    if (had) setenv("ASCEND_HOME_PATH", old.c_str(), 1);
    else unsetenv("ASCEND_HOME_PATH");
  }
};

}  // namespace

TEST_CASE("target: the accepted Ascend names", "[target]") {
  // docs/atc-flags.md §7, families 310 / 310P / 310B / 910 / 910B / 910_93 / newer (28 names; nano
  // is mode-30 only).
  const std::vector<std::string> expected = {
      "Ascend310",      "Ascend310P",     "Ascend310P1",    "Ascend310P3",    "Ascend310B",     "Ascend310B1",
      "Ascend910",      "Ascend910A",     "Ascend910ProA",  "Ascend910ProB",  "Ascend910PremiumA", "Ascend910D",
      "Ascend910B",     "Ascend910B1",    "Ascend910B2",    "Ascend910B2C",   "Ascend910B3",    "Ascend910B4",
      "Ascend910_93",   "Ascend910_9391", "Ascend910_9392", "Ascend910_9381", "Ascend910_9382", "Ascend910_9372",
      "Ascend910_9362", "Ascend910_96",   "Ascend950",      "Ascend960"};
  CHECK(openatc::AscendSocVersions() == expected);
}

TEST_CASE("target: the host CPU architecture", "[target]") {
#if defined(__x86_64__)
  CHECK(openatc::HostCpuArch() == "x86_64");
#elif defined(__aarch64__)
  CHECK(openatc::HostCpuArch() == "aarch64");
#endif
  CHECK(openatc::HostTarget() == Target{TargetKind::kHost, "host", openatc::HostCpuArch()});
  CHECK(openatc::DescribeTarget(openatc::HostTarget()) == "host (" + openatc::HostCpuArch() + ")");
  CHECK(openatc::DescribeTarget(Target{TargetKind::kAscendCann, "Ascend910B1", ""}) == "Ascend910B1");
}

TEST_CASE("target: host in any case, with or without CANN", "[target]") {
  FakeCann cann;
  for (const char *s : {"host", "HOST", "Host", "hOsT"}) {
    CHECK(openatc::IsHostSocVersion(s));
    CHECK(ResolveTarget(s, {cann.without}) == openatc::HostTarget());
    CHECK(ResolveTarget(s, {cann.with}) == openatc::HostTarget());
  }
  CHECK_FALSE(openatc::IsHostSocVersion(""));
  CHECK_FALSE(openatc::IsHostSocVersion("hostx"));
  CHECK_FALSE(openatc::IsHostSocVersion("Ascend910B1"));
}

TEST_CASE("target: unknown and empty names", "[target]") {
  FakeCann cann;
  std::string accepted = "host";
  for (const auto &n : openatc::AscendSocVersions()) accepted += ", " + n;
  for (const char *bad : {"Ascend999", "x86_64", "Ascend910B1 ", "hosts"}) {
    try {
      ResolveTarget(bad, {cann.with});
      FAIL("no error for " << bad);
    } catch (const openatc::Error &e) {
      CHECK(e.category() == openatc::ErrorCategory::kUsage);
      CHECK(e.code() == "E10001");
      CHECK(e.message() == "value '" + std::string(bad) + "' for parameter --soc_version is not supported. Accepted: " +
                               accepted);
      CHECK(e.hint() == "Pass --soc_version host to build for this CPU");
    }
  }
  try {
    ResolveTarget("", {cann.with});
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "E10054");
    CHECK(e.message() == "the required parameter --soc_version is empty");
    CHECK(e.hint() == "Pass --soc_version host to build for this CPU");
  }
}

TEST_CASE("target: an Ascend name without CANN names every path searched", "[target]") {
  FakeCann cann;
  // One name per family; the roots are searched in the order given.
  for (const char *name : {"Ascend310", "ascend310p3", "ASCEND310B1", "Ascend910", "Ascend910B1", "ascend910_9362",
                           "Ascend950"}) {
    std::string canonical;
    for (const auto &n : openatc::AscendSocVersions())
      if (Lower(n) == Lower(name)) canonical = n;
    REQUIRE_FALSE(canonical.empty());
    try {
      ResolveTarget(name, {cann.without, cann.dir + "/missing"});
      FAIL("no error for " << name);
    } catch (const openatc::Error &e) {
      CHECK(e.category() == openatc::ErrorCategory::kUsage);
      CHECK(e.code() == "OA1301");
      CHECK(e.message() == "--soc_version " + canonical +
                               " needs CANN's RTC (libacl_rtc.so), which was not found; searched " + cann.without +
                               "/lib64/libacl_rtc.so, " + cann.dir + "/missing/lib64/libacl_rtc.so");
      CHECK(e.hint() == "Install CANN and set ASCEND_HOME_PATH, pass --soc_version host to build for this CPU, or "
                        "emulate the chip on this CPU with `export OPENATC_EMULATION=1` (chips: Ascend910B1, "
                        "Ascend910_9362, Ascend310P3, Ascend310B1)");
    }
  }
}

TEST_CASE("target: with CANN's RTC every Ascend name resolves, case-normalised, never emulated", "[target]") {
  FakeCann cann;
  for (const auto &name : openatc::AscendSocVersions()) {
    for (const std::string &spelling : {name, Lower(name), Upper(name)}) {
      // CANN found in the second root: the first one lacking it does not matter.
      const Target t = ResolveTarget(spelling, {cann.without, cann.with});
      CHECK(t == Target{TargetKind::kAscendCann, name, ""});
      CHECK_FALSE(t.is_host());
    }
  }
}

TEST_CASE("target: an installed OpenATC tree is never taken for CANN", "[target]") {
  FakeCann cann;
  // The same tree marked as OpenATC's own (what `make install` writes, cann_lookup.h).
  ::mkdir((cann.with + "/share").c_str(), 0755);
  ::mkdir((cann.with + "/share/openatc").c_str(), 0755);
  openatc::testing::WriteBytes(cann.with + "/" + openatc::cann::kOpenAtcTreeMarker, "OpenATC\n");
  std::vector<std::string> searched;
  CHECK(openatc::cann::FindCannLibrary("libacl_rtc.so", &searched, {cann.with}).empty());
  REQUIRE(searched == std::vector<std::string>{cann.with + "/lib64/libacl_rtc.so (an OpenATC tree, not CANN)"});
  try {
    (void)ResolveTarget("Ascend910B1", {cann.with});
    FAIL("an OpenATC tree was taken for CANN");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "OA1301");
    CHECK(std::string(e.message()).find("(an OpenATC tree, not CANN)") != std::string::npos);
  }
}

TEST_CASE("target: the default CANN roots start at ASCEND_HOME_PATH", "[target]") {
  FakeCann cann;
  {
    ScopedHome home(cann.with);
    CHECK(openatc::cann::CannRoots() == std::vector<std::string>{cann.with, "/usr/local/Ascend/ascend-toolkit/latest",
                                                                  "/usr/local/Ascend/cann"});
    CHECK(ResolveTarget("ascend910b1") == Target{TargetKind::kAscendCann, "Ascend910B1", ""});
  }
  {
    ScopedHome home(cann.without);
    try {
      ResolveTarget("ASCEND910B1");
      FAIL("no error");
    } catch (const openatc::Error &e) {
      CHECK(e.code() == "OA1301");
      CHECK(e.message() == "--soc_version Ascend910B1 needs CANN's RTC (libacl_rtc.so), which was not found; searched " +
                               cann.without + "/lib64/libacl_rtc.so, /usr/local/Ascend/ascend-toolkit/latest/lib64/"
                                              "libacl_rtc.so, /usr/local/Ascend/cann/lib64/libacl_rtc.so");
    }
  }
  {
    ScopedHome home("");  // set but empty: not a root
    CHECK(openatc::cann::CannRoots() ==
          std::vector<std::string>{"/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/cann"});
  }
}

TEST_CASE("target: with the CANN stand-ins an Ascend name resolves", "[target]") {
  ScopedHome home(openatc::testing::BuildPath("tests/standins/ascend_home"));
  CHECK(ResolveTarget("Ascend310P3") == Target{TargetKind::kAscendCann, "Ascend310P3", ""});
}

TEST_CASE("target: an OM's record as a target", "[target]") {
  using openatc::TargetFromRecord;
  CHECK(TargetFromRecord("host", "x86_64") == Target{TargetKind::kHost, "host", "x86_64"});
  CHECK(TargetFromRecord("host", "riscv64") == Target{TargetKind::kHost, "host", "riscv64"});
  CHECK(TargetFromRecord("Ascend910B1", "") == Target{TargetKind::kAscendCann, "Ascend910B1", ""});
  CHECK(TargetFromRecord("Ascend960", "") == Target{TargetKind::kAscendCann, "Ascend960", ""});
  CHECK_FALSE(TargetFromRecord("HOST", "x86_64"));        // the record holds canonical spellings only
  CHECK_FALSE(TargetFromRecord("ascend910b1", ""));
  CHECK_FALSE(TargetFromRecord("Ascend999", ""));
  // An Ascend chip of the facts table with a CPU arch: emulated on that CPU.
  CHECK(TargetFromRecord("Ascend910B1", "x86_64") == Target{TargetKind::kAscendEmulated, "Ascend910B1", "x86_64"});
  CHECK(TargetFromRecord("Ascend910_9362", "aarch64") ==
        Target{TargetKind::kAscendEmulated, "Ascend910_9362", "aarch64"});
  CHECK_FALSE(TargetFromRecord("Ascend910B2", "x86_64"));  // accepted name, but not emulatable
  CHECK_FALSE(TargetFromRecord("ascend910b1", "x86_64"));  // canonical spellings only
  CHECK_FALSE(TargetFromRecord("", ""));
  CHECK(openatc::DescribeTarget(Target{TargetKind::kAscendEmulated, "Ascend910B1", "x86_64"}) ==
        "Ascend910B1, emulated on host (x86_64)");
}

TEST_CASE("target: the emulation switch's values", "[target][emulation]") {
  using openatc::ParseEmulation;
  CHECK_FALSE(ParseEmulation(nullptr).on());
  CHECK_FALSE(ParseEmulation("").on());
  CHECK(ParseEmulation("1").chip == "Ascend910B1");
  CHECK(ParseEmulation("1").value == "1");
  CHECK(ParseEmulation("ascend910_9362").chip == "Ascend910_9362");
  CHECK(ParseEmulation("Ascend310B1").chip == "Ascend310B1");
  for (const char *bad : {"0", "yes", "Ascend910B2", "host", " 1"}) {
    try {
      ParseEmulation(bad);
      FAIL("no error for " << bad);
    } catch (const openatc::Error &e) {
      CHECK(e.category() == openatc::ErrorCategory::kUsage);
      CHECK(e.code() == "E10001");
      CHECK(e.message() == "value '" + std::string(bad) +
                               "' of OPENATC_EMULATION is not supported. Accepted: 1 (= Ascend910B1), Ascend910B1, "
                               "Ascend910_9362, Ascend310P3, Ascend310B1 (the chips of the facts table, "
                               "common/src/chip_facts.cc)");
      CHECK(e.hint() == "Set OPENATC_EMULATION to one of them, or unset it");
    }
  }
}

TEST_CASE("target: ResolveTarget with the switch, with and without CANN", "[target][emulation]") {
  FakeCann cann;
  const openatc::Emulation off;
  const openatc::Emulation a2 = openatc::ParseEmulation("1");
  const openatc::Emulation a3 = openatc::ParseEmulation("Ascend910_9362");
  const std::string arch = openatc::HostCpuArch();
  for (const auto &roots : {std::vector<std::string>{cann.with}, std::vector<std::string>{cann.without}}) {
    // The switch on: --soc_version picks the chip, CANN present or not; host stays host.
    for (const auto &e : {a2, a3}) {
      CHECK(ResolveTarget("Ascend910B1", e, roots) == Target{TargetKind::kAscendEmulated, "Ascend910B1", arch});
      CHECK(ResolveTarget("ASCEND910_9362", e, roots) == Target{TargetKind::kAscendEmulated, "Ascend910_9362", arch});
      CHECK(ResolveTarget("ascend310p3", e, roots) == Target{TargetKind::kAscendEmulated, "Ascend310P3", arch});
      CHECK(ResolveTarget("host", e, roots) == openatc::HostTarget());
      try {
        ResolveTarget("Ascend910B2", e, roots);
        FAIL("no error");
      } catch (const openatc::Error &err) {
        CHECK(err.code() == "E10001");
        CHECK(err.message() == "--soc_version Ascend910B2 cannot be emulated (OPENATC_EMULATION=" + e.value +
                                   " is set); the chips of the facts table are: Ascend910B1, Ascend910_9362, "
                                   "Ascend310P3, Ascend310B1");
      }
      CHECK_THROWS_AS(ResolveTarget("Ascend999", e, roots), openatc::Error);
      CHECK_THROWS_AS(ResolveTarget("", e, roots), openatc::Error);
    }
  }
  // The switch off: CANN decides, as without the emulation argument.
  CHECK(ResolveTarget("Ascend910B1", off, {cann.with}) == Target{TargetKind::kAscendCann, "Ascend910B1", ""});
  try {
    ResolveTarget("Ascend910B1", off, {cann.without});
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "OA1301");
  }
}

TEST_CASE("target: the one emulation warning line", "[target][emulation]") {
  FakeCann cann;
  const std::string arch = openatc::HostCpuArch();
  CHECK(openatc::EmulationWarning(openatc::Emulation{}, {cann.with}).empty());
  CHECK(openatc::EmulationWarning(openatc::ParseEmulation("1"), {cann.without}) ==
        "OA1302: OPENATC_EMULATION=1: emulation is on: Ascend --soc_version values of the facts table build and run "
        "on this CPU (" + arch + "), the device is an emulated Ascend910B1. Unset OPENATC_EMULATION to stop emulating.");
  CHECK(openatc::EmulationWarning(openatc::ParseEmulation("ascend910_9362"), {cann.without, cann.with}) ==
        "OA1302: OPENATC_EMULATION=ascend910_9362: emulation is on: Ascend --soc_version values of the facts table "
        "build and run on this CPU (" + arch + "), the device is an emulated Ascend910_9362; CANN (" +
            cann.with + "/lib64/libacl_rtc.so) is not used: the switch wins. Unset OPENATC_EMULATION to use CANN.");
}
