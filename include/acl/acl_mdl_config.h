/**
 * @file acl/acl_mdl_config.h
 * Loading with a configuration (aclmdlLoadWithConfig) and with caller memory
 * (aclmdlLoadFromFileWithMem / ...FromMemWithMem), and the weights of an OM built with
 * `atc --external_weight=1|2`; signatures and values as GE's inc/external/acl/acl_mdl.h;
 * included by acl/acl_mdl.h.
 *
 * External weights: a file load reads them from `<folder of the .om>/weight/`; a memory load
 * needs ACL_MDL_WEIGHT_PATH_PTR (the folder of the weight files) or, for each file,
 * aclmdlSetExternalWeightAddress, which wins over any folder. Every weight is checked against
 * the OM's size and hash before use.
 */
#ifndef OPENATC_ACL_ACL_MDL_CONFIG_H_
#define OPENATC_ACL_ACL_MDL_CONFIG_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values of ACL_MDL_LOAD_TYPE_SIZET. */
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

typedef struct aclmdlConfigHandle aclmdlConfigHandle;

/** What aclmdlSetConfigOpt sets. `*_SIZET` values are a size_t, `*_INT32` an int32_t, `*_PTR`
 *  the address of a pointer (e.g. `const char *dir = ...; &dir, sizeof(dir)`). */
typedef enum {
  ACL_MDL_PRIORITY_INT32 = 0,
  ACL_MDL_LOAD_TYPE_SIZET,
  ACL_MDL_PATH_PTR,
  ACL_MDL_MEM_ADDR_PTR,
  ACL_MDL_MEM_SIZET,
  ACL_MDL_WEIGHT_ADDR_PTR,
  ACL_MDL_WEIGHT_SIZET,
  ACL_MDL_WORKSPACE_ADDR_PTR,
  ACL_MDL_WORKSPACE_SIZET,
  ACL_MDL_INPUTQ_NUM_SIZET,
  ACL_MDL_INPUTQ_ADDR_PTR,
  ACL_MDL_OUTPUTQ_NUM_SIZET,
  ACL_MDL_OUTPUTQ_ADDR_PTR,
  ACL_MDL_WORKSPACE_MEM_OPTIMIZE,
  ACL_MDL_WEIGHT_PATH_PTR,
  ACL_MDL_MODEL_DESC_PTR,
  ACL_MDL_MODEL_DESC_SIZET,
  ACL_MDL_KERNEL_PTR,
  ACL_MDL_KERNEL_SIZET,
  ACL_MDL_KERNEL_ARGS_PTR,
  ACL_MDL_KERNEL_ARGS_SIZET,
  ACL_MDL_STATIC_TASK_PTR,
  ACL_MDL_STATIC_TASK_SIZET,
  ACL_MDL_DYNAMIC_TASK_PTR,
  ACL_MDL_DYNAMIC_TASK_SIZET,
  ACL_MDL_MEM_MALLOC_POLICY_SIZET,
  ACL_MDL_FIFO_PTR,
  ACL_MDL_FIFO_SIZET,
  ACL_MDL_WITHOUT_GRAPH_INT32
} aclmdlConfigAttr;

/** A new, empty load configuration (nullptr when out of memory). */
ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle);
/** Sets one option; `valueSize` must be the size of the option's type. Strings are copied. */
ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize);
/** Memory holding the whole external weight file `weightFileName` (a bare name, as in the
 *  OM's weight/ folder); not copied: keep it alive and unchanged while the model is loaded. */
ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName,
                                                            void *devPtr, size_t size);
/** Loads as the configuration says (ACL_MDL_LOAD_TYPE_SIZET and its required options). */
ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId);

/** As aclmdlLoadFromFile / aclmdlLoadFromMem with caller work and weight memory. The host
 *  runtime checks the pairs (a pointer needs a non-zero size) but keeps its own arena and maps
 *  the weights: the caller's memory is not written. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize);

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_MDL_CONFIG_H_ */
