// OPP root resolution and deliverable listing in GE's search order.
#include "openatc/opp/opp_paths.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "openatc/common/target.h"

namespace openatc::opp {
namespace {
bool IsRegularFile(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool IsDir(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
std::string Join(const std::string &a, const std::string &b) {
  if (a.empty() || a.back() == '/') return a + b;
  return a + "/" + b;
}
bool EndsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

std::string HostOs() { return "linux"; }

std::string HostArch() { return HostCpuArch(); }

std::string BuiltinOppRootBeside(const std::string &binary_path) {
  const size_t slash = binary_path.find_last_of('/');
  const std::string root = (slash == std::string::npos ? std::string(".") : binary_path.substr(0, slash)) + "/../opp/built-in";
  char resolved[PATH_MAX];
  struct stat st {};
  if (::realpath(root.c_str(), resolved) == nullptr || ::stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) return "";
  return resolved;
}

std::vector<std::string> CustomOppRootsFromEnv() {
  std::vector<std::string> roots;
  const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  if (env == nullptr) return roots;
  std::string s = env;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(':', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) roots.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return roots;
}

std::vector<std::string> DeliverablesInRoot(const std::string &root, std::vector<std::string> *searched) {
  std::vector<std::string> out;
  const std::string top = Join(root, "libcust_opapi.so");
  if (searched) searched->push_back(top);
  if (IsRegularFile(top)) out.push_back(top);
  const std::string dir = Join(root, "op_graph/lib/" + HostOs() + "/" + HostArch());
  if (searched) searched->push_back(dir + "/*.so");
  DIR *d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  std::vector<std::string> names;
  while (dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (EndsWith(name, ".so") && IsRegularFile(Join(dir, name))) names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
    return std::strcmp(a.c_str(), b.c_str()) < 0;
  });
  for (const auto &n : names) out.push_back(Join(dir, n));
  return out;
}

std::string DiagnoseRoot(const std::string &root) {
  if (!IsDir(root)) return "'" + root + "' does not exist or is not a directory";
  if (IsRegularFile(Join(root, "libcust_opapi.so")) || IsDir(Join(root, "op_graph"))) return "";
  // Common mistakes: pointing at op_graph/, at lib/linux/<arch>, or at the parent of the root.
  std::string probe = root;
  for (int up = 0; up < 5 && !probe.empty(); ++up) {
    size_t slash = probe.find_last_of('/');
    if (slash == std::string::npos || slash == 0) break;
    probe = probe.substr(0, slash);
    if (IsDir(Join(probe, "op_graph")) || IsRegularFile(Join(probe, "libcust_opapi.so")))
      return "'" + root + "' is inside an OPP root; set ASCEND_CUSTOM_OPP_PATH to '" + probe + "' instead";
  }
  DIR *d = ::opendir(root.c_str());
  if (d != nullptr) {
    std::string found;
    while (dirent *e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string child = Join(root, name);
      if (IsDir(Join(child, "op_graph")) || IsRegularFile(Join(child, "libcust_opapi.so"))) {
        found = child;
        break;
      }
    }
    ::closedir(d);
    if (!found.empty())
      return "'" + root + "' is the parent of an OPP root; set ASCEND_CUSTOM_OPP_PATH to '" + found + "' instead";
  }
  return "'" + root + "' has neither libcust_opapi.so nor op_graph/lib/" + HostOs() + "/" + HostArch() + "/";
}

}  // namespace openatc::opp
