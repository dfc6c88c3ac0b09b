// CANN's RTC library (libacl_rtc.so of a CANN install), opened with dlopen on first use for an
// Ascend compile target (search order: openatc/common/cann_lookup.h; when: openatc::rt::
// CompileTarget). Holds one function pointer per aclrtc* entry point; a program created by CANN
// stays with CANN for its lifetime.
#ifndef OPENATC_RTC_SRC_CANN_RTC_H_
#define OPENATC_RTC_SRC_CANN_RTC_H_

#include <string>

#include "host_rtc.h"

namespace openatc {
namespace rtc {

struct CannRtc {
  std::string path;  ///< the library opened
#define OPENATC_CANN_RTC_POINTER(name, params, args) decltype(&::name) name = nullptr;
  OPENATC_RTC_ENTRY_POINTS(OPENATC_CANN_RTC_POINTER)
#undef OPENATC_CANN_RTC_POINTER
};

/** CANN's RTC for `target` (an Ascend soc_version), opened once per process and never closed.
 *  Throws openatc::Error "ACL576000" (ACL_ERROR_RTC_FAILURE) naming the target and every path
 *  searched when no CANN install provides libacl_rtc.so, or naming the library and the missing
 *  entry point when it lacks aclrtcCreateProg/CompileProg/GetBinDataSize/GetBinData/DestroyProg. */
const CannRtc &LoadCannRtc(const std::string &target);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_CANN_RTC_H_
