/**
 * @file openatc/common/cann_lookup.h
 * Where CANN is looked for (docs/architecture.md "Targets"): a library LIB is searched as <root>/lib64/LIB
 * for each root of CannRoots(), in order: $ASCEND_HOME_PATH (when set and non-empty),
 * /usr/local/Ascend/ascend-toolkit/latest, /usr/local/Ascend/cann. Used by the target decision
 * (openatc/common/target.h: CANN's RTC), the device's runtime (device/rt: CANN's libascendcl.so)
 * and its RTC (device/rtc: CANN's libacl_rtc.so). Reads the environment; never writes it.
 *
 * An installed OpenATC tree has CANN's shape and library names (README.md "Installed tree"), and
 * its set_env.sh points ASCEND_HOME_PATH at it; such a root is recognised by the marker file
 * kOpenAtcTreeMarker that `make install` writes and is never taken for CANN.
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

/// The file, relative to an install root, that marks an OpenATC tree (cmake/InstallEnv.cmake).
inline constexpr const char *kOpenAtcTreeMarker = "share/openatc/openatc_tree";

/// True when `root` is an installed OpenATC tree, not CANN.
inline bool IsOpenAtcTree(const std::string &root) {
  struct stat st {};
  return ::stat((root + "/" + kOpenAtcTreeMarker).c_str(), &st) == 0;
}

/// The first <root>/lib64/`library` over `roots` that is a regular file, or "" when none is.
/// Roots that are OpenATC trees are skipped. `searched` (optional) receives every candidate path
/// in search order (a skipped one with " (an OpenATC tree, not CANN)").
inline std::string FindCannLibrary(const std::string &library, std::vector<std::string> *searched,
                                   const std::vector<std::string> &roots) {
  std::string found;
  for (const auto &root : roots) {
    std::string path = root + "/lib64/" + library;
    const bool ours = IsOpenAtcTree(root);
    if (searched != nullptr) searched->push_back(ours ? path + " (an OpenATC tree, not CANN)" : path);
    if (ours) continue;
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
