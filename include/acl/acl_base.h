/**
 * @file acl/acl_base.h
 * Umbrella of the ACL base headers, as CANN's acl_base.h: runtime base types and error codes,
 * model base types, and the runtime/GE error-code headers.
 */
#ifndef OPENATC_ACL_ACL_BASE_H_
#define OPENATC_ACL_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "acl/acl_tensor_desc.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* OPENATC_ACL_ACL_BASE_H_ */
