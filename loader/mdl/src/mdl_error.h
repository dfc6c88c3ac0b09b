// ACL error codes for aclmdl* failures: the mapping from the runtime's openatc::Error categories
// to the codes GE's ACL returns (docs/acl.md §4), and small checks shared by
// the aclmdl* entry points. All throw openatc::Error carrying "ACL<n>" (see error_state.h).
#ifndef OPENATC_MDL_SRC_MDL_ERROR_H_
#define OPENATC_MDL_SRC_MDL_ERROR_H_

#include <string>

#include "acl/acl_base.h"
#include "openatc/common/error.h"

namespace openatc {
namespace mdl {

/** A load failure (om reader / LoadedModel::Load) as an ACL error:
 *  kIo -> ACL_ERROR_READ_MODEL_FAILURE (100014), kNotOm (not an OM, foreign OM, other target)
 *  -> ACL_ERROR_INVALID_FILE (100003) except OA2110 (the target's device backend cannot be
 *  selected: CANN absent, another backend active) -> ACL_ERROR_FEATURE_UNSUPPORTED (200006), kCorruptOm/kGraph -> ACL_ERROR_PARSE_MODEL (100013),
 *  kCustomOp (Deserialize failed) -> ACL_ERROR_DESERIALIZE_MODEL (100012), else
 *  ACL_ERROR_INTERNAL_ERROR. The message is the runtime error's full text. */
[[noreturn]] void ThrowLoadFailure(const openatc::Error &error);

/** A run failure (LoadedModel::Run): kInvalidInput -> ACL_ERROR_MODEL_INPUT_NOT_MATCH (100017),
 *  kCustomOp -> ACL_ERROR_GE_FAILURE (500002), else ACL_ERROR_INTERNAL_ERROR. */
[[noreturn]] void ThrowRunFailure(const openatc::Error &error);

/** Throws ACL_ERROR_INVALID_PARAM "<name> is a null pointer" when `p` is null. */
void CheckNotNull(const void *p, const char *name);

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_MDL_ERROR_H_
