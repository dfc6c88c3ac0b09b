// --soc_version resolution (atc/compiler target.cc; docs/atc-flags.md §7): "host" and every Ascend
// name in any letter case resolve to the canonical spelling; an unknown name gets E10001 with
// the accepted list; an Ascend name without CANN's RTC gets OA1301 naming every path searched.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "openatc/common/error.h"
#include "openatc/compiler/target.h"
#include "run_command.h"

using openatc::compiler::ResolveTarget;

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

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

TEST_CASE("soc_version: the accepted names", "[acl][target]") {
  // docs/atc-flags.md §7, families 310 / 910 / 910B / 910_93 / newer (28 names; nano is mode-30
  // only).
  const std::vector<std::string> expected = {
      "Ascend310",      "Ascend310P",     "Ascend310P1",    "Ascend310P3",    "Ascend310B",     "Ascend310B1",
      "Ascend910",      "Ascend910A",     "Ascend910ProA",  "Ascend910ProB",  "Ascend910PremiumA", "Ascend910D",
      "Ascend910B",     "Ascend910B1",    "Ascend910B2",    "Ascend910B2C",   "Ascend910B3",    "Ascend910B4",
      "Ascend910_93",   "Ascend910_9391", "Ascend910_9392", "Ascend910_9381", "Ascend910_9382", "Ascend910_9372",
      "Ascend910_9362", "Ascend910_96",   "Ascend950",      "Ascend960"};
  CHECK(openatc::compiler::AscendSocVersions() == expected);
}

TEST_CASE("soc_version: host in any case", "[acl][target]") {
  for (const char *s : {"host", "HOST", "Host", "hOsT"}) {
    auto t = ResolveTarget(s);
    CHECK(t.soc_version == "host");
    CHECK(t.is_host());
    CHECK_FALSE(t.arch.empty());
  }
}

TEST_CASE("soc_version: unknown and empty names", "[acl][target]") {
  try {
    ResolveTarget("Ascend999");
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "E10001");
    CHECK(e.message().find("value 'Ascend999' for parameter --soc_version is not supported. Accepted: host, Ascend310, "
                           "Ascend310P,") == 0);
    CHECK(e.message().find("Ascend960") != std::string::npos);
  }
  try {
    ResolveTarget("");
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "E10054");
  }
}

TEST_CASE("soc_version: Ascend names without CANN name every path searched", "[acl][target]") {
  const std::string dir = openatc::testing::MakeTempDir();
  ScopedHome home(dir + "/no-cann");
  try {
    ResolveTarget("ASCEND910B1");
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "OA1301");
    CHECK(e.message() == "--soc_version Ascend910B1 needs CANN's RTC (libacl_rtc.so), which was not found; searched " +
                             dir + "/no-cann/lib64/libacl_rtc.so, /usr/local/Ascend/ascend-toolkit/latest/lib64/"
                                   "libacl_rtc.so, /usr/local/Ascend/cann/lib64/libacl_rtc.so");
    CHECK(e.hint() == "Install CANN and set ASCEND_HOME_PATH, or pass --soc_version host to build for this CPU");
  }
  openatc::testing::RemoveTree(dir);
}

TEST_CASE("soc_version: with CANN's RTC present every Ascend name resolves, case-normalised", "[acl][target]") {
  ScopedHome home(openatc::testing::BuildPath("tests/standins/ascend_home"));
  for (const auto &name : openatc::compiler::AscendSocVersions()) {
    for (const std::string &spelling : {name, Lower(name), Upper(name)}) {
      auto t = ResolveTarget(spelling);
      CHECK(t.soc_version == name);
      CHECK_FALSE(t.is_host());
    }
  }
}
