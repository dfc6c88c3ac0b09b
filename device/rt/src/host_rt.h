// The host runtime's aclrt* entry points that can be forwarded to CANN, under their internal
// names. device.cc, memory.cc, stream.cc, binary.cc and launch.cc are compiled with
// -DaclrtX=openatc_host_aclrtX for these names (device/rt/CMakeLists.txt), so the exported
// aclrt* are defined once, by rt_dispatch.cc, which sends each call to the host runtime or, once
// an Ascend backend is selected (cann_runtime.h), to CANN's libascendcl.so. loader/acl/ascendcl.map keeps
// the internal names out of libascendcl's exports.
#ifndef OPENATC_RT_SRC_HOST_RT_H_
#define OPENATC_RT_SRC_HOST_RT_H_

#include "acl/acl_rt.h"

/// X(name, parameter list, argument list, required by the CANN backend: 1/0).
#define OPENATC_RT_FORWARDED(X)                                                                                  \
  X(aclrtSetDevice, (int32_t deviceId), (deviceId), 1)                                                          \
  X(aclrtResetDevice, (int32_t deviceId), (deviceId), 1)                                                        \
  X(aclrtGetDevice, (int32_t * deviceId), (deviceId), 0)                                                        \
  X(aclrtGetDeviceInfo, (uint32_t deviceId, aclrtDevAttr attr, int64_t *value), (deviceId, attr, value), 0)     \
  X(aclrtMalloc, (void **devPtr, size_t size, aclrtMemMallocPolicy policy), (devPtr, size, policy), 1)          \
  X(aclrtFree, (void *devPtr), (devPtr), 1)                                                                     \
  X(aclrtMallocHost, (void **hostPtr, size_t size), (hostPtr, size), 0)                                         \
  X(aclrtFreeHost, (void *hostPtr), (hostPtr), 0)                                                               \
  X(aclrtMemcpy, (void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind),              \
    (dst, destMax, src, count, kind), 1)                                                                        \
  X(aclrtMemcpyAsync,                                                                                           \
    (void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, aclrtStream stream),       \
    (dst, destMax, src, count, kind, stream), 0)                                                                \
  X(aclrtMemset, (void *devPtr, size_t maxCount, int32_t value, size_t count), (devPtr, maxCount, value, count), \
    0)                                                                                                          \
  X(aclrtMemsetAsync, (void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream),         \
    (devPtr, maxCount, value, count, stream), 0)                                                                \
  X(aclrtCreateStream, (aclrtStream * stream), (stream), 1)                                                     \
  X(aclrtDestroyStream, (aclrtStream stream), (stream), 1)                                                      \
  X(aclrtSynchronizeStream, (aclrtStream stream), (stream), 1)                                                  \
  X(aclrtBinaryLoadFromData,                                                                                    \
    (const void *data, size_t length, const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle),        \
    (data, length, options, binHandle), 1)                                                                      \
  X(aclrtBinaryLoadFromFile, (const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle), \
    (binPath, options, binHandle), 0)                                                                           \
  X(aclrtBinaryGetFunction, (const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle), \
    (binHandle, kernelName, funcHandle), 1)                                                                     \
  X(aclrtBinaryUnLoad, (aclrtBinHandle binHandle), (binHandle), 1)                                              \
  X(aclrtLaunchKernelWithHostArgs,                                                                              \
    (aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg,             \
     void *hostArgs, size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum),           \
    (funcHandle, numBlocks, stream, cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum), 1)              \
  X(aclrtLaunchKernelV2,                                                                                        \
    (aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,                     \
     aclrtLaunchKernelCfg *cfg, aclrtStream stream),                                                            \
    (funcHandle, numBlocks, argsData, argsSize, cfg, stream), 0)                                              \
  X(aclrtKernelArgsInit, (aclrtFuncHandle funcHandle, aclrtArgsHandle * argsHandle), (funcHandle, argsHandle), 0) \
  X(aclrtKernelArgsAppend,                                                                                      \
    (aclrtArgsHandle argsHandle, void *param, size_t paramSize, aclrtParamHandle *paramHandle),                 \
    (argsHandle, param, paramSize, paramHandle), 0)                                                             \
  X(aclrtKernelArgsFinalize, (aclrtArgsHandle argsHandle), (argsHandle), 0)                                     \
  X(aclrtLaunchKernelWithConfig,                                                                                \
    (aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg,             \
     aclrtArgsHandle argsHandle, void *reserve),                                                                \
    (funcHandle, numBlocks, stream, cfg, argsHandle, reserve), 0)                                              \
  X(aclrtLaunchKernelWithArgsArray,                                                                             \
    (aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args), \
    (funcHandle, numBlocks, stream, cfg, args), 0)

extern "C" {
#define OPENATC_DECLARE_HOST_RT(name, params, args, required) aclError openatc_host_##name params;
OPENATC_RT_FORWARDED(OPENATC_DECLARE_HOST_RT)
#undef OPENATC_DECLARE_HOST_RT
}

#endif  // OPENATC_RT_SRC_HOST_RT_H_
