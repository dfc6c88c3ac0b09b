// Whether a waiting team thread may spin (see omp_spin_gate.h).
#include "common/omp_spin_gate.h"

#include <fcntl.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace openatc_ops::omp_team {
namespace {

using Clock = std::chrono::steady_clock;

WaitPolicy ReadPolicy() {
  const char *v = std::getenv("OMP_WAIT_POLICY");
  if (v != nullptr && strcasecmp(v, "passive") == 0) return WaitPolicy::kPassive;
  if (v != nullptr && strcasecmp(v, "active") == 0) return WaitPolicy::kActive;
  return WaitPolicy::kAdaptive;
}

// Trivially destructible, so that a wait after the thread's destructors ran (an op run from
// another thread_local's destructor) still finds it; the descriptor is closed by GateCloser.
struct Gate {
  int fd = -2;  // -2: not opened yet, -1: unavailable (never spin)
  int64_t delay_ns = -1, scheduled = 0;
  int64_t last_contended_ms = -kRecentMillis - 1;  // steady clock, ms
  Clock::time_point last_look{}, next_look{}, quiet_until{};
};

thread_local Gate t_gate;

struct GateCloser {
  ~GateCloser() {
    if (t_gate.fd >= 0) close(t_gate.fd);
    t_gate.fd = -1;
  }
};

// The thread's run delay so far (ns) and the times it was scheduled; false if unknown (then the
// thread never looks again).
bool Read(Gate &g, int64_t *delay, int64_t *scheduled) {
  if (g.fd == -2) {
    g.fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (g.fd >= 0) {
      thread_local GateCloser closer;
      (void)closer;
    }
  }
  if (g.fd < 0) return false;
  char text[96];
  const ssize_t n = pread(g.fd, text, sizeof text - 1, 0);
  unsigned long long on_cpu = 0, waited = 0, count = 0;
  if (n > 0) text[n] = '\0';
  if (n <= 0 || std::sscanf(text, "%llu %llu %llu", &on_cpu, &waited, &count) != 3) {
    close(g.fd);
    g.fd = -1;
    return false;
  }
  *delay = static_cast<int64_t>(waited);
  *scheduled = static_cast<int64_t>(count);
  return true;
}

}  // namespace

WaitPolicy ProcessWaitPolicy() {
  static const WaitPolicy policy = ReadPolicy();
  return policy;
}

int64_t QuietMillisAfterLook(int64_t *last_contended_ms, int64_t now_ms, int64_t delay_ns, int64_t scheduled,
                             int64_t wall_ns) {
  const int64_t excess = delay_ns - scheduled * kWakeAllowanceMicros * 1000;
  if (excess * kContendedShare <= wall_ns) return 0;
  const bool again = now_ms - *last_contended_ms <= kRecentMillis;
  *last_contended_ms = now_ms;
  return again ? kQuietMillis : kBriefQuietMillis;
}

bool MaySpin() {
  const WaitPolicy policy = ProcessWaitPolicy();
  if (policy != WaitPolicy::kAdaptive) return policy == WaitPolicy::kActive;
  Gate &g = t_gate;
  const Clock::time_point now = Clock::now();
  if (now >= g.next_look) {
    g.next_look = now + std::chrono::milliseconds(1);
    int64_t delay = 0, scheduled = 0;
    if (!Read(g, &delay, &scheduled)) return false;
    if (g.delay_ns >= 0) {
      const int64_t wall = std::chrono::duration_cast<std::chrono::nanoseconds>(now - g.last_look).count();
      const int64_t now_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
      const int64_t quiet =
          QuietMillisAfterLook(&g.last_contended_ms, now_ms, delay - g.delay_ns, scheduled - g.scheduled, wall);
      if (quiet > 0) g.quiet_until = std::max(g.quiet_until, now + std::chrono::milliseconds(quiet));
    }
    g.delay_ns = delay;
    g.scheduled = scheduled;
    g.last_look = now;
  }
  return g.fd >= 0 && g.delay_ns >= 0 && now >= g.quiet_until;
}

void ForgetSpinGateInChild() {
  // The descriptor names the parent's thread (/proc/thread-self resolved at open): look anew.
  if (t_gate.fd >= 0) close(t_gate.fd);
  t_gate = Gate{};
}

}  // namespace openatc_ops::omp_team
