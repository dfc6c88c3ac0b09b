// Opening CANN's libacl_rtc.so for an Ascend target (see cann_rtc.h).
#include "cann_rtc.h"

#include <dlfcn.h>

#include <mutex>

#include "acl/acl_rtc_error.h"
#include "openatc/common/error.h"
#include "openatc/common/cann_lookup.h"

namespace openatc {
namespace rtc {
using cann::FindCannLibrary;
using cann::JoinPaths;

namespace {

[[noreturn]] void Fail(const std::string &message, const std::string &hint) {
  throw openatc::Error(ErrorCategory::kUsage, "ACL" + std::to_string(ACL_ERROR_RTC_FAILURE), message, hint);
}

CannRtc Open(const std::string &target) {
  std::vector<std::string> searched;
  CannRtc rtc;
  rtc.path = FindCannLibrary("libacl_rtc.so", &searched);
  if (rtc.path.empty()) {
    Fail("compiling for " + target + " needs CANN's RTC (libacl_rtc.so), which was not found; searched " +
             JoinPaths(searched),
         "Install CANN and set ASCEND_HOME_PATH, or build for --soc_version host");
  }
  // RTLD_LOCAL: CANN's aclrtc* must not interpose on ours. (No RTLD_DEEPBIND: the sanitizers
  // refuse it; CANN's library binds its own calls.)
  void *dl = ::dlopen(rtc.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char *why = ::dlerror();
    Fail("cannot open CANN's RTC '" + rtc.path + "' for " + target + ": " + (why ? why : "unknown dlopen error"),
         "Check the CANN install (ASCEND_HOME_PATH) and its library dependencies");
  }
  std::string missing;
#define OPENATC_CANN_RTC_BIND(name, params, args)                                   \
  rtc.name = reinterpret_cast<decltype(&::name)>(::dlsym(dl, #name));               \
  if (rtc.name == nullptr && std::string(#name).find("Name") == std::string::npos && \
      std::string(#name).find("CompileLog") == std::string::npos)                    \
    missing += (missing.empty() ? "" : ", ") + std::string(#name);
  OPENATC_RTC_ENTRY_POINTS(OPENATC_CANN_RTC_BIND)
#undef OPENATC_CANN_RTC_BIND
  if (!missing.empty()) {
    Fail("CANN's RTC '" + rtc.path + "' does not export " + missing, "Install a CANN version that provides them");
  }
  return rtc;
}

}  // namespace

const CannRtc &LoadCannRtc(const std::string &target) {
  // One CANN per process (the first target that needed it opens it; later targets reuse it).
  static std::mutex mutex;
  static CannRtc *loaded = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded == nullptr) loaded = new CannRtc(Open(target));
  return *loaded;
}

}  // namespace rtc
}  // namespace openatc
