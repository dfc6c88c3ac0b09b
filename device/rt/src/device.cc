// aclInit/aclFinalize, the single host "device" 0, its attributes, and the thread-count setters.
#include <unistd.h>

#include <mutex>

#include "acl/acl_rt.h"
#include "openatc/common/chip_facts.h"
#include "openatc/common/error.h"
#include "openatc/common/target.h"
#include "openatc/rt/error_state.h"
#include "init_config.h"
#include "openatc/rt/init_config.h"
#include "openatc/rt/runtime.h"
#include "thread_pool.h"

namespace openatc {
namespace rt {
namespace {

std::mutex g_init_mutex;  // serialises aclInit/aclFinalize; the flag itself is init_config.cc's

void CheckDevice(int64_t device_id) {
  if (device_id != 0) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "device " + std::to_string(device_id) + " does not exist; the host runtime has only device 0",
             "Pass device id 0");
  }
}

// The emulated device's facts when OPENATC_EMULATION is on (read once, at the first query), else
// nullptr. A bad value is the query's error.
const openatc::ChipFacts *EmulatedChip() {
  openatc::Emulation e;
  try {
    e = openatc::EmulationFromEnv();
  } catch (const openatc::Error &err) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, err.message(), err.hint());
  }
  return e.on() ? openatc::FindChip(e.chip) : nullptr;
}

int64_t PhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page : 0;
}

}  // namespace

void SetThreadCount(unsigned threads) { ThreadPool::Instance().SetThreadCount(threads); }
unsigned GetThreadCount() { return ThreadPool::Instance().ThreadCount(); }

}  // namespace rt
}  // namespace openatc

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

extern "C" {

// configPath: GE's acl.json (openatc/rt/init_config.h); nullptr or "" = none.
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath) {
  return Guard("aclInit", [&] {
    std::lock_guard<std::mutex> lock(openatc::rt::g_init_mutex);
    if (openatc::rt::AclInitialized()) {
      ThrowAcl(ACL_ERROR_REPEAT_INITIALIZE, "ACL is already initialized in this process",
               "Call aclInit once (or aclFinalize before calling it again)");
    }
    if (configPath != nullptr && *configPath != '\0') openatc::rt::ApplyInitConfig(configPath);
    openatc::rt::SetAclInitialized(true);
  });
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void) {
  return Guard("aclFinalize", [] {
    std::lock_guard<std::mutex> lock(openatc::rt::g_init_mutex);
    if (!openatc::rt::AclInitialized()) {
      ThrowAcl(ACL_ERROR_REPEAT_FINALIZE, "ACL is not initialized (aclFinalize without a matching aclInit)");
    }
    openatc::rt::ClearInitConfig();
    openatc::rt::SetAclInitialized(false);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId) {
  return Guard("aclrtSetDevice", [&] { openatc::rt::CheckDevice(deviceId); });
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) {
  return Guard("aclrtResetDevice", [&] { openatc::rt::CheckDevice(deviceId); });
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId) {
  return Guard("aclrtGetDevice", [&] {
    if (deviceId == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "deviceId is a null pointer");
    *deviceId = 0;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
  return Guard("aclrtGetDeviceInfo", [&] {
    if (value == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "value is a null pointer");
    openatc::rt::CheckDevice(deviceId);
    const int raw = openatc::rt::RawEnum(attr);
    if (const openatc::ChipFacts *chip = openatc::rt::EmulatedChip()) {
      switch (raw) {  // the emulated chip's facts (openatc/common/chip_facts.h)
        case ACL_DEV_ATTR_NPU_ARCH: *value = chip->npu_arch; return;
        case ACL_DEV_ATTR_AICORE_CORE_NUM: *value = chip->ai_core_cnt; return;
        case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = chip->cube_core_cnt; return;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = chip->vector_core_cnt; return;
        default: break;  // AI CPU count, memory: the host's
      }
    }
    switch (raw) {
      case ACL_DEV_ATTR_NPU_ARCH: *value = 0; break;
      case ACL_DEV_ATTR_AICPU_CORE_NUM:
      case ACL_DEV_ATTR_AICORE_CORE_NUM:
      case ACL_DEV_ATTR_CUBE_CORE_NUM:
      case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = openatc::rt::GetThreadCount(); break;
      case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = openatc::rt::PhysicalMemoryBytes(); break;
      default:
        ThrowAcl(ACL_ERROR_INVALID_PARAM,
                 "device attribute " + std::to_string(raw) + " is not known to the host runtime",
                 "Query ACL_DEV_ATTR_NPU_ARCH (601), a core count or ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE");
    }
  });
}

}  // extern "C"
