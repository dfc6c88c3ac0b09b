// The exported aclrt* entry points of host_rt.h's list: each call goes to the host runtime
// (internal openatc_host_* names) or, when an Ascend backend is selected (cann_runtime.h), to
// CANN's libascendcl.so. A CANN failure keeps CANN's code; aclGetRecentErrMsg names the call
// and the library. An entry point CANN's library does not export returns
// ACL_ERROR_FEATURE_UNSUPPORTED naming it.
#include <string>

#include "cann_runtime.h"
#include "host_rt.h"
#include "openatc/rt/error_state.h"

namespace openatc {
namespace rt {
namespace {

aclError CannResult(const char *api, aclError rc, const CannRuntime &cann) {
  if (rc != ACL_SUCCESS) {
    RecordFailure(api, rc, "CANN's runtime (" + cann.path + ", " + cann.target + ") returned " + std::to_string(rc));
  }
  return rc;
}

aclError Missing(const char *api, const CannRuntime &cann) {
  return RecordFailure(api, ACL_ERROR_FEATURE_UNSUPPORTED,
                       "CANN's runtime (" + cann.path + ") does not export " + api + ", which this OM needs");
}

}  // namespace
}  // namespace rt
}  // namespace openatc

extern "C" {

#define OPENATC_RT_DISPATCH(name, params, args, required)                                  \
  ACL_FUNC_VISIBILITY aclError name params {                                               \
    if (const openatc::rt::CannRuntime *cann = openatc::rt::ActiveCann()) {                \
      if (cann->name == nullptr) return openatc::rt::Missing(#name, *cann);                \
      return openatc::rt::CannResult(#name, cann->name args, *cann);                       \
    }                                                                                      \
    return openatc_host_##name args;                                                       \
  }
OPENATC_RT_FORWARDED(OPENATC_RT_DISPATCH)
#undef OPENATC_RT_DISPATCH

}  // extern "C"
