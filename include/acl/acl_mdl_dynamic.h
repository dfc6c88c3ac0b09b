/**
 * @file acl/acl_mdl_dynamic.h
 * The aclmdl calls of models with dynamic gears (atc --dynamic_batch_size, --dynamic_image_size,
 * --dynamic_dims), signatures as GE's inc/external/acl/acl_mdl.h; included by acl/acl_mdl.h.
 * A geared model has the extra last input ACL_DYNAMIC_TENSOR_NAME: the setters write the gear
 * into its buffer in the input dataset; leaving it all zeros runs the largest gear.
 */
#ifndef OPENATC_ACL_ACL_MDL_DYNAMIC_H_
#define OPENATC_ACL_ACL_MDL_DYNAMIC_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"

/* The dynamic-input buffer is null (145011), too small or given a dims value that differs from
   a fixed dim (145012), or the value is not a gear of the model (145013). */
static const int ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID = 145011;
static const int ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID = 145012;
static const int ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013;

typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

typedef struct aclmdlHW {
  size_t hwCount;
  uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

/** Index of the input named `name` (e.g. ACL_DYNAMIC_TENSOR_NAME). */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);
/** The batch gears (batchCount 0 when the model has none). */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
/** The image-size gears (hwCount 0 when the model has none); `index` is ignored. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw);
/** Number of dims gears; `index` must be (size_t)-1. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount);
/** Each dims gear as all dims of all user inputs concatenated (gear values at the -1 dims);
    `index` must be (size_t)-1; `gearCount` entries of `dims` are written. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount);
/** Output `index` dims of the gear the model last ran (the largest gear before any run). */
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/** Write the gear into buffer `index` (ACL_DYNAMIC_TENSOR_NAME) of `dataset`. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width);
/** `dims`: all dims of all user inputs concatenated; the fixed ones must equal the model's. */
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims);

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_MDL_DYNAMIC_H_ */
