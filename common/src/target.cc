// The target record's decision (ResolveTarget) and the OM record's reading (TargetFromRecord);
// see openatc/common/target.h.
#include "openatc/common/target.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "openatc/common/cann_lookup.h"
#include "openatc/common/chip_facts.h"
#include "openatc/common/error.h"

namespace openatc {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

constexpr char kHostHint[] = "Pass --soc_version host to build for this CPU";
constexpr char kSwitch[] = "OPENATC_EMULATION";

// The canonical spelling of an accepted Ascend name, or "".
std::string CanonicalAscend(const std::string &soc_version) {
  for (const auto &n : AscendSocVersions())
    if (Lower(n) == Lower(soc_version)) return n;
  return "";
}

// The first CANN RTC found over `cann_roots`, or "".
std::string CannRtcFound(const std::vector<std::string> &cann_roots) {
  std::vector<std::string> searched;
  return cann::FindCannLibrary("libacl_rtc.so", &searched, cann_roots);
}

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

Emulation ParseEmulation(const char *value) {
  Emulation e;
  if (value == nullptr || *value == '\0') return e;
  e.value = value;
  const ChipFacts *chip = e.value == "1" ? FindChip("Ascend910B1") : FindChip(e.value);
  if (chip == nullptr) {
    throw Error(ErrorCategory::kUsage, "E10001",
                std::string("value '") + value + "' of " + kSwitch + " is not supported. Accepted: 1 (= Ascend910B1), " +
                    ChipTableNames() + " (the chips of the facts table, common/src/chip_facts.cc)",
                std::string("Set ") + kSwitch + " to one of them, or unset it");
  }
  e.chip = chip->soc_version;
  return e;
}

Emulation EmulationFromEnv() {
  struct Read {
    Emulation emulation;
    std::string error_code, error_message, error_hint;
  };
  static const Read read = [] {
    Read r;
    try {
      r.emulation = ParseEmulation(std::getenv(kSwitch));
    } catch (const Error &e) {
      r.error_code = e.code();
      r.error_message = e.message();
      r.error_hint = e.hint();
    }
    return r;
  }();
  if (!read.error_code.empty()) throw Error(ErrorCategory::kUsage, read.error_code, read.error_message, read.error_hint);
  return read.emulation;
}

std::string EmulationWarning(const Emulation &emulation, const std::vector<std::string> &cann_roots) {
  if (!emulation.on()) return "";
  std::string text = std::string("OA1302: ") + kSwitch + "=" + emulation.value + ": emulation is on: Ascend " +
                     "--soc_version values of the facts table build and run on this CPU (" + HostCpuArch() +
                     "), the device is an emulated " + emulation.chip;
  const std::string cann = CannRtcFound(cann_roots);
  if (!cann.empty()) text += "; CANN (" + cann + ") is not used: the switch wins";
  return text + ". Unset " + kSwitch + " to " + (cann.empty() ? "stop emulating." : "use CANN.");
}

Target ResolveTarget(const std::string &soc_version, const Emulation &emulation,
                     const std::vector<std::string> &cann_roots) {
  if (!emulation.on() || soc_version.empty() || IsHostSocVersion(soc_version)) {
    return ResolveTarget(soc_version, cann_roots);
  }
  const ChipFacts *chip = FindChip(soc_version);
  if (chip == nullptr) {
    throw Error(ErrorCategory::kUsage, "E10001",
                "--soc_version " + soc_version + " cannot be emulated (" + kSwitch + "=" + emulation.value +
                    " is set); the chips of the facts table are: " + ChipTableNames(),
                std::string("Pass one of them, or --soc_version host; for another chip unset ") + kSwitch +
                    " and install CANN");
  }
  return Target{TargetKind::kAscendEmulated, chip->soc_version, HostCpuArch()};
}

Target ResolveTarget(const std::string &soc_version, const Emulation &emulation) {
  return ResolveTarget(soc_version, emulation, cann::CannRoots());
}

Target ResolveTarget(const std::string &soc_version, const std::vector<std::string> &cann_roots) {
  if (soc_version.empty()) {
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --soc_version is empty", kHostHint);
  }
  if (IsHostSocVersion(soc_version)) return HostTarget();
  const std::string canonical = CanonicalAscend(soc_version);
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
                "Install CANN and set ASCEND_HOME_PATH, pass --soc_version host to build for this CPU, or emulate "
                "the chip on this CPU with `export OPENATC_EMULATION=1` (chips: " + ChipTableNames() + ")");
  }
  return Target{TargetKind::kAscendCann, canonical, ""};
}

Target ResolveTarget(const std::string &soc_version) { return ResolveTarget(soc_version, cann::CannRoots()); }

std::optional<Target> TargetFromRecord(const std::string &soc_version, const std::string &arch) {
  if (soc_version == "host") return Target{TargetKind::kHost, "host", arch};
  if (!arch.empty()) {
    const ChipFacts *chip = FindChip(soc_version);
    if (chip == nullptr || chip->soc_version != soc_version) return std::nullopt;
    return Target{TargetKind::kAscendEmulated, soc_version, arch};
  }
  const auto &names = AscendSocVersions();
  if (std::find(names.begin(), names.end(), soc_version) == names.end()) return std::nullopt;
  return Target{TargetKind::kAscendCann, soc_version, ""};
}

std::string DescribeTarget(const Target &target) {
  if (target.kind == TargetKind::kAscendEmulated) {
    return target.soc_version + ", emulated on host" + (target.arch.empty() ? "" : " (" + target.arch + ")");
  }
  return target.soc_version + (target.arch.empty() ? "" : " (" + target.arch + ")");
}

}  // namespace openatc
