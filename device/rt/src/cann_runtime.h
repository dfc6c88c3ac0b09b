// The runtime backend of this process: the host runtime (default) or, for OMs built for an
// Ascend soc_version, CANN's libascendcl.so opened with dlopen (docs/architecture.md "Targets").
// Once an Ascend backend is selected, every aclrt* call of host_rt.h's list made through
// libascendcl (by the runtime, the executor, custom ops' Execute and the application) goes to CANN.
#ifndef OPENATC_RT_SRC_CANN_RUNTIME_H_
#define OPENATC_RT_SRC_CANN_RUNTIME_H_

#include <string>

#include "host_rt.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rt {

struct CannRuntime {
  std::string target;  ///< the soc_version of the kAscendCann target that selected it
  std::string path;    ///< the library opened
#define OPENATC_CANN_RT_POINTER(name, params, args, required) decltype(&::name) name = nullptr;
  OPENATC_RT_FORWARDED(OPENATC_CANN_RT_POINTER)
#undef OPENATC_CANN_RT_POINTER
};

/** The CANN backend when one is selected, else nullptr (host). Lock-free after selection. */
const CannRuntime *ActiveCann();

/** SelectBackend (openatc/rt/runtime.h) in detail. kHost: a no-op unless an Ascend backend is
 *  active (then ACL_ERROR_FEATURE_UNSUPPORTED: one process runs one backend). kAscendCann: opens
 *  CANN's libascendcl.so, searched as <root>/lib64/libascendcl.so for the roots of
 *  openatc/common/cann_lookup.h (ASCEND_HOME_PATH, then /usr/local/Ascend/ascend-toolkit/latest,
 *  then /usr/local/Ascend/cann), then calls CANN's aclInit(nullptr) (ACL_ERROR_REPEAT_INITIALIZE
 *  accepted) and aclrtSetDevice(0). Selecting the active target again is a no-op. Errors
 *  (aclGetRecentErrMsg has the text): ACL_ERROR_FEATURE_UNSUPPORTED naming the target and every
 *  path searched when CANN is absent, or the library and its missing entry points; CANN's code
 *  when its aclInit/aclrtSetDevice fails; ACL_ERROR_FEATURE_UNSUPPORTED when another Ascend target
 *  is already active, or for kAscendEmulated. ActiveBackend is declared in openatc/rt/runtime.h. */

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_CANN_RUNTIME_H_
