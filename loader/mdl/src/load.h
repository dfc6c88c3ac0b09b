// Private: the two ways every aclmdlLoad* call ends (load.cc): read and verify an OM from a file
// or from memory, load it, register it. Both throw through rt::ThrowAcl with the ACL code of
// ERRORS.md; the caller runs inside rt::Guard.
#ifndef OPENATC_MDL_SRC_LOAD_H_
#define OPENATC_MDL_SRC_LOAD_H_

#include <cstddef>
#include <cstdint>

#include "openatc/om/model.h"

namespace openatc {
namespace mdl {

/** Loads the OM at `modelPath` (not null); `options` say where external weights are. */
uint32_t LoadOmFile(const char *modelPath, const om::ReadOptions &options);
/** Loads `modelSize` bytes at `model` (not null; copied, the caller may free them). */
uint32_t LoadOmBytes(const void *model, size_t modelSize, const om::ReadOptions &options);

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_LOAD_H_
