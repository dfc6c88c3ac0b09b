// The process's dump config (GE's "dump" section, docs/acl.md §8): the one aclInit's file
// set, or the one the last aclmdlSetDump set between aclmdlInitDump and aclmdlFinalizeDump, and
// the binding of each loaded model to the config in force when it was loaded.
//
// State machine (GE's): aclmdlInitDump / SetDump / FinalizeDump need aclInit
// (ACL_ERROR_UNINITIALIZE) and no dump config from aclInit's file (ACL_ERROR_DUMP_ALREADY_RUN);
// a second InitDump is ACL_ERROR_REPEAT_INITIALIZE; SetDump and FinalizeDump without InitDump are
// ACL_ERROR_DUMP_NOT_RUN. A config applies to models loaded after it is set; FinalizeDump (and
// aclFinalize) stops every dump of the configs it ends. Threading: any thread.
#ifndef OPENATC_MDL_SRC_DUMP_STATE_H_
#define OPENATC_MDL_SRC_DUMP_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "openatc/dump/dump_config.h"

namespace openatc {
namespace mdl {

/// One config as set: what it says, the time folder of its dumps, whether it is still in force.
struct DumpSession {
  dump::DumpConfig config;
  std::string time_dir;  ///< YYYYMMDDhhmmss (local time) when the config was set
  std::atomic<bool> active{true};
};

/// A loaded model the config in force at its load lists (dump_list model_name).
struct ModelDump {
  std::shared_ptr<DumpSession> session;
  const dump::DumpModelEntry *entry = nullptr;  ///< in session->config
  std::string model_name;
  uint64_t next_step = 0;  ///< executions so far; guarded by the model's run mutex
  bool warned_gears = false;  ///< a geared model is not dumped: said once
};

/// The binding for a model being loaded as `model_name`, or null when no config lists it.
std::unique_ptr<ModelDump> BindDump(const std::string &model_name);

void InitDump();
void SetDump(const char *path);
void FinalizeDump();

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_DUMP_STATE_H_
