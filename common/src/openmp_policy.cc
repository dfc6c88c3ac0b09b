// The OpenMP wait policy of the process (see openmp_policy.h).
#include "openatc/common/openmp_policy.h"

#include <cstdlib>

namespace openatc {

std::string PrepareOpenMpWaitPolicy() {
  static const std::string policy = [] {
    const char *spin = std::getenv("GOMP_SPINCOUNT");
    const char *wait = std::getenv("OMP_WAIT_POLICY");
    if (wait != nullptr) return std::string("OMP_WAIT_POLICY=") + wait;
    if (spin != nullptr) return std::string("GOMP_SPINCOUNT=") + spin;
    setenv("GOMP_SPINCOUNT", "0", 0);
    return std::string("GOMP_SPINCOUNT=0");
  }();
  return policy;
}

}  // namespace openatc
