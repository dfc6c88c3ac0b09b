// Whether a waiting thread of the ops' OpenMP team (omp_team.h) may spin before it sleeps.
//
// The kernel counts the time a thread waited for a CPU while runnable (its run delay,
// /proc/thread-self/schedstat). Each wake from a futex adds a little (~16 us on the 2-core VM: the
// idle CPU's wake-up); a thread that shares its core with another runnable task waits whole time
// slices (milliseconds). So a thread whose run delay beyond kWakeAllowanceMicros per time it was
// scheduled exceeds 1/kContendedShare of the time since its last look sleeps at once for the next
// kQuietMillis. It looks at most once a millisecond (one pread, ~2 us). Without that file, or
// once a read of it failed, a thread never spins. OMP_WAIT_POLICY=PASSIVE: never spin; ACTIVE:
// always spin, not looking. Each thread that looked keeps the file open (one descriptor) until it
// ends.
#pragma once

#include <cstdint>

namespace openatc_ops::omp_team {

inline constexpr int64_t kWakeAllowanceMicros = 50;
inline constexpr int64_t kContendedShare = 8;
inline constexpr int64_t kQuietMillis = 100;

enum class WaitPolicy { kAdaptive, kPassive, kActive };

/// OMP_WAIT_POLICY as read once per process (unset or another value: kAdaptive).
WaitPolicy ProcessWaitPolicy();

/// Whether the calling thread may spin now (see above).
bool MaySpin();

/// In a fork's child: the calling thread's look at the parent's thread is forgotten.
void ForgetSpinGateInChild();

}  // namespace openatc_ops::omp_team
