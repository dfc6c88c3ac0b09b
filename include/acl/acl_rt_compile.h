/**
 * @file acl/acl_rt_compile.h
 * Runtime compilation (library `acl_rtc`), signatures as CANN's acl_rt_compile.h
 * (docs/acl.md §2 "RTC"). The host implementation compiles C++ kernel source
 * (using openatc/host_kernel.h) with clang into a host ELF shared object, loadable by
 * aclrtBinaryLoadFromData. The error constants are in acl/acl_rtc_error.h.
 */
#ifndef ASCENDC_ACL_RT_COMPILE_H
#define ASCENDC_ACL_RT_COMPILE_H

#include <stddef.h>

#ifndef ACL_FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void *aclrtcProg;

/** Creates a program from NUL-terminated `src`; `name` is its name (used in messages).
 *  `headers`/`includeNames` give `numHeaders` in-memory headers (content, include name).
 *  Null prog/src/name -> ACL_ERROR_RTC_INVALID_INPUT. */
ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                                              const char **headers, const char **includeNames);
/** Compiles Ascend C (or host-ABI) source with options -D..., -I..., -O<n>, -g, -std=... (default
 *  c++17) and --npu-arch=dav-<n> / --npu-soc=<SoC> (a chip of the emulation table: defines
 *  __NPU_ARCH__ and OPENATC_ASCENDC_UB_SIZE; dav-0 / dav-host = the host reference); an unknown
 *  option, arch or SoC, or a chip without RTC -> ACL_ERROR_RTC_INVALID_OPTION. Every __global__
 *  kernel gets a host entry found by aclrtBinaryGetFunction under its name. Compiler errors -> ACL_ERROR_RTC_COMPILATION
 *  with the compiler's messages in the compile log. Output bytes are reproducible. */
ACL_FUNC_VISIBILITY aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options);
/** Adds a template kernel instantiation such as "my_kernel<float, 8>" (before compiling; after ->
 *  ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION; not starting with a name ->
 *  ACL_ERROR_RTC_NAME_EXPR_NOT_VALID). */
ACL_FUNC_VISIBILITY aclError aclrtcAddNameExpr(aclrtcProg prog, const char *const nameExpression);
/** After a successful compile: the name aclrtBinaryGetFunction finds an added name expression's
 *  kernel by (valid while the program lives). Before -> ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION;
 *  an expression never added -> ACL_ERROR_RTC_NAME_EXPR_NOT_VALID. */
ACL_FUNC_VISIBILITY aclError aclrtcGetLoweredName(aclrtcProg prog, const char *nameExpression,
                                                  const char **loweredName);
/** Size in bytes of the compiled binary (ACL_ERROR_RTC_INVALID_PROG before a successful compile). */
ACL_FUNC_VISIBILITY aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet);
/** Copies the compiled binary to `binData` (aclrtcGetBinDataSize bytes). */
ACL_FUNC_VISIBILITY aclError aclrtcGetBinData(aclrtcProg prog, char *binData);
/** Size of the compile log including its terminating NUL (1 when empty). */
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet);
/** Copies the NUL-terminated compile log to `log`. */
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLog(aclrtcProg prog, char *log);
/** Destroys *prog and sets it to nullptr. */
ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg *prog);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDC_ACL_RT_COMPILE_H */
