// The process's dump config and aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump
// (dump_state.h; GE acl_mdl.h). aclInit's "dump" section arrives through the device's config
// reader (openatc/rt/init_config.h), registered below.
#include "dump_state.h"

#include <ctime>
#include <mutex>
#include <vector>

#include "acl/acl_mdl.h"
#include "openatc/common/log.h"
#include "openatc/rt/error_state.h"
#include "openatc/rt/init_config.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

struct State {
  std::mutex mutex;
  std::shared_ptr<DumpSession> from_init;              ///< aclInit's config, or null
  bool mdl_initialized = false;                        ///< between aclmdlInitDump and FinalizeDump
  std::shared_ptr<DumpSession> current;                ///< the last aclmdlSetDump's config
  std::vector<std::shared_ptr<DumpSession>> sessions;  ///< every SetDump since InitDump
};

State &TheState() {
  static auto *s = new State();  // never destroyed: models may run while the process exits
  return *s;
}

std::string TimeDir() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

// Parses a "dump" section into a session; OA2306 becomes ACL_ERROR_INVALID_DUMP_CONFIG.
std::shared_ptr<DumpSession> MakeSession(const nlohmann::json &section, const std::string &file, const char *api) {
  auto s = std::make_shared<DumpSession>();
  try {
    s->config = dump::ParseDumpConfig(section, file);
  } catch (const openatc::Error &e) {
    ThrowAcl(ACL_ERROR_INVALID_DUMP_CONFIG, e.message(), e.hint());
  }
  for (const std::string &w : s->config.warnings) LogWarning(std::string(api) + ": " + w);
  s->time_dir = TimeDir();
  return s;
}

void EndMdlSessions(State &st) {
  for (auto &s : st.sessions) s->active = false;
  st.sessions.clear();
  st.current.reset();
  st.mdl_initialized = false;
}

void ApplyInitDump(const nlohmann::json &section, const std::string &file) {
  auto s = MakeSession(section, file, "aclInit");
  State &st = TheState();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.from_init = std::move(s);
}

void ClearDump() {  // aclFinalize: every config ends
  State &st = TheState();
  std::lock_guard<std::mutex> lock(st.mutex);
  if (st.from_init) st.from_init->active = false;
  st.from_init.reset();
  EndMdlSessions(st);
}

const bool kRegistered = (rt::RegisterInitSection("dump", &ApplyInitDump, &ClearDump), true);

// The checks every aclmdl*Dump call starts with (GE's order).
void CheckCommon(const State &st, const char *api) {
  (void)kRegistered;
  if (!rt::AclInitialized())
    ThrowAcl(ACL_ERROR_UNINITIALIZE, std::string(api) + " needs aclInit first", "Call aclInit before the dump calls");
  if (st.from_init)
    ThrowAcl(ACL_ERROR_DUMP_ALREADY_RUN, "aclInit's config file already set a dump config",
             "Use either the \"dump\" section of aclInit's file or aclmdlInitDump/SetDump/FinalizeDump, not both");
}

}  // namespace

std::unique_ptr<ModelDump> BindDump(const std::string &model_name) {
  State &st = TheState();
  std::shared_ptr<DumpSession> s;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    s = st.from_init ? st.from_init : st.current;
  }
  if (!s || !s->active) return nullptr;
  const dump::DumpModelEntry *entry = s->config.Find(model_name);
  if (entry == nullptr) return nullptr;
  auto b = std::make_unique<ModelDump>();
  b->session = std::move(s);
  b->entry = entry;
  b->model_name = model_name;
  return b;
}

void InitDump() {
  State &st = TheState();
  std::lock_guard<std::mutex> lock(st.mutex);
  CheckCommon(st, "aclmdlInitDump");
  if (st.mdl_initialized)
    ThrowAcl(ACL_ERROR_REPEAT_INITIALIZE, "aclmdlInitDump was already called",
             "Call aclmdlFinalizeDump before initialising the dump again");
  st.mdl_initialized = true;
}

void SetDump(const char *path) {
  State &st = TheState();
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    CheckCommon(st, "aclmdlSetDump");
    if (!st.mdl_initialized)
      ThrowAcl(ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump without aclmdlInitDump", "Call aclmdlInitDump first");
  }
  if (path == nullptr)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "dumpCfgPath is a null pointer", "Pass the config file's path");
  const nlohmann::json config = rt::ReadConfigFile(path);
  if (!config.is_object() || !config.contains("dump"))
    ThrowAcl(ACL_ERROR_INVALID_DUMP_CONFIG, "the config file '" + std::string(path) + "' has no \"dump\" section",
             "Write {\"dump\": {\"dump_path\": ..., \"dump_list\": [...]}}");
  auto s = MakeSession(config.at("dump"), path, "aclmdlSetDump");
  std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.mdl_initialized)  // finalized while the file was read
    ThrowAcl(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump ended the dump while aclmdlSetDump ran",
             "Call aclmdlInitDump first");
  st.current = s;
  st.sessions.push_back(std::move(s));
}

void FinalizeDump() {
  State &st = TheState();
  std::lock_guard<std::mutex> lock(st.mutex);
  CheckCommon(st, "aclmdlFinalizeDump");
  if (!st.mdl_initialized)
    ThrowAcl(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump without aclmdlInitDump", "Call aclmdlInitDump first");
  EndMdlSessions(st);
}

}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlInitDump() {
  return Guard("aclmdlInitDump", [] { openatc::mdl::InitDump(); });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath) {
  return Guard("aclmdlSetDump", [&] { openatc::mdl::SetDump(dumpCfgPath); });
}

ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump() {
  return Guard("aclmdlFinalizeDump", [] { openatc::mdl::FinalizeDump(); });
}

}  // extern "C"
