// The calling thread's last SDK error (openatc/register/attr_value.h) and SetSdkError.
#include "sdk_visibility.h"

#include "openatc/common/log.h"
#include "openatc/register/attr_value.h"

namespace openatc::reg {
namespace {
std::string &ThreadLastError() {
  thread_local std::string last;
  return last;
}
}  // namespace

void SetSdkError(const std::string &message) {
  ThreadLastError() = message;
  LogError(message);
}

const std::string &LastSdkError() { return ThreadLastError(); }
void ClearLastSdkError() { ThreadLastError().clear(); }
void SetSdkErrorText(const std::string &message) { SetSdkError(message); }

}  // namespace openatc::reg
