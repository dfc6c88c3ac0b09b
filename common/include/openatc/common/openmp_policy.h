// The OpenMP wait policy of the process (docs/architecture.md, Threads).
#ifndef OPENATC_COMMON_OPENMP_POLICY_H_
#define OPENATC_COMMON_OPENMP_POLICY_H_

#include <string>

namespace openatc {

/// Sets GOMP_SPINCOUNT=0 in the environment unless the user already set OMP_WAIT_POLICY or
/// GOMP_SPINCOUNT, so that the GNU libgomp teams of this process (a kernel binary's or OPP
/// library's own OpenMP code, or oneDNN's where a process put libgomp in its global scope) sleep
/// instead of spinning once their work is done. libgomp reads both variables once, when it loads:
/// call this before every dlopen that may bring it in (kernel binaries, OPP libraries). The
/// built-in ops' own team (ops/common/omp_team.h) reads OMP_WAIT_POLICY only, so the user's
/// choice reaches both. Returns the setting in effect, "OMP_WAIT_POLICY=<v>" or
/// "GOMP_SPINCOUNT=<v>". Thread-safe; the environment is changed at most once, on the first call.
std::string PrepareOpenMpWaitPolicy();

}  // namespace openatc

#endif  // OPENATC_COMMON_OPENMP_POLICY_H_
