/**
 * @file openatc/common/target.h
 * Internal (not SDK) header-only API: the process-wide "current target" the RTC compiles for,
 * and where CANN is looked for (design.md "Targets"; atc-cli.md §7). It lives in common/ because
 * the device's runtime (device/rt: CANN's libascendcl.so), its RTC (device/rtc: the current
 * target, CANN's libacl_rtc.so), the loader (loader/mdl) and the compiler (atc/compiler) all read it.
 *
 * Current target: `atc` resolves --soc_version once at start (atc/compiler/src/target.cc) and
 * records it here before any op's Compile runs; libacl_rtc reads it in aclrtcCreateProg. "host"
 * (the default, also when never set) compiles with the host RTC; an Ascend name forwards the
 * program to CANN's libacl_rtc.so. The value lives in the environment variable
 * OPENATC_RTC_TARGET, so that it reaches libacl_rtc however that library was loaded (atc does
 * not link it; deliverables pull it in) and needs no link dependency. Set it before threads
 * that compile start (setenv is not thread-safe against concurrent getenv).
 *
 * CANN lookup: a library LIB is searched as <root>/lib64/LIB for each root of CannRoots(), in
 * order: $ASCEND_HOME_PATH (when set and non-empty), /usr/local/Ascend/ascend-toolkit/latest,
 * /usr/local/Ascend/cann.
 */
#ifndef OPENATC_COMMON_TARGET_H_
#define OPENATC_COMMON_TARGET_H_

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace openatc {
namespace target {

/// The environment variable holding the current target's canonical soc_version.
inline constexpr char kTargetEnv[] = "OPENATC_RTC_TARGET";

/// True for "host" in any letter case, and for "" (the default).
inline bool IsHostTarget(const std::string &soc_version) {
  if (soc_version.empty()) return true;
  if (soc_version.size() != 4) return false;
  std::string s = soc_version;
  for (char &c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s == "host";
}

/// Records the canonical soc_version later Compile calls build for ("host" clears it).
inline void SetCurrentTarget(const std::string &soc_version) {
  if (IsHostTarget(soc_version)) {
    ::unsetenv(kTargetEnv);
  } else {
    ::setenv(kTargetEnv, soc_version.c_str(), 1);
  }
}

/// The current target: "host" unless SetCurrentTarget recorded an Ascend name.
inline std::string CurrentTarget() {
  const char *v = std::getenv(kTargetEnv);
  return v == nullptr || IsHostTarget(v) ? std::string("host") : std::string(v);
}

/// The CANN install roots searched, in order.
inline std::vector<std::string> CannRoots() {
  std::vector<std::string> roots;
  if (const char *home = std::getenv("ASCEND_HOME_PATH"); home != nullptr && *home != '\0') roots.push_back(home);
  roots.push_back("/usr/local/Ascend/ascend-toolkit/latest");
  roots.push_back("/usr/local/Ascend/cann");
  return roots;
}

/// The first <root>/lib64/`library` that exists, or "" when none does. `searched` (optional)
/// receives every candidate path in search order.
inline std::string FindCannLibrary(const std::string &library, std::vector<std::string> *searched = nullptr) {
  std::string found;
  for (const auto &root : CannRoots()) {
    std::string path = root + "/lib64/" + library;
    if (searched != nullptr) searched->push_back(path);
    struct stat st {};
    if (found.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) found = path;
    if (!found.empty() && searched == nullptr) break;
  }
  return found;
}

/// "a, b, c" for messages.
inline std::string JoinPaths(const std::vector<std::string> &paths) {
  std::string s;
  for (const auto &p : paths) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace target
}  // namespace openatc

#endif  // OPENATC_COMMON_TARGET_H_
