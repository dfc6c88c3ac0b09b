// The process's compile target and op compile cache setting (openatc/rt/runtime.h
// SetCompileTarget / CompileTarget, SetKernelCache / KernelCache): one value each in
// libascendcl.so, set by the compiler, read by the RTC (device/rtc/src/rtc_dispatch.cc,
// device/rtc/src/kernel_cache.cc).
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

KernelCacheConfig &CurrentCache() {
  static auto *config = new KernelCacheConfig();  // never destroyed: read until exit
  return *config;
}

}  // namespace

void SetKernelCache(const KernelCacheConfig &config) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CurrentCache() = config;
}

KernelCacheConfig KernelCache() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return CurrentCache();
}

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
