// The threads of the test process (/proc/self/task), for the threading tests
// (ops_threads_test.cc, ops_openmp_binding_test.cc, omp_team_test.cc).
#ifndef OPENATC_TESTS_OPS_PROCESS_TASKS_H_
#define OPENATC_TESTS_OPS_PROCESS_TASKS_H_

#include <dirent.h>

#include <fstream>
#include <string>

namespace openatc::testing {

/// Calls f(tid, folder) for each thread of this process, folder = /proc/self/task/<tid>; false
/// without /proc.
template <typename F>
bool ForEachTask(F &&f) {
  DIR *d = opendir("/proc/self/task");
  if (d == nullptr) return false;
  while (const dirent *e = readdir(d))
    if (e->d_name[0] != '.') f(std::string(e->d_name), std::string("/proc/self/task/") + e->d_name);
  closedir(d);
  return true;
}

/// The name (comm) of the thread whose folder is `task`.
inline std::string TaskName(const std::string &task) {
  std::string comm;
  std::ifstream(task + "/comm") >> comm;
  return comm;
}

/// The time (ms) the thread whose folder is `task` spent on a CPU (schedstat's first field, ns).
inline double TaskCpuMs(const std::string &task) {
  unsigned long long ns = 0;
  std::ifstream(task + "/schedstat") >> ns;
  return static_cast<double>(ns) / 1e6;
}

/// The threads of this process, or with `name`, those whose name (comm) is `name`; -1 without /proc.
inline int ProcessTasks(const std::string &name = "") {
  int n = 0;
  const bool ok = ForEachTask([&](const std::string &, const std::string &task) {
    n += name.empty() || TaskName(task) == name;
  });
  return ok ? n : -1;
}

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_OPS_PROCESS_TASKS_H_
