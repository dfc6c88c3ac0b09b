// --soc_version resolution: host, the Ascend names (case-normalised), and the CANN RTC lookup;
// records the resolved target as the RTC's current target (openatc/common/target.h).
#include "openatc/compiler/target.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "openatc/common/error.h"
#include "openatc/common/target.h"
#include "openatc/opp/opp_paths.h"

namespace openatc::compiler {
namespace {
std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

const std::vector<std::string> &AscendSocVersions() {
  static const std::vector<std::string> names = {
      "Ascend310",     "Ascend310P",       "Ascend310P1",   "Ascend310P3",   "Ascend310B",    "Ascend310B1",
      "Ascend910",     "Ascend910A",       "Ascend910ProA", "Ascend910ProB", "Ascend910PremiumA",
      "Ascend910D",    "Ascend910B",       "Ascend910B1",   "Ascend910B2",   "Ascend910B2C",  "Ascend910B3",
      "Ascend910B4",   "Ascend910_93",     "Ascend910_9391", "Ascend910_9392", "Ascend910_9381",
      "Ascend910_9382", "Ascend910_9372",  "Ascend910_9362", "Ascend910_96",  "Ascend950",     "Ascend960"};
  return names;
}

Target ResolveTarget(const std::string &soc_version) {
  if (soc_version.empty()) {
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --soc_version is empty",
                "Pass --soc_version host to build for this CPU");
  }
  if (Lower(soc_version) == "host") {
    target::SetCurrentTarget("host");
    return Target{"host", opp::HostArch()};
  }
  std::string canonical;
  for (const auto &n : AscendSocVersions())
    if (Lower(n) == Lower(soc_version)) canonical = n;
  if (canonical.empty()) {
    std::string list = "host";
    for (const auto &n : AscendSocVersions()) list += ", " + n;
    throw Error(ErrorCategory::kUsage, "E10001",
                "value '" + soc_version + "' for parameter --soc_version is not supported. Accepted: " + list,
                "Pass --soc_version host to build for this CPU");
  }
  // CANN's RTC compiles for Ascend: libacl_rtc forwards every program created from here on
  // (openatc/common/target.h "current target"); without it, fail now naming every path searched.
  std::vector<std::string> searched;
  if (target::FindCannLibrary("libacl_rtc.so", &searched).empty()) {
    throw Error(ErrorCategory::kUsage, "OA1301",
                "--soc_version " + canonical + " needs CANN's RTC (libacl_rtc.so), which was not found; searched " +
                    target::JoinPaths(searched),
                "Install CANN and set ASCEND_HOME_PATH, or pass --soc_version host to build for this CPU");
  }
  target::SetCurrentTarget(canonical);
  return Target{canonical, ""};
}

}  // namespace openatc::compiler
