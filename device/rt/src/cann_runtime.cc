// Selecting the runtime backend and opening CANN's libascendcl.so (see cann_runtime.h).
#include "cann_runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "openatc/common/cann_lookup.h"
#include "openatc/rt/error_state.h"

namespace openatc {
namespace rt {
namespace {

std::mutex g_select_mutex;
std::atomic<const CannRuntime *> g_active{nullptr};

CannRuntime Open(const std::string &target) {
  std::vector<std::string> searched;
  CannRuntime rt;
  rt.target = target;
  rt.path = cann::FindCannLibrary("libascendcl.so", &searched);
  if (rt.path.empty()) {
    ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
             "running an OM built for " + target + " needs CANN's runtime (libascendcl.so), which was not found; searched " +
                 cann::JoinPaths(searched),
             "Install CANN and set ASCEND_HOME_PATH, or rebuild the OM with atc --soc_version host to run it on this CPU");
  }
  // RTLD_LOCAL so CANN's acl* do not interpose on ours (no RTLD_DEEPBIND: the sanitizers refuse it).
  void *dl = ::dlopen(rt.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char *why = ::dlerror();
    ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
             "cannot open CANN's runtime '" + rt.path + "' for " + target + ": " + (why ? why : "unknown dlopen error"),
             "Check the CANN install (ASCEND_HOME_PATH) and its library dependencies");
  }
  std::string missing;
#define OPENATC_CANN_RT_BIND(name, params, args, required)                  \
  rt.name = reinterpret_cast<decltype(&::name)>(::dlsym(dl, #name));        \
  if (required && rt.name == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  OPENATC_RT_FORWARDED(OPENATC_CANN_RT_BIND)
#undef OPENATC_CANN_RT_BIND
  using InitFn = aclError (*)(const char *);
  auto init = reinterpret_cast<InitFn>(::dlsym(dl, "aclInit"));
  if (init == nullptr) missing += (missing.empty() ? "" : ", ") + std::string("aclInit");
  if (!missing.empty()) {
    ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED, "CANN's runtime '" + rt.path + "' does not export " + missing,
             "Install a CANN version that provides them");
  }
  aclError rc = init(nullptr);
  if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE) {
    ThrowAcl(rc, "CANN's aclInit (" + rt.path + ") failed with " + std::to_string(rc) + " while selecting " + target);
  }
  rc = rt.aclrtSetDevice(0);
  if (rc != ACL_SUCCESS) {
    ThrowAcl(rc, "CANN's aclrtSetDevice(0) (" + rt.path + ") failed with " + std::to_string(rc) + " while selecting " + target,
             "Check that an NPU is present and visible to this process");
  }
  return rt;
}

}  // namespace

const CannRuntime *ActiveCann() { return g_active.load(std::memory_order_acquire); }

std::string ActiveBackend() {
  const CannRuntime *c = ActiveCann();
  return c == nullptr ? "host" : c->target;
}

namespace {

void SelectOrThrow(const openatc::Target &target) {
  std::lock_guard<std::mutex> lock(g_select_mutex);
  const CannRuntime *active = ActiveCann();
  switch (target.kind) {
    case TargetKind::kHost:
      if (active != nullptr) {
        ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
                 "this process already runs OMs for " + active->target + " through CANN (" + active->path +
                     "), so it cannot run an OM built for host",
                 "Run host OMs and Ascend OMs in separate processes");
      }
      return;
    case TargetKind::kAscendCann:
      if (active != nullptr) {
        if (active->target == target.soc_version) return;
        ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
                 "this process already runs OMs for " + active->target +
                     " through CANN, so it cannot also run one built for " + target.soc_version,
                 "Run OMs for different targets in separate processes");
      }
      g_active.store(new CannRuntime(Open(target.soc_version)), std::memory_order_release);  // kept for the process
      return;
    case TargetKind::kAscendEmulated:
      break;
  }
  ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED, "this runtime cannot run an emulated " + target.soc_version + " yet",
           "Rebuild the OM with atc --soc_version host");
}

}  // namespace

aclError SelectBackend(const openatc::Target &target, std::string *why) {
  return Guard("SelectBackend", [&] {
    try {
      SelectOrThrow(target);
    } catch (const openatc::Error &e) {
      if (why != nullptr) *why = e.message() + (e.hint().empty() ? "" : ". " + e.hint());
      throw;
    }
  });
}

}  // namespace rt
}  // namespace openatc
