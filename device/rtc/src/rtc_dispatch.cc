// The exported aclrtc* entry points: each call goes to the host RTC (rtc_api.cc, internal
// names) or, for a program created while the process's compile target is an Ascend chip through
// CANN (openatc::rt::CompileTarget, openatc/rt/runtime.h), to CANN's libacl_rtc.so. The choice is made once per program, in
// aclrtcCreateProg; later calls find the program's owner by handle. When CANN's RTC is needed
// but missing, aclrtcCreateProg returns ACL_ERROR_RTC_FAILURE (576000) naming the target and
// every path searched. CANN's failures keep CANN's code; aclGetRecentErrMsg says which call
// failed in CANN's RTC and, for a compile, CANN's compile log.
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "acl/acl_rtc_error.h"
#include "cann_rtc.h"
#include "host_rtc.h"
#include "openatc/common/chip_facts.h"
#include "openatc/common/error.h"
#include "openatc/rt/runtime.h"
#include "options.h"

namespace openatc {
namespace rtc {
namespace {

std::mutex g_mutex;
std::unordered_set<aclrtcProg> &CannPrograms() {
  static auto *set = new std::unordered_set<aclrtcProg>();
  return *set;
}

bool IsCann(aclrtcProg prog) {
  if (prog == nullptr) return false;
  std::lock_guard<std::mutex> lock(g_mutex);
  return CannPrograms().count(prog) != 0;
}

/** Records a CANN failure (with its compile log for a compile) and returns CANN's code. */
aclError CannResult(const char *api, aclError rc, const CannRtc &cann, aclrtcProg prog) {
  if (rc == 0) return rc;
  std::string text = std::string(api) + ": CANN's RTC (" + cann.path + ") returned " + std::to_string(rc);
  size_t size = 0;
  if (prog != nullptr && cann.aclrtcGetCompileLogSize != nullptr && cann.aclrtcGetCompileLog != nullptr &&
      cann.aclrtcGetCompileLogSize(prog, &size) == 0 && size > 1 && size < (1u << 20)) {
    std::vector<char> log(size + 1, '\0');
    if (cann.aclrtcGetCompileLog(prog, log.data()) == 0) text += "; compile log: " + std::string(log.data());
  }
  openatc::rt::SetRecentError(text.c_str());
  return rc;
}

aclError CreateOnCann(const std::string &target, aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                      const char **headers, const char **includeNames) {
  const CannRtc *cann = nullptr;
  try {
    cann = &LoadCannRtc(target);
  } catch (const openatc::Error &e) {
    std::string text = std::string("aclrtcCreateProg: ") + e.message() + ". " + e.hint() + ".";
    openatc::rt::SetRecentError(text.c_str());
    return ACL_ERROR_RTC_FAILURE;
  }
  aclError rc = cann->aclrtcCreateProg(prog, src, name, numHeaders, headers, includeNames);
  if (rc != 0) return CannResult("aclrtcCreateProg", rc, *cann, nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  CannPrograms().insert(*prog);
  return 0;
}

/** A missing optional entry point of CANN's RTC (name expressions, compile log). */
aclError Unsupported(const char *api, const CannRtc &cann) {
  std::string text = std::string(api) + ": CANN's RTC (" + cann.path + ") does not export " + api;
  openatc::rt::SetRecentError(text.c_str());
  return ACL_ERROR_RTC_FAILURE;
}

}  // namespace
}  // namespace rtc
}  // namespace openatc

using namespace openatc::rtc;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                                              const char **headers, const char **includeNames) {
  const openatc::Target target = openatc::rt::CompileTarget();
  // An emulated chip's kernels are host code (docs/architecture.md "Targets"): the host RTC compiles them.
  if (target.kind == openatc::TargetKind::kAscendEmulated) {
    const openatc::ChipFacts *chip = openatc::FindChip(target.soc_version);
    try {
      if (chip != nullptr) RequireRtc(*chip);  // as on the chip: its CANN has no runtime compilation
    } catch (const openatc::Error &e) {
      const std::string text = "aclrtcCreateProg: the emulated " + e.message() + ". " + e.hint() + ".";
      openatc::rt::SetRecentError(text.c_str());
      return ACL_ERROR_RTC_FAILURE;
    }
  }
  if (target.kind != openatc::TargetKind::kAscendCann) {
    return openatc_host_aclrtcCreateProg(prog, src, name, numHeaders, headers, includeNames);
  }
  return CreateOnCann(target.soc_version, prog, src, name, numHeaders, headers, includeNames);
}

// Every other entry point: CANN's for a CANN program, else the host RTC's.
#define OPENATC_RTC_FORWARD(name, params, args)                                              \
  ACL_FUNC_VISIBILITY aclError name params {                                                 \
    if (!IsCann(prog)) return openatc_host_##name args;                                      \
    const CannRtc &cann = LoadCannRtc(openatc::rt::CompileTarget().soc_version);                                      \
    if (cann.name == nullptr) return Unsupported(#name, cann);                               \
    return CannResult(#name, cann.name args, cann, std::string(#name) == "aclrtcCompileProg" ? prog : nullptr); \
  }
OPENATC_RTC_FORWARD(aclrtcCompileProg, (aclrtcProg prog, int numOptions, const char **options),
                    (prog, numOptions, options))
OPENATC_RTC_FORWARD(aclrtcAddNameExpr, (aclrtcProg prog, const char *const nameExpression), (prog, nameExpression))
OPENATC_RTC_FORWARD(aclrtcGetLoweredName, (aclrtcProg prog, const char *nameExpression, const char **loweredName),
                    (prog, nameExpression, loweredName))
OPENATC_RTC_FORWARD(aclrtcGetBinDataSize, (aclrtcProg prog, size_t *binDataSizeRet), (prog, binDataSizeRet))
OPENATC_RTC_FORWARD(aclrtcGetBinData, (aclrtcProg prog, char *binData), (prog, binData))
OPENATC_RTC_FORWARD(aclrtcGetCompileLogSize, (aclrtcProg prog, size_t *logSizeRet), (prog, logSizeRet))
OPENATC_RTC_FORWARD(aclrtcGetCompileLog, (aclrtcProg prog, char *log), (prog, log))
#undef OPENATC_RTC_FORWARD

ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg *prog) {
  if (prog == nullptr || !IsCann(*prog)) return openatc_host_aclrtcDestroyProg(prog);
  const CannRtc &cann = LoadCannRtc(openatc::rt::CompileTarget().soc_version);
  const aclrtcProg handle = *prog;
  aclError rc = cann.aclrtcDestroyProg(prog);
  if (rc == 0) {
    std::lock_guard<std::mutex> lock(g_mutex);
    CannPrograms().erase(handle);
  }
  return CannResult("aclrtcDestroyProg", rc, cann, nullptr);
}

}  // extern "C"
