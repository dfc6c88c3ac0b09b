/**
 * @file acl/acl_rt.h
 * The host ACL runtime subset (library `ascendcl`): init, device, memory, streams, kernel
 * binaries and kernel launch. Signatures and values are those of CANN's acl_rt.h /
 * acl_base_rt.h (docs/acl.md §1-§2); the behaviour is the host reference's:
 *   - "device" memory is host memory; every memcpy kind is a host copy;
 *   - there is one device, id 0;
 *   - streams are in order and work submitted to them runs before the call returns
 *     (a launch fans its blocks out over a process-wide thread pool, then waits);
 *   - kernel binaries are host ELF shared objects built against openatc/host_kernel.h.
 * Every function returns an ACL error code; aclGetRecentErrMsg() gives the last failure's text.
 * All functions are thread-safe.
 */
#ifndef OPENATC_ACL_ACL_RT_H_
#define OPENATC_ACL_ACL_RT_H_

#include "acl/acl_base.h"
#include "acl/acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;
typedef void *aclrtBinary;

#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

#define ACL_MEM_TYPE_LOW_BAND_WIDTH 0x0100U
#define ACL_MEM_TYPE_HIGH_BAND_WIDTH 0x1000U
#define ACL_MEM_ACCESS_USER_SPACE_READONLY 0x100000U

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
  ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_DEFAULT = 4,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

/** Device attributes for aclrtGetDeviceInfo (CANN aclrtDevAttr; the subset the host answers). */
typedef enum {
  ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
  ACL_DEV_ATTR_NPU_ARCH = 601
} aclrtDevAttr;

typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption *options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum aclrtLaunchKernelAttrId {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
  ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8
} aclrtLaunchKernelAttrId;

typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  uint32_t dynUBufSize;
  uint32_t engineType;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

/** Launch configuration; the host runtime accepts and ignores the attributes. */
typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr *attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

