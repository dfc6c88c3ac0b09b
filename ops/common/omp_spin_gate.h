// Whether a waiting thread of the ops' OpenMP team (omp_team.h) may spin before it sleeps.
//
// The kernel counts the time a thread waited for a CPU while runnable (its run delay,
// /proc/thread-self/schedstat). Each wake from a futex adds a little (~16 us on the 2-core VM: the
// idle CPU's wake-up); a thread that shares its core with another runnable task waits whole time
// slices (milliseconds). A look finds the core contended when the run delay beyond
// kWakeAllowanceMicros per time the thread was scheduled exceeds 1/kContendedShare of the time
// since the previous look; after kContendedLooks contended looks in a row the thread sleeps at
// once for the next kQuietMillis. It looks at most once a millisecond (one pread, ~2 us). Without
// that file, or once a read of it failed, a thread never spins. OMP_WAIT_POLICY=PASSIVE: never
// spin; ACTIVE: always spin, not looking. Each thread that looked keeps the file open (one
// descriptor) until it ends.
//
// Why two looks: on the quiet 2-core VM a thread now and then waits 0.3-2 ms once (a wake queued
// behind the other thread, the host's own work), one look in ~150 ms of light_resnet50 at 2
// threads; with one look enough, each sent the thread to sleep for 100 ms: ~40 sleeps and wakes a
// run instead of ~1, 2-thread medians 5 % above a team that always spins. A core kept busy by
// another process is contended look after look (30+ in a row), so it still quiets the thread
// after one millisecond more of spinning.
#pragma once

#include <cstdint>

namespace openatc_ops::omp_team {

inline constexpr int64_t kWakeAllowanceMicros = 50;
inline constexpr int64_t kContendedShare = 8;
inline constexpr int64_t kQuietMillis = 100;
inline constexpr int kContendedLooks = 2;

enum class WaitPolicy { kAdaptive, kPassive, kActive };

/// OMP_WAIT_POLICY as read once per process (unset or another value: kAdaptive).
WaitPolicy ProcessWaitPolicy();

/// One look's verdict (see above): `delay_ns` and `scheduled` are the growth of the run delay
/// and of the times scheduled since the previous look, `wall_ns` the time since it. Counts the
/// contended looks in a row in `*streak` (a look that is not contended sets it to 0) and returns
/// whether the thread is to go quiet now.
bool QuietAfterLook(int *streak, int64_t delay_ns, int64_t scheduled, int64_t wall_ns);

/// Whether the calling thread may spin now (see above).
bool MaySpin();

/// In a fork's child: the calling thread's look at the parent's thread is forgotten.
void ForgetSpinGateInChild();

}  // namespace openatc_ops::omp_team
