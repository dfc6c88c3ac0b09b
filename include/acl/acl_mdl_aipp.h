/**
 * @file acl/acl_mdl_aipp.h
 * The AIPP part of the model API, names and signatures as GE's acl_mdl.h (included by
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
#include "acl/acl_mdl.h"  // aclmdlIODims (acl_mdl.h includes this header at its end)

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

#define ACL_MAX_SHAPE_COUNT 128

typedef struct aclAippExtendInfo aclAippExtendInfo;

/** One gear of an AIPP input: the model input before AIPP was inserted and the AIPP output. */
typedef struct aclAippDims {
  aclmdlIODims srcDims;
  size_t srcSize;
  aclmdlIODims aippOutdims;
  size_t aippOutSize;
} aclAippDims;

/** The static AIPP of one input (field names and order as GE's acl_mdl.h). */
typedef struct aclAippInfo {
  aclAippInputFormat inputFormat;
  int32_t srcImageSizeW;
  int32_t srcImageSizeH;
  int8_t cropSwitch;
  int32_t loadStartPosW;
  int32_t loadStartPosH;
  int32_t cropSizeW;
  int32_t cropSizeH;
  int8_t resizeSwitch;
  int32_t resizeOutputW;
  int32_t resizeOutputH;
  int8_t paddingSwitch;
  int32_t leftPaddingSize;
  int32_t rightPaddingSize;
  int32_t topPaddingSize;
  int32_t bottomPaddingSize;
  int8_t cscSwitch;
  int8_t rbuvSwapSwitch;
  int8_t axSwapSwitch;
  int8_t singleLineMode;
  int32_t matrixR0C0, matrixR0C1, matrixR0C2, matrixR1C0, matrixR1C1, matrixR1C2, matrixR2C0, matrixR2C1, matrixR2C2;
  int32_t outputBias0, outputBias1, outputBias2;
  int32_t inputBias0, inputBias1, inputBias2;
  int32_t meanChn0, meanChn1, meanChn2, meanChn3;
  float minChn0, minChn1, minChn2, minChn3;
  float varReciChn0, varReciChn1, varReciChn2, varReciChn3;
  aclFormat srcFormat;      /**< the model input's format before AIPP */
  aclDataType srcDatatype;  /**< the model input's dtype before AIPP */
  size_t srcDimNum;         /**< the model input's rank before AIPP */
  size_t shapeCount;        /**< gears (1 without gears) */
  aclAippDims outDims[ACL_MAX_SHAPE_COUNT];
  aclAippExtendInfo *aippExtend;  /**< reserved, null */
} aclAippInfo;

/** The static AIPP of input `index` (model id `modelId`); an input without static AIPP:
 *  ACL_ERROR_GE_AIPP_NOT_EXIST (145015). */
ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo);

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