/** Place-holder description for aclrtLaunchKernelWithHostArgs (host runtime: must be empty). */
typedef struct aclrtPlaceHolderInfo {
  uint32_t addrOffset;
  uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* ---- init / device ---------------------------------------------------------------------- */

/** Initialises ACL. `configPath` may be nullptr (any file given is ignored on host).
 *  A second call without aclFinalize returns ACL_ERROR_REPEAT_INITIALIZE (100002), as CANN. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/** Finalises ACL; without a prior aclInit returns ACL_ERROR_REPEAT_FINALIZE (100037). */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/** Selects the device of the calling thread. Only 0 exists; other ids -> ACL_ERROR_INVALID_DEVICE. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
/** Releases device `deviceId` (only 0). */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
/** Writes the current device (always 0) to *deviceId. nullptr -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
/** Device attributes of the host device: ACL_DEV_ATTR_NPU_ARCH -> 0 (the host has no DaVinci
 *  arch; the samples then pass `--npu-arch=dav-0`, which the host RTC takes as the host reference), core counts ->
 *  the runtime's thread count, memory -> physical memory in bytes. Others -> INVALID_PARAM.
 *  With OPENATC_EMULATION set (read at the first call), the device is the emulated chip:
 *  ACL_DEV_ATTR_NPU_ARCH -> its NpuArch (2201 for Ascend910B1), AICORE / CUBE / VECTOR core
 *  counts -> its ai_core_cnt / cube_core_cnt / vector_core_cnt; a bad value -> INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);

/* ---- memory ------------------------------------------------------------------------------- */

/** Allocates `size` bytes (> 0), 64-byte aligned, uninitialised. The policy is accepted and
 *  ignored. size 0 or nullptr devPtr -> ACL_ERROR_INVALID_PARAM; failure -> ACL_ERROR_BAD_ALLOC. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/** Frees memory from aclrtMalloc. nullptr or an unknown pointer -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
/** As aclrtMalloc, for "host" memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
/** Frees memory from aclrtMallocHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
/** Copies `count` bytes. destMax < count, null pointers with count > 0, or an unknown kind ->
 *  ACL_ERROR_INVALID_PARAM. count 0 is a no-op. Overlapping ranges are allowed (memmove). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);
/** aclrtMemcpy ordered on `stream` (completes before the call returns on host). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
/** Sets `count` bytes at devPtr to (uint8_t)value; maxCount < count -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
/** aclrtMemset ordered on `stream`. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/* ---- streams ------------------------------------------------------------------------------ */

/** Creates an in-order stream. nullptr out pointer -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/** Destroys a stream; an unknown handle -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/** Waits for `stream` (nullptr = default stream); work already completed on host. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/* ---- kernel binaries ---------------------------------------------------------------------- */

/** Loads a host kernel binary (ELF shared object for this CPU exporting
 *  openatc_host_kernel_abi_version() == OPENATC_HOST_KERNEL_ABI_VERSION) from memory. Options:
 *  ACL_RT_BINARY_LOAD_OPT_MAGIC with any ACL_RT_BINARY_MAGIC_ELF_* value, LAZY_LOAD 0/1 (the
 *  host loads at once), CPU_KERNEL_MODE 0; other types or values -> ACL_ERROR_INVALID_PARAM. Identical bytes load once: the same handle
 *  is returned and reference-counted (one aclrtBinaryUnLoad per load). Errors: null/empty data
 *  -> ACL_ERROR_INVALID_PARAM; not an ELF shared object for this machine or wrong ABI version ->
 *  ACL_ERROR_INVALID_FILE; dlopen failure -> ACL_ERROR_INVALID_FILE with the loader's text. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);
/** Reads `binPath` and calls aclrtBinaryLoadFromData. Unreadable file -> ACL_ERROR_INVALID_FILE. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);
/** Looks up kernel `kernelName`: an Ascend C `__global__` kernel of that name (its generated
 *  entry openatc_ascendc_entry_NAME, or a lowered name from aclrtcGetLoweredName) first, else an
 *  exported host-ABI `void NAME(const void *, size_t)`. Unknown name ->
 *  ACL_ERROR_KERNEL_NOT_FOUND (100029); bad handle -> ACL_ERROR_INVALID_PARAM. The handle lives
 *  until the binary's last unload. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);
/** Drops one reference to a loaded binary; the last one unloads it. Bad handle -> INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/* ---- launch ------------------------------------------------------------------------------- */

/** Runs `funcHandle` once per block 0..numBlocks-1 with a copy of the `argsSize` bytes at
 *  `hostArgs`, on the thread pool; returns when every block has finished. numBlocks must be in
 *  1..65535; cfg is ignored; placeHolderNum must be 0. A kernel built with OPENATC_HOST_KERNEL
 *  that needs more argument bytes than given is refused (ACL_ERROR_INVALID_PARAM). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum);
/** As aclrtLaunchKernelWithHostArgs, reading the args in place at `argsData` (caller-owned,
 *  "device" memory on Ascend) instead of copying them. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                 const void *argsData, size_t argsSize,
                                                 aclrtLaunchKernelCfg *cfg, aclrtStream stream);

/** Starts an args block for `funcHandle` (aclrtKernelArgsAppend, Finalize, then
 *  aclrtLaunchKernelWithConfig). The handle lives as long as the process. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);
/** Appends one parameter's `paramSize` bytes, copied from `param`, at its natural alignment
 *  (the smaller of 8 and the largest power of two dividing paramSize); after Finalize ->
 *  ACL_ERROR_INVALID_PARAM. `paramHandle` (may be nullptr) receives the parameter's handle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);
/** Ends the args block; it can be launched from now on and no longer appended to. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
/** As aclrtLaunchKernelWithHostArgs with the bytes of a finalized args handle of the same
 *  kernel. `reserve` must be nullptr. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);

/** As aclrtLaunchKernelWithHostArgs with one host pointer per kernel parameter, in order
 *  (`args[i]` points at parameter i's value); the runtime packs them. Only for Ascend C kernels
 *  (their parameter layout is known); a host-ABI kernel -> ACL_ERROR_FEATURE_UNSUPPORTED. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args);

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_RT_H_ */
