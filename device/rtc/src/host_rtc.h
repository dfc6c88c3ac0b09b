// The host RTC's entry points under their internal names. rtc_api.cc is compiled with
// -DaclrtcX=openatc_host_aclrtcX (device/rtc/CMakeLists.txt), so the public aclrtc* symbols are
// defined once, by rtc_dispatch.cc, which sends each call to the host RTC or to CANN's RTC.
// A version script keeps these internal names out of libacl_rtc's exports.
#ifndef OPENATC_RTC_SRC_HOST_RTC_H_
#define OPENATC_RTC_SRC_HOST_RTC_H_

#include "acl/acl_rt_compile.h"

/// X(name, parameter list, argument list) for every aclrtc* entry point.
#define OPENATC_RTC_ENTRY_POINTS(X)                                                                          \
  X(aclrtcCreateProg,                                                                                        \
    (aclrtcProg * prog, const char *src, const char *name, int numHeaders, const char **headers,             \
     const char **includeNames),                                                                             \
    (prog, src, name, numHeaders, headers, includeNames))                                                    \
  X(aclrtcCompileProg, (aclrtcProg prog, int numOptions, const char **options), (prog, numOptions, options)) \
  X(aclrtcAddNameExpr, (aclrtcProg prog, const char *const nameExpression), (prog, nameExpression))          \
  X(aclrtcGetLoweredName, (aclrtcProg prog, const char *nameExpression, const char **loweredName),           \
    (prog, nameExpression, loweredName))                                                                     \
  X(aclrtcGetBinDataSize, (aclrtcProg prog, size_t *binDataSizeRet), (prog, binDataSizeRet))                 \
  X(aclrtcGetBinData, (aclrtcProg prog, char *binData), (prog, binData))                                     \
  X(aclrtcGetCompileLogSize, (aclrtcProg prog, size_t *logSizeRet), (prog, logSizeRet))                      \
  X(aclrtcGetCompileLog, (aclrtcProg prog, char *log), (prog, log))                                          \
  X(aclrtcDestroyProg, (aclrtcProg * prog), (prog))

extern "C" {
#define OPENATC_DECLARE_HOST_RTC(name, params, args) aclError openatc_host_##name params;
OPENATC_RTC_ENTRY_POINTS(OPENATC_DECLARE_HOST_RTC)
#undef OPENATC_DECLARE_HOST_RTC
}

#endif  // OPENATC_RTC_SRC_HOST_RTC_H_
