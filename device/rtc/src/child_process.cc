// Runs one child process of the host RTC (see child_process.h). stdin and the merged
// stdout/stderr are serviced together with poll(), so large sources or logs cannot deadlock.
#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "acl/acl_rtc_error.h"
#include "openatc/common/error.h"

extern char **environ;

namespace openatc {
namespace rtc {
namespace {

[[noreturn]] void Fail(const std::string &message, const std::string &hint = {}) {
  throw openatc::Error(ErrorCategory::kInternal, "ACL" + std::to_string(ACL_ERROR_RTC_FAILURE), message, hint);
}

/** Writes `input` to `in_fd` and collects `out_fd` until EOF, without blocking on either. */
std::string Pump(Fd &in_fd, Fd &out_fd, const std::string &input) {
  std::string output;
  size_t written = 0;
  if (input.empty()) in_fd.Reset();
  fcntl(in_fd.fd, F_SETFL, O_NONBLOCK);
  char buf[16384];
  while (out_fd.fd >= 0) {
    pollfd fds[2];
    nfds_t n = 0;
    fds[n++] = {out_fd.fd, POLLIN, 0};
    if (in_fd.fd >= 0) fds[n++] = {in_fd.fd, POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      Fail(std::string("poll failed while running the compiler: ") + std::strerror(errno));
    }
    if (n > 1 && fds[1].revents != 0) {
      ssize_t w = send(in_fd.fd, input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in_fd.Reset();  // EOF for clang
    }
    if (fds[0].revents != 0) {
      ssize_t r = read(out_fd.fd, buf, sizeof buf);
      if (r > 0) {
        output.append(buf, static_cast<size_t>(r));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        out_fd.Reset();
      }
    }
  }
  return output;
}

}  // namespace

ChildResult RunChild(const std::vector<std::string> &args, const std::string &input, const std::string &cwd,
                     const std::string &what, const std::string &hint) {
  std::vector<char *> argv;
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);

  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) Fail(std::string("socketpair failed: ") + std::strerror(errno));
  Fd in_parent(sv[0]), in_child(sv[1]);
  int pp[2];
  if (pipe2(pp, O_CLOEXEC) != 0) Fail(std::string("pipe failed: ") + std::strerror(errno));
  Fd out_parent(pp[0]), out_child(pp[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_child.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, out_child.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, out_child.fd, 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = -1;
  const std::string &prog = args.front();
  int rc = prog.find('/') == std::string::npos ? posix_spawnp(&pid, prog.c_str(), &actions, nullptr, argv.data(), environ)
                                               : posix_spawn(&pid, prog.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) Fail("cannot run " + what + " '" + prog + "': " + std::strerror(rc), hint);
  in_child.Reset();
  out_child.Reset();

  ChildResult result;
  std::string pump_error;
  try {
    result.log = Pump(in_parent, out_parent, input);
  } catch (const openatc::Error &e) {
    pump_error = e.message();
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!pump_error.empty()) Fail(pump_error);
  if (WIFSIGNALED(status)) result.log += "\n" + prog + " was killed by signal " + std::to_string(WTERMSIG(status)) + "\n";
  result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return result;
}

}  // namespace rtc
}  // namespace openatc
