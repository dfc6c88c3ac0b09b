// Running a tool as a child process with a wall-clock timeout, output captured to files
// (used by the ONNX conformance runner).
#ifndef OPENATC_TESTS_CONFORMANCE_SUBPROCESS_H_
#define OPENATC_TESTS_CONFORMANCE_SUBPROCESS_H_

#include <string>
#include <vector>

namespace openatc::conformance {

struct ProcessResult {
  int exit_code = -1;    ///< exit status when it exited normally
  int signal = 0;        ///< the terminating signal, 0 if it exited
  bool timed_out = false;
  std::string err;       ///< stderr (first 64 KiB)
  std::string out;       ///< stdout (first 64 KiB)
};

/// Runs argv (argv[0] is a path) in its own process group with ASCEND_CUSTOM_OPP_PATH unset and
/// stdout/stderr sent to `<log_prefix>.out` / `.err`; kills the group after `timeout_s` seconds.
ProcessResult RunWithTimeout(const std::vector<std::string> &argv, double timeout_s, const std::string &log_prefix);

}  // namespace openatc::conformance

#endif  // OPENATC_TESTS_CONFORMANCE_SUBPROCESS_H_
