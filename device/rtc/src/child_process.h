// Runs one child process of the host RTC (the compiler, its launcher, the linker step) with its
// stdin fed from a string and its stdout+stderr collected, without deadlocking on either pipe.
#ifndef OPENATC_RTC_SRC_CHILD_PROCESS_H_
#define OPENATC_RTC_SRC_CHILD_PROCESS_H_

#include <unistd.h>

#include <string>
#include <vector>

namespace openatc {
namespace rtc {

/** Closes a file descriptor when it goes out of scope. */
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { Reset(); }
  void Reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

struct ChildResult {
  bool ok = false;  ///< exited with status 0
  std::string log;  ///< everything it printed (stdout + stderr), plus a line when it was killed
};

/** Runs `args` (args[0] looked up on PATH when it has no '/') in `cwd` (empty: ours), writing
 *  `input` to its stdin. Throws openatc::Error (ACL_ERROR_RTC_FAILURE) when it cannot be started:
 *  "cannot run <what> '<args[0]>': <reason>", with `hint` as its advice. File descriptors of ours that are not close-on-exec (the
 *  output memfd) are inherited. */
ChildResult RunChild(const std::vector<std::string> &args, const std::string &input, const std::string &cwd,
                     const std::string &what, const std::string &hint);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_CHILD_PROCESS_H_
