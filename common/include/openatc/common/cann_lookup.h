/**
 * @file openatc/common/cann_lookup.h
 * Where CANN is looked for (docs/architecture.md "Targets"): a library LIB is searched as <root>/lib64/LIB
 * for each root of CannRoots(), in order: $ASCEND_HOME_PATH (when set and non-empty),
 * /usr/local/Ascend/ascend-toolkit/latest, /usr/local/Ascend/cann. Used by the target decision
 * (openatc/common/target.h: CANN's RTC), the device's runtime (device/rt: CANN's libascendcl.so)
 * and its RTC (device/rtc: CANN's libacl_rtc.so). Reads the environment; never writes it.
 */
#ifndef OPENATC_COMMON_CANN_LOOKUP_H_
#define OPENATC_COMMON_CANN_LOOKUP_H_

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace openatc {
namespace cann {

/// The CANN install roots searched, in order.
inline std::vector<std::string> CannRoots() {
  std::vector<std::string> roots;
  if (const char *home = std::getenv("ASCEND_HOME_PATH"); home != nullptr && *home != '\0') roots.push_back(home);
  roots.push_back("/usr/local/Ascend/ascend-toolkit/latest");
  roots.push_back("/usr/local/Ascend/cann");
  return roots;
}

/// The first <root>/lib64/`library` over `roots` that is a regular file, or "" when none is.
/// `searched` (optional) receives every candidate path in search order.
inline std::string FindCannLibrary(const std::string &library, std::vector<std::string> *searched,
                                   const std::vector<std::string> &roots) {
  std::string found;
  for (const auto &root : roots) {
    std::string path = root + "/lib64/" + library;
    if (searched != nullptr) searched->push_back(path);
    struct stat st {};
    if (found.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) found = path;
    if (!found.empty() && searched == nullptr) break;
  }
  return found;
}

/// FindCannLibrary over CannRoots().
inline std::string FindCannLibrary(const std::string &library, std::vector<std::string> *searched = nullptr) {
  return FindCannLibrary(library, searched, CannRoots());
}

/// "a, b, c" for messages.
inline std::string JoinPaths(const std::vector<std::string> &paths) {
  std::string s;
  for (const auto &p : paths) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace cann
}  // namespace openatc

#endif  // OPENATC_COMMON_CANN_LOOKUP_H_
