/**
 * @file acl/acl_tensor_desc.h
 * Tensor descriptions (aclTensorDesc) of the ACL base API, signatures as GE's
 * inc/external/acl/acl_base.h (docs/acl.md §7 "Single op"): element type, format, dims (-1 unknown,
 * a single -2 unknown rank), per-dim ranges and a name. Used by the aclop* calls.
 */
#ifndef OPENATC_ACL_ACL_TENSOR_DESC_H_
#define OPENATC_ACL_ACL_TENSOR_DESC_H_

#include "acl/acl_base_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_TENSOR_SHAPE_RANGE_NUM 2
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

/** A new description (nullptr when out of memory or `dims` is null with numDims > 0). */
ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc);
/** One [min, max] per dim (max -1: no bound). */
ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                                    int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]);
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc);
/** Bytes of the tensor (0 for an unknown shape or a type without a fixed size). */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc);
/** Rank; ACL_UNKNOWN_RANK for [-2]. */
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc);
/** Deprecated: dim `index`, -1 when out of range. */
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index);
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize);
/** Writes [min, max] of dim `index` (dimRangeNum must be ACL_TENSOR_SHAPE_RANGE_NUM). */
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum,
                                                      int64_t *dimRange);
ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc, const char *name);
/** "" when none; valid while the description lives. */
ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc);
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format);

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_TENSOR_DESC_H_ */
