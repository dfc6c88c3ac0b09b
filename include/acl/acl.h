/**
 * @file acl/acl.h
 * The ACL umbrella header, as in CANN: runtime (acl_rt.h), single-op (acl_op.h) and model
 * (acl_mdl.h) APIs. aclInit/aclFinalize are declared in acl/acl_rt.h.
 */
#ifndef OPENATC_ACL_ACL_H_
#define OPENATC_ACL_ACL_H_

#include "acl/acl_rt.h"
#include "acl/acl_op.h"
#include "acl/acl_mdl.h"

#endif /* OPENATC_ACL_ACL_H_ */
