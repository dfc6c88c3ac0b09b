/**
 * @file acl/acl_mdl.h
 * The model API subset (aclmdl*), signatures as GE's inc/external/acl/acl_mdl.h
 * (docs/acl.md §2 "Model"). Declarations only here; the host implementation
 * lives in libascendcl (loader), which loads OM files written by OpenATC's atc.
 * Sizes are in bytes; indexes are 0-based in model input/output order.
 */
#ifndef OPENATC_ACL_ACL_MDL_H_
#define OPENATC_ACL_ACL_MDL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_DIM_CNT 64
#define ACL_MAX_TENSOR_NAME_LEN 128

/** Shape of one model input/output: NUL-terminated name, rank and dimensions (-1 = dynamic). */
typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

/** Loads an OM file; writes the new model id. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
/** Loads an OM image from memory (`modelSize` bytes, copied as needed). */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId);
/** Unloads a model. */
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

/** Creates an empty model description (nullptr when out of memory). */
ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
/** Fills `modelDesc` from loaded model `modelId`. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
/** Byte size of input/output `index` (0 when out of range). */
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/** Tensor names ("" when out of range); valid while the description lives. */
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
/** Element types (ACL_DT_UNDEFINED when out of range). */
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);

/** Dataset: an ordered list of data buffers (not owned). */
ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);

/** Runs model `modelId` synchronously. */
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output);
/** Runs model `modelId` ordered on `stream`. */
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
                                                aclmdlDataset *output, aclrtStream stream);

/* Dump (docs/acl.md §8): aclmdlInitDump -> aclmdlSetDump(config file with a "dump" section)
 * -> load -> execute -> aclmdlFinalizeDump, repeatable; not with a "dump" section in aclInit's
 * file (ACL_ERROR_DUMP_ALREADY_RUN). */
/** Starts a dump session (after aclInit). */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump();
/** Sets the dump config for models loaded afterwards (last call wins). */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
/** Ends the session: no later execution is dumped. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump();

#ifdef __cplusplus
}
#endif

#include "acl/acl_mdl_aipp.h"  /* AIPP: aclmdlCreateAIPP, aclmdlSetInputAIPP, aclmdlGetFirstAippInfo, ... */
#include "acl/acl_mdl_dynamic.h"
#include "acl/acl_mdl_config.h"  /* aclmdlLoadWithConfig, external weights, ...WithMem */

#endif /* OPENATC_ACL_ACL_MDL_H_ */
