// The OpenMP team runtime of the built-in ops: the seven OpenMP entry points that oneDNN 2.6 and
// these ops call (GOMP_parallel, GOMP_barrier, omp_get_thread_num, omp_get_num_threads,
// omp_get_max_threads, omp_set_num_threads, omp_in_parallel), defined by this library so that its
// oneDNN binds to them instead of libgomp's, with a wait policy of its own: a waiting thread
// spins for up to kSpinMicros, then sleeps on a futex, and one whose core another runnable task
// shares sleeps at once (omp_spin_gate.h). Why and what it measured: docs/architecture.md,
// Threads.
//
// OMP_WAIT_POLICY (the standard variable): PASSIVE never spins, ACTIVE always spins (up to
// kActiveSpinMicros, not looking at the core); unset: the policy above. OMP_NUM_THREADS (its
// first value) is the default team size, else the CPUs this process may run on. Nested regions
// run on the thread that meets them; a worker's region starts with its master's nthreads-var.
// A thread the system refuses makes the team smaller (oneDNN splits its work over the team it
// gets). A region met after the thread's destructors ran runs on that thread alone.
//
// Binding: the dynamic linker resolves libdnnl's references through the global scope first, then
// through the dependency tree of the object that loaded it, in which this library comes first.
// Where libdnnl was bound elsewhere (libgomp in the global scope, or libdnnl brought in earlier by
// another object), each entry point forwards to the runtime libdnnl uses (omp_binding.h).
#pragma once

#include <cstdint>

namespace openatc_ops::omp_team {

inline constexpr int64_t kSpinMicros = 100;
inline constexpr int64_t kActiveSpinMicros = 1000 * 1000;

/// The name of the team's worker threads (/proc/<pid>/task/<tid>/comm, `top -H`).
inline constexpr char kWorkerName[] = "openatc-omp";

/// Whether the calling thread's team has at least `threads` - 1 workers, none of them sleeps now
/// (they spin after their last region: kSpinMicros, omp_spin_gate.h), so a region of `threads`
/// threads would wake none from the futex, and the calling thread may spin itself (MaySpin: its
/// core is not contended; a spinning worker on a machine short of cores may wait a time slice for
/// its CPU). False without such a team, inside a region, and where the entry points forward to
/// another OpenMP runtime (omp_binding.h), unless that is another copy of this one, which answers.
bool TeamAwake(int threads);

/// Parallel regions of more than one thread that this runtime has run in this process (a test
/// sees from it that oneDNN's regions arrive here; none when they are forwarded elsewhere).
uint64_t RegionsRun();

}  // namespace openatc_ops::omp_team
