// The threads of the test process (/proc/self/task), for the threading tests
// (ops_threads_test.cc, ops_openmp_binding_test.cc).
#ifndef OPENATC_TESTS_OPS_PROCESS_TASKS_H_
#define OPENATC_TESTS_OPS_PROCESS_TASKS_H_

#include <dirent.h>

#include <fstream>
#include <string>

namespace openatc::testing {

/// The threads of this process, or with `name`, those whose name (comm) is `name`; -1 without /proc.
inline int ProcessTasks(const std::string &name = "") {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  while (const dirent *e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string comm;
    if (!name.empty()) std::ifstream(std::string("/proc/self/task/") + e->d_name + "/comm") >> comm;
    n += name.empty() || comm == name;
  }
  closedir(d);
  return n;
}

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_OPS_PROCESS_TASKS_H_
