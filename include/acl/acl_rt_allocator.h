/**
 * @file acl/acl_rt_allocator.h
 * External-allocator types of CANN's acl_rt_allocator.h. The host runtime declares the handle
 * types only (no allocator registration is implemented).
 */
#ifndef OPENATC_ACL_ACL_RT_ALLOCATOR_H_
#define OPENATC_ACL_ACL_RT_ALLOCATOR_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_RT_ALLOCATOR_H_ */
