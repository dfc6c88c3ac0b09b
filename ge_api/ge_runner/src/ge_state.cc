// libge_runner's process-wide state and error plumbing (see ge_state.h).
#include "ge_state.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <new>
#include <set>
#include <vector>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/python_host/python_host.h"

namespace openatc::ge_runner {
namespace {

struct Global {
  std::mutex mu;
  bool initialized = false;
  Options options;
  /// One per GEInitialize, never freed: compiles in flight keep using theirs.
  std::vector<std::unique_ptr<opp::CompileOppSet>> opp_sets;
};

Global &State() {
  static Global *g = new Global();  // never destroyed: op objects may be used during exit
  return *g;
}

thread_local std::string t_last_error;
thread_local std::string t_warnings;

// The built-in operators' OPP root, found next to this library (<lib>/../opp/built-in), as atc
// finds it next to its binary.
std::string BuiltinRoot() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&BuiltinRoot), &info) == 0 || info.dli_fname == nullptr) return "";
  return opp::BuiltinOppRootBeside(info.dli_fname);
}

const std::set<std::string> &KnownOptions() {
  static const std::set<std::string> known = {ge::OPTION_EXEC_DEVICE_ID, ge::OPTION_GRAPH_RUN_MODE,
                                               ge::JIT_COMPILE, ge::SOC_VERSION};
  return known;
}

}  // namespace

Options ToOptions(const std::map<ge::AscendString, ge::AscendString> &options) {
  Options out;
  for (const auto &kv : options) out[kv.first.GetString()] = kv.second.GetString();
  return out;
}

bool IsInitialized() {
  std::lock_guard<std::mutex> lock(State().mu);
  return State().initialized;
}

Options GlobalOptions(const std::string &what) {
  std::lock_guard<std::mutex> lock(State().mu);
  if (!State().initialized) {
    throw Error(ErrorCategory::kUsage, kNotInitialized, what + " needs GE to be initialized, and it is not",
                "Call ge::GEInitialize(options) first (and not after ge::GEFinalize)");
  }
  return State().options;
}

void Initialize(const Options &options) {
  Global &g = State();
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.initialized) {
    LogInfo("GEInitialize: GE is already initialized; the new options are ignored");
    return;
  }
  NoteUnknownOptions(options, "GEInitialize");
  const auto roots = opp::CustomOppRootsFromEnv();
  const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  const python_host::PluginScan plugins = python_host::ScanPluginEntries(env != nullptr ? env : "");
  for (const auto &root : roots) {
    if (std::find(plugins.plugins.begin(), plugins.plugins.end(), root) != plugins.plugins.end()) continue;
    const std::string note = opp::DiagnoseRoot(root);
    if (!note.empty()) Warn("ASCEND_CUSTOM_OPP_PATH: " + note);
  }
  auto set = std::make_unique<opp::CompileOppSet>();
  set->Load(roots, BuiltinRoot());
  // C++ deliverables first, then the Python plugins (as atc: atc/driver/src/compile_model.cc). A
  // Python op's execute then runs per execution through its adapter (sdk/python_host); in a process
  // that already runs Python the bridge attaches to that interpreter.
  python_host::LoadPythonCustomOpsFromEnv();
  g.opp_sets.push_back(std::move(set));
  g.options = options;
  g.initialized = true;
}

void Finalize() {
  std::lock_guard<std::mutex> lock(State().mu);
  State().initialized = false;
  State().options.clear();
}

const opp::CompileOppSet &OppSet() {
  std::lock_guard<std::mutex> lock(State().mu);
  static const opp::CompileOppSet empty;
  return State().opp_sets.empty() ? empty : *State().opp_sets.back();
}

void NoteUnknownOptions(const Options &options, const std::string &where) {
  for (const auto &kv : options) {
    if (!KnownOptions().count(kv.first)) {
      LogInfo(where + ": option '" + kv.first + "' = '" + kv.second +
              "' is accepted but has no effect on the host target");
    }
  }
}

void Warn(const std::string &message) {
  LogWarning(message);
  if (!t_warnings.empty()) t_warnings += "\n";
  t_warnings += message;
}

ge::Status Guard(const std::function<void()> &body) {
  try {
    body();
    return ge::SUCCESS;
  } catch (const Error &e) {
    t_last_error = e.what();
  } catch (const std::bad_alloc &) {
    t_last_error = std::string(kInternal) + ": out of memory. Use smaller tensors or free memory";
  } catch (const std::exception &e) {
    t_last_error = std::string(kInternal) + ": unexpected failure: " + e.what() + ". Report this as a bug";
  } catch (...) {
    t_last_error = std::string(kInternal) + ": unexpected failure (non-standard exception). Report this as a bug";
  }
  LogError(t_last_error);
  return ge::FAILED;
}

void ClearLastError() { t_last_error.clear(); }
const std::string &LastError() { return t_last_error; }
std::string TakeWarnings() {
  std::string w;
  w.swap(t_warnings);
  return w;
}

}  // namespace openatc::ge_runner
