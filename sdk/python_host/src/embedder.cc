// LoadPythonCustomOpsFromEnv: dlopen the bridge only when ASCEND_CUSTOM_OPP_PATH names Python
// plugins, import them once per process, and register one adapter per Python op type.
#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>

#include "bridge_abi.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/python_host/python_host.h"
#include "py_adapter.h"

namespace openatc::python_host {
namespace {

constexpr const char *kBridgeName = "libopenatc_py_bridge.so";
constexpr const char *kOrigin = "Python plugin (ASCEND_CUSTOM_OPP_PATH)";

struct State {
  std::mutex mu;
  bool loaded = false;
  std::vector<std::string> registered;
  std::set<std::string> types;
  std::set<std::string> host_types;
  std::set<std::string> annotated_types;
};
State &GetState() {
  static State s;
  return s;
}

// The folder of libgert.so: the bridge sits beside it (build: lib/, install: lib64/) and the
// Python packages in ../python/site-packages.
std::string SdkLibDir() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void *>(&gert_impl::CustomOpRegistry::Global), &info) == 0 || info.dli_fname == nullptr)
    return ".";
  std::string path = info.dli_fname;
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

const OaPyBridgeApi *OpenBridge(const std::string &dir) {
  const std::string path = dir + "/" + kBridgeName;
  void *h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (h == nullptr) {
    const char *why = ::dlerror();
    throw Error(ErrorCategory::kInternal, "OA1802",
                "ASCEND_CUSTOM_OPP_PATH names Python plugins, but the Python bridge '" + path + "' does not load: " +
                    (why ? why : "unknown error"),
                "Install Debian's python3-dev (libpython3.11) and reinstall OpenATC, or remove the Python entries "
                "from ASCEND_CUSTOM_OPP_PATH");
  }
  auto fn = reinterpret_cast<OpenatcPyBridgeApiFn>(::dlsym(h, "OpenatcPyBridgeApi"));
  const OaPyBridgeApi *api = fn != nullptr ? fn() : nullptr;
  if (api == nullptr || api->abi_version != OPENATC_PY_BRIDGE_ABI_VERSION)
    throw Error(ErrorCategory::kInternal, "OA1802", "the Python bridge '" + path + "' has another ABI version",
                "Reinstall OpenATC: the bridge and the tools come from different builds");
  return api;
}

[[noreturn]] void LoadFailed(const OaPyBridgeApi *api, int status, char *text, const std::string &opp_path) {
  std::string what = text != nullptr ? text : "unknown error";
  api->free_text(text);
  if (status == kOaPyPathMissing)
    throw Error(ErrorCategory::kUsage, "OA1801", "a Python custom op path in ASCEND_CUSTOM_OPP_PATH ('" + opp_path +
                "') does not exist:\n" + what, "Fix or remove the entry in ASCEND_CUSTOM_OPP_PATH");
  if (status == kOaPyNoRuntime)
    throw Error(ErrorCategory::kInternal, "OA1802", what, "Check the Python installation (python3 -c 'import sys')");
  throw Error(ErrorCategory::kCustomOp, "OA1803", "loading the Python custom ops of ASCEND_CUSTOM_OPP_PATH ('" +
              opp_path + "') failed:\n" + what, "Fix the plugin named in the traceback");
}

void RegisterOps(State &s, const OaPyBridgeApi *api, const std::string &json) {
  auto &registry = gert_impl::CustomOpRegistry::Global();
  for (const auto &op : nlohmann::json::parse(json)) {
    PyOpInfo info;
    info.op_type = op.at("op_type").get<std::string>();
    info.api = api;
    info.infer_meta = op.at("infer_meta").get<bool>();
    const auto interfaces = op.at("interfaces").get<std::vector<std::string>>();
    for (const auto &i : interfaces) {
      if (i == "host_cpu_execute") info.backend = "host";
      else if (i == "eager_execute" && info.backend.empty()) info.backend = "device";
      else if (i == "compilable") info.compile = true;
      else if (i == "annotated_args") info.annotated = true;
    }
    if (registry.Has(info.op_type))
      throw Error(ErrorCategory::kCustomOp, "OA1803", "Python custom op conflict: op type '" + info.op_type +
                  "' is already registered by '" + registry.Origin(info.op_type) + "'",
                  "Remove one of the two registrations");
    registry.Register(info.op_type, [info] { return NewPyOp(info); }, kOrigin);
    s.registered.push_back(info.op_type);
    s.types.insert(info.op_type);
    if (info.backend == "host") s.host_types.insert(info.op_type);
    if (info.annotated) s.annotated_types.insert(info.op_type);
  }
}

}  // namespace

std::vector<std::string> LoadPythonCustomOpsFromEnv() {
  State &s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.loaded) return s.registered;
  const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  if (env == nullptr || *env == '\0') return {};
  const PluginScan scan = ScanPluginEntries(env);
  if (scan.plugins.empty()) return {};
  for (const auto &w : scan.warnings) LogWarning("ASCEND_CUSTOM_OPP_PATH: Python custom op path " + w);
  const std::string dir = SdkLibDir();
  const OaPyBridgeApi *api = OpenBridge(dir);
  char resolved[PATH_MAX];
  const std::string site_path = dir + "/../python/site-packages";
  const std::string site = ::realpath(site_path.c_str(), resolved) != nullptr ? std::string(resolved) : site_path;
  char *json = nullptr;
  char *err = nullptr;
  int status = api->set_cpp_protos(CppPrototypesJson().c_str(), &err);
  if (status == kOaPyOk) status = api->load(site.c_str(), env, &json, &err);
  if (status != kOaPyOk) LoadFailed(api, status, err, env);
  std::string text = json;
  api->free_text(json);
  s.loaded = true;
  RegisterOps(s, api, text);
  return s.registered;
}

std::set<std::string> PythonOpTypes() {
  State &s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.types;
}

std::set<std::string> HostExecuteOpTypes() {
  State &s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.host_types;
}

std::set<std::string> AnnotatedOpTypes() {
  State &s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.annotated_types;
}

}  // namespace openatc::python_host
