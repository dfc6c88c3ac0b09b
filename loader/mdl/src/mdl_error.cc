// ACL error codes for aclmdl* failures (see mdl_error.h).
#include "mdl_error.h"

#include "openatc/rt/error_state.h"

namespace openatc {
namespace mdl {

void ThrowLoadFailure(const openatc::Error &error) {
  aclError code = ACL_ERROR_INTERNAL_ERROR;
  switch (error.category()) {
    case ErrorCategory::kIo: code = ACL_ERROR_READ_MODEL_FAILURE; break;
    case ErrorCategory::kNotOm:
      // OA2110: the OM's target needs a device backend this process cannot provide.
      code = error.code() == "OA2110" ? ACL_ERROR_FEATURE_UNSUPPORTED : ACL_ERROR_INVALID_FILE;
      break;
    case ErrorCategory::kCorruptOm:
    case ErrorCategory::kGraph: code = ACL_ERROR_PARSE_MODEL; break;
    case ErrorCategory::kCustomOp: code = ACL_ERROR_DESERIALIZE_MODEL; break;
    case ErrorCategory::kUsage:
    case ErrorCategory::kInvalidInput: code = ACL_ERROR_INVALID_PARAM; break;
    default: break;
  }
  rt::ThrowAcl(code, std::string("cannot load the model: ") + error.what());
}

void ThrowRunFailure(const openatc::Error &error) {
  aclError code = ACL_ERROR_INTERNAL_ERROR;
  switch (error.category()) {
    case ErrorCategory::kInvalidInput: code = ACL_ERROR_MODEL_INPUT_NOT_MATCH; break;
    case ErrorCategory::kCustomOp: code = ACL_ERROR_GE_FAILURE; break;
    default: break;
  }
  rt::ThrowAcl(code, std::string("model execution failed: ") + error.what());
}

void CheckNotNull(const void *p, const char *name) {
  if (p == nullptr) rt::ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(name) + " is a null pointer");
}

}  // namespace mdl
}  // namespace openatc
