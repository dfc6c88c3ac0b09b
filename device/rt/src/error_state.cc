// Per-thread last-error text (aclGetRecentErrMsg) and the ACL-code <-> openatc::Error mapping.
#include "openatc/rt/error_state.h"

#include <cstdlib>

#include "openatc/common/log.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rt {
namespace {

thread_local std::string t_recent_error;

// ACL codes travel in openatc::Error::code() as "ACL<n>".
constexpr char kCodePrefix[] = "ACL";

aclError CodeOf(const openatc::Error &e) {
  const std::string &c = e.code();
  if (c.rfind(kCodePrefix, 0) == 0) {
    char *end = nullptr;
    long v = std::strtol(c.c_str() + 3, &end, 10);
    if (end != nullptr && *end == '\0' && v > 0) return static_cast<aclError>(v);
  }
  switch (e.category()) {
    case ErrorCategory::kUsage:
    case ErrorCategory::kInvalidInput: return ACL_ERROR_INVALID_PARAM;
    case ErrorCategory::kIo: return ACL_ERROR_INVALID_FILE;
    default: return ACL_ERROR_INTERNAL_ERROR;
  }
}

void AppendSentence(std::string &out, const std::string &s) {
  if (s.empty()) return;
  if (!out.empty()) out += ' ';
  out += s;
  char last = s.back();
  if (last != '.' && last != '!' && last != '?') out += '.';
}

}  // namespace

void ThrowAcl(aclError code, const std::string &message, const std::string &hint) {
  throw openatc::Error(code == ACL_ERROR_INVALID_PARAM ? ErrorCategory::kUsage : ErrorCategory::kInternal,
                       kCodePrefix + std::to_string(code), message, hint);
}

aclError RecordFailure(const char *api, const openatc::Error &error) {
  std::string text;
  AppendSentence(text, error.message());
  AppendSentence(text, error.hint());
  return RecordFailure(api, CodeOf(error), text);
}

aclError RecordFailure(const char *api, aclError code, const std::string &text) {
  t_recent_error = std::string(api) + ": " + text;
  LogDebug(t_recent_error + " (error " + std::to_string(code) + ")");
  return code;
}

void SetRecentError(const char *text) { t_recent_error = text == nullptr ? "" : text; }

}  // namespace rt
}  // namespace openatc

extern "C" ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void) {
  return openatc::rt::t_recent_error.c_str();
}
