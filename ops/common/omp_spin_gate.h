// Whether a waiting thread of the ops' OpenMP team (omp_team.h) may spin before it sleeps.
//
// The kernel counts the time a thread waited for a CPU while runnable (its run delay,
// /proc/thread-self/schedstat). Each wake from a futex adds a little (~16 us on the 2-core VM: the
// idle CPU's wake-up); a thread that shares its core with another runnable task waits whole time
// slices (milliseconds). A look finds the core contended when the run delay beyond
// kWakeAllowanceMicros per time the thread was scheduled exceeds 1/kContendedShare of the time
// since the previous look. A contended look makes the thread sleep at once (never spin) for the
// next kBriefQuietMillis, or for the next kQuietMillis when its previous contended look was at
// most kRecentMillis before. It looks at most once a millisecond (one pread, ~2 us), also while
// quiet. Without that file, or once a read of it failed, a thread never spins.
// OMP_WAIT_POLICY=PASSIVE: never spin; ACTIVE: always spin, not looking. Each thread that looked
// keeps the file open (one descriptor) until it ends.
//
// Why two lengths: on the quiet 2-core VM a thread now and then waits 0.3-2 ms once (a wake queued
// behind the other thread, the host's own work), a contended look every ~150 ms of light_resnet50
// at 2 threads; when each sent the thread to sleep for 100 ms, a run had ~26 voluntary context
// switches instead of ~5 and 2-thread medians were 4 % above a team that always spins. A core kept
// busy by another process gives contended looks every few milliseconds, though not at each look
// (a thread that sleeps between regions often gets its CPU at once), so two within kRecentMillis
// quiet it for long; asking for two in a row instead took ultraface-rfb-320 at 2 threads from 2.9
// to 4.6 ms with one core busy (1 thread: 2.6).
#pragma once

#include <cstdint>

namespace openatc_ops::omp_team {

inline constexpr int64_t kWakeAllowanceMicros = 50;
inline constexpr int64_t kContendedShare = 8;
inline constexpr int64_t kBriefQuietMillis = 10;
inline constexpr int64_t kQuietMillis = 100;
inline constexpr int64_t kRecentMillis = 20;

enum class WaitPolicy { kAdaptive, kPassive, kActive };

/// OMP_WAIT_POLICY as read once per process (unset or another value: kAdaptive).
WaitPolicy ProcessWaitPolicy();

/// One look's verdict (see above): `delay_ns` and `scheduled` are the growth of the run delay
/// and of the times scheduled since the previous look, `wall_ns` the time since it, `now_ms` a
/// steady clock. Returns how many milliseconds from now the thread is to stay quiet (0: the look
/// is not contended); `*last_contended_ms` holds the time of the thread's previous contended
/// look (initially a time kRecentMillis or more in the past) and is updated.
int64_t QuietMillisAfterLook(int64_t *last_contended_ms, int64_t now_ms, int64_t delay_ns, int64_t scheduled,
                             int64_t wall_ns);

/// Whether the calling thread may spin now (see above).
bool MaySpin();

/// In a fork's child: the calling thread's look at the parent's thread is forgotten.
void ForgetSpinGateInChild();

}  // namespace openatc_ops::omp_team
