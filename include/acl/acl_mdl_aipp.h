/**
 * @file acl/acl_mdl_aipp.h
 * The dynamic AIPP part of the model API, names and signatures as GE's acl_mdl.h (included by
 * acl/acl_mdl.h). An aclmdlAIPP holds the parameter buffer of a model's
 * `ascend_dynamic_aipp_data` input (docs/atc-deploy-flags.md §2, "Dynamic AIPP": a 64-byte head
 * and 96 bytes per image); aclmdlSetInputAIPP copies it into that input's data buffer.
 * Out-of-range values and a batch index >= the batch size: ACL_ERROR_INVALID_PARAM.
 */
#ifndef OPENATC_ACL_ACL_MDL_AIPP_H_
#define OPENATC_ACL_ACL_MDL_AIPP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_base_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

typedef struct aclmdlAIPP aclmdlAIPP;

typedef enum {
  ACL_YUV420SP_U8 = 1, ACL_XRGB8888_U8, ACL_RGB888_U8, ACL_YUV400_U8, ACL_NC1HWC0DI_FP16, ACL_NC1HWC0DI_S8,
  ACL_ARGB8888_U8, ACL_YUYV_U8, ACL_YUV422SP_U8, ACL_AYUV444_U8, ACL_RAW10, ACL_RAW12, ACL_RAW16, ACL_RAW24,
  ACL_AIPP_RESERVED = 0xffff
} aclAippInputFormat;

typedef enum {
  ACL_DATA_WITHOUT_AIPP = 0, ACL_DATA_WITH_STATIC_AIPP, ACL_DATA_WITH_DYNAMIC_AIPP, ACL_DYNAMIC_AIPP_NODE
} aclmdlInputAippType;

/** A parameter set for `batchSize` images (0: NULL); all zero, var_reci 1.0. */
ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet);
/** 64 + 96 * batchSize. */
ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
                                                    int16_t cscMatrixR0C1, int16_t cscMatrixR0C2, int16_t cscMatrixR1C0,
                                                    int16_t cscMatrixR1C1, int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
                                                    int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
                                                    uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1,
                                                    uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
                                                    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH);
/** Resize is reserved: scfSwitch 1 is ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                                    int32_t scfInputSizeH, int32_t scfOutputSizeW,
                                                    int32_t scfOutputSizeH, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
                                                     int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH,
                                                     uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch,
                                                        int32_t paddingSizeTop, int32_t paddingSizeBottom,
                                                        int32_t paddingSizeLeft, int32_t paddingSizeRight,
                                                        uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0,
                                                       int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
                                                       int16_t dtcPixelMeanChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float dtcPixelMinChn0,
                                                      float dtcPixelMinChn1, float dtcPixelMinChn2,
                                                      float dtcPixelMinChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0,
                                                       float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
                                                       float dtcPixelVarReciChn3, uint64_t batchIndex);
/** Copies the set into buffer `index` of `dataset`, which must be the model's
 *  ascend_dynamic_aipp_data input (aclmdlGetAippType / aclmdlGetInputIndexByName find it). */
ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                const aclmdlAIPP *aippParmsSet);
/** What input `index` is: without AIPP, static AIPP, dynamic AIPP (`dynamicAttachedDataIndex` =
 *  its parameter input) or the parameter input itself; ACL_INVALID_NODE_INDEX where none. */
ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex);

#ifdef __cplusplus
}
#endif

#endif  // OPENATC_ACL_ACL_MDL_AIPP_H_
