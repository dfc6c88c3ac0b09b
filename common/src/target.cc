// The target record's decision (ResolveTarget) and the OM record's reading (TargetFromRecord);
// see openatc/common/target.h.
#include "openatc/common/target.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cctype>

#include "openatc/common/cann_lookup.h"
#include "openatc/common/error.h"

namespace openatc {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

constexpr char kHostHint[] = "Pass --soc_version host to build for this CPU";

}  // namespace

std::string HostCpuArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  struct utsname u {};
  return ::uname(&u) == 0 ? u.machine : "unknown";
#endif
}

Target HostTarget() { return Target{TargetKind::kHost, "host", HostCpuArch()}; }

const std::vector<std::string> &AscendSocVersions() {
  static const std::vector<std::string> names = {
      "Ascend310",     "Ascend310P",       "Ascend310P1",   "Ascend310P3",   "Ascend310B",    "Ascend310B1",
      "Ascend910",     "Ascend910A",       "Ascend910ProA", "Ascend910ProB", "Ascend910PremiumA",
      "Ascend910D",    "Ascend910B",       "Ascend910B1",   "Ascend910B2",   "Ascend910B2C",  "Ascend910B3",
      "Ascend910B4",   "Ascend910_93",     "Ascend910_9391", "Ascend910_9392", "Ascend910_9381",
      "Ascend910_9382", "Ascend910_9372",  "Ascend910_9362", "Ascend910_96",  "Ascend950",     "Ascend960"};
  return names;
}

bool IsHostSocVersion(const std::string &soc_version) { return Lower(soc_version) == "host"; }

Target ResolveTarget(const std::string &soc_version, const std::vector<std::string> &cann_roots) {
  if (soc_version.empty()) {
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --soc_version is empty", kHostHint);
  }
  if (IsHostSocVersion(soc_version)) return HostTarget();
  std::string canonical;
  for (const auto &n : AscendSocVersions())
    if (Lower(n) == Lower(soc_version)) canonical = n;
  if (canonical.empty()) {
    std::string list = "host";
    for (const auto &n : AscendSocVersions()) list += ", " + n;
    throw Error(ErrorCategory::kUsage, "E10001",
                "value '" + soc_version + "' for parameter --soc_version is not supported. Accepted: " + list,
                kHostHint);
  }
  // Compiling for an Ascend chip needs CANN's RTC: without it, fail now naming every path searched.
  std::vector<std::string> searched;
  if (cann::FindCannLibrary("libacl_rtc.so", &searched, cann_roots).empty()) {
    throw Error(ErrorCategory::kUsage, "OA1301",
                "--soc_version " + canonical + " needs CANN's RTC (libacl_rtc.so), which was not found; searched " +
                    cann::JoinPaths(searched),
                "Install CANN and set ASCEND_HOME_PATH, or pass --soc_version host to build for this CPU");
  }
  return Target{TargetKind::kAscendCann, canonical, ""};
}

Target ResolveTarget(const std::string &soc_version) { return ResolveTarget(soc_version, cann::CannRoots()); }

std::optional<Target> TargetFromRecord(const std::string &soc_version, const std::string &arch) {
  if (soc_version == "host") return Target{TargetKind::kHost, "host", arch};
  if (!arch.empty()) return std::nullopt;
  const auto &names = AscendSocVersions();
  if (std::find(names.begin(), names.end(), soc_version) == names.end()) return std::nullopt;
  return Target{TargetKind::kAscendCann, soc_version, ""};
}

std::string DescribeTarget(const Target &target) {
  return target.soc_version + (target.arch.empty() ? "" : " (" + target.arch + ")");
}

}  // namespace openatc
