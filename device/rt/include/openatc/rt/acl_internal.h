/**
 * @file openatc/rt/acl_internal.h
 * What the rest of libascendcl.so uses from the device beyond openatc/rt/runtime.h: the aclmdl*
 * API (loader/mdl) is linked into the same shared object as the device (loader/acl/CMakeLists.txt)
 * and calls this. The symbols are hidden (not in libascendcl's exports), so only code inside
 * libascendcl.so can use this header. The error guard of ACL entry points is
 * openatc/rt/error_state.h.
 */
#ifndef OPENATC_RT_ACL_INTERNAL_H_
#define OPENATC_RT_ACL_INTERNAL_H_

#include <string>

#include "acl/acl_rt.h"

namespace openatc {
namespace rt {

struct Stream;

/** The stream for a handle (nullptr = default stream). Unknown handle -> ACL_ERROR_INVALID_PARAM. */
Stream *ResolveStream(aclrtStream handle);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_ACL_INTERNAL_H_
