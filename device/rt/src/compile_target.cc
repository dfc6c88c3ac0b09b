// The process's compile target (openatc/rt/runtime.h SetCompileTarget / CompileTarget): one value
// in libascendcl.so, set by the compiler, read by the RTC (device/rtc/src/rtc_dispatch.cc).
#include <mutex>

#include "openatc/rt/runtime.h"

namespace openatc {
namespace rt {
namespace {

std::mutex g_mutex;
openatc::Target &Current() {
  static auto *target = new openatc::Target(openatc::HostTarget());  // never destroyed: read until exit
  return *target;
}

}  // namespace

void SetCompileTarget(const openatc::Target &target) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Current() = target;
}

openatc::Target CompileTarget() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return Current();
}

}  // namespace rt
}  // namespace openatc
