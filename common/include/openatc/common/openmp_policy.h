// The OpenMP wait policy of the process (docs/architecture.md, Threads).
#ifndef OPENATC_COMMON_OPENMP_POLICY_H_
#define OPENATC_COMMON_OPENMP_POLICY_H_

#include <string>

namespace openatc {

/// Sets OMP_WAIT_POLICY=PASSIVE in the environment unless the user already set OMP_WAIT_POLICY or
/// GOMP_SPINCOUNT, so that oneDNN's OpenMP teams (GNU libgomp, loaded with the built-in ops)
/// sleep instead of spinning once their work is done. libgomp reads both variables once, when it
/// loads: call this before every dlopen that may bring it in (kernel binaries, OPP libraries).
/// Returns the setting in effect, "OMP_WAIT_POLICY=<v>" or "GOMP_SPINCOUNT=<v>". Thread-safe;
/// the environment is changed at most once, on the first call.
std::string PrepareOpenMpWaitPolicy();

}  // namespace openatc

#endif  // OPENATC_COMMON_OPENMP_POLICY_H_
