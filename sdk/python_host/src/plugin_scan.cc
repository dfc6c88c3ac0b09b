// ScanPluginEntries: which ASCEND_CUSTOM_OPP_PATH entries are Python plugins (GE's pre-check).
#include <dirent.h>
#include <sys/stat.h>

#include "openatc/common/error.h"
#include "openatc/python_host/python_host.h"

namespace openatc::python_host {
namespace {

bool EndsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsFile(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDir(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool DirHoldsPlugins(const std::string &dir) {
  DIR *d = ::opendir(dir.c_str());
  if (d == nullptr) return false;
  bool found = false;
  while (dirent *e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.empty() || name[0] == '_' || name[0] == '.') continue;
    const std::string child = dir + "/" + name;
    if ((EndsWith(name, ".py") && IsFile(child)) || (IsDir(child) && IsFile(child + "/__init__.py"))) {
      found = true;
      break;
    }
  }
  ::closedir(d);
  return found;
}

}  // namespace

PluginScan ScanPluginEntries(const std::string &value) {
  PluginScan scan;
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(':', start);
    if (end == std::string::npos) end = value.size();
    const std::string entry = value.substr(start, end - start);
    start = end + 1;
    if (entry.find_first_not_of(" \t") == std::string::npos) continue;
    if (IsFile(entry)) {
      if (EndsWith(entry, ".py")) scan.plugins.push_back(entry);
    } else if (IsDir(entry)) {
      if (DirHoldsPlugins(entry)) scan.plugins.push_back(entry);
    } else if (EndsWith(entry, ".py")) {
      throw Error(ErrorCategory::kUsage, "OA1801",
                  "Python custom op path[" + entry + "] does not exist or is inaccessible (named in "
                  "ASCEND_CUSTOM_OPP_PATH)",
                  "Fix or remove the entry '" + entry + "' in ASCEND_CUSTOM_OPP_PATH");
    } else {
      scan.warnings.push_back("'" + entry + "' does not exist or is inaccessible");
    }
  }
  return scan;
}

}  // namespace openatc::python_host
