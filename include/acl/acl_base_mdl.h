/**
 * @file acl/acl_base_mdl.h
 * Opaque model-side types of the host ACL subset (docs/acl.md §1).
 */
#ifndef OPENATC_ACL_ACL_BASE_MDL_H_
#define OPENATC_ACL_ACL_BASE_MDL_H_

#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclTensorDesc aclTensorDesc;

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_BASE_MDL_H_ */
