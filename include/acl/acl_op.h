/**
 * @file acl/acl_op.h
 * The single-operator ACL API subset (aclop*), signatures as GE's inc/external/acl/acl_op.h
 * (docs/acl.md §7 "Single op"): the op models `atc --singleop` writes are loaded with
 * aclopSetModelDir / aclopLoad and run on host memory with aclopExecuteV2 / aclopExecute, which
 * pick the model by op type, input/output descriptions and attrs.
 */
#ifndef OPENATC_ACL_ACL_OP_H_
#define OPENATC_ACL_ACL_OP_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

/** Loads every single-op model (files ending ".om", up to 3 folder levels deep) of `modelDir`.
 *  Once per process: again -> ACL_ERROR_REPEAT_INITIALIZE; a folder that cannot be read ->
 *  ACL_ERROR_READ_MODEL_FAILURE. Files that are not single-op OMs are skipped with a warning. */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir);
/** Loads one single-op model from memory (`modelSize` bytes, copied). May be called many times. */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize);

/** An empty attr set (nullptr when out of memory). */
ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);
/** Sets (or replaces) the attr `attrName`; bools are false for 0, true otherwise. */
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues,
                                                      const aclDataType values[]);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues,
                                                  const uint8_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues,
                                                    const char **values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists,
                                                     const int *numValues, const int64_t *const values[]);

/** Runs the loaded single-op model matching `opType`, the input/output descriptions and `attr`
 *  (nullptr: no attrs) on host buffers; completes before it returns. No model matches ->
 *  ACL_ERROR_OP_NOT_FOUND, with a log line naming what was asked. Deprecated form of
 *  aclopExecuteV2: the output descriptions are not refreshed. */
ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                          const aclopAttr *attr, aclrtStream stream);
/** As aclopExecute; also writes the shapes the op produced into `outputDesc` (dynamic outputs). */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                            aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_OP_H_ */
