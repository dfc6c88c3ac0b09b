/**
 * @file acl/acl_op.h
 * Single-operator ACL API (aclop*). Not part of the host subset: this header exists so that
 * `#include "acl/acl.h"` works as in CANN, and declares nothing beyond the base types.
 */
#ifndef OPENATC_ACL_ACL_OP_H_
#define OPENATC_ACL_ACL_OP_H_

#include "acl/acl_base.h"

#endif /* OPENATC_ACL_ACL_OP_H_ */
