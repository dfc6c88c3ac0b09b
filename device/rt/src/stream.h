// Stream objects: handle validation, the default stream, and per-stream launch observers.
#ifndef OPENATC_RT_SRC_STREAM_H_
#define OPENATC_RT_SRC_STREAM_H_

#include "acl/acl_rt.h"
#include "openatc/rt/acl_internal.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rt {

// ResolveStream (handle -> Stream) is declared in openatc/rt/acl_internal.h.

/** A copy of the stream's observer (empty when none). */
LaunchObserver ObserverOf(Stream *stream);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_STREAM_H_
