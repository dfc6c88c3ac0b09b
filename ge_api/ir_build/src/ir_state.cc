// The offline build API's process-wide state and its error guard (ir_state.h).
#include "ir_state.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "ge/ge_api_error_codes.h"
#include "ir_options.h"
#include "openatc/atc/driver.h"
#include "openatc/common/cann_lookup.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/register/attr_value.h"

namespace openatc::ir_build {
namespace {

struct Global {
  std::mutex mu;
  bool initialized = false;
  Session session;
  std::vector<std::unique_ptr<opp::CompileOppSet>> opp_sets;  // one per start, never freed
};

Global &State() {
  static Global *g = new Global();  // never destroyed: op objects may be used during exit
  return *g;
}

// The built-in operators' OPP root next to this library (<lib>/../opp/built-in), as atc finds it
// next to its binary (<bin>/../opp/built-in); "" when there is none.
std::string BuiltinRootNextToLibrary() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&BuiltinRootNextToLibrary), &info) == 0 || info.dli_fname == nullptr) return "";
  return opp::BuiltinOppRootBeside(info.dli_fname);
}

ge::graphStatus StatusFor(const Error &e) {
  if (e.code() == kNotInitialized) return ge::GE_CLI_GE_NOT_INITIALIZED;
  return e.category() == ErrorCategory::kUsage ? ge::GRAPH_PARAM_INVALID : ge::GRAPH_FAILED;
}

}  // namespace

void Initialize(const OptionMap &global_options) {
  Global &g = State();
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.initialized) {
    LogInfo("aclgrphBuildInitialize: already initialized; the new options are ignored");
    return;
  }
  for (const auto &key : ValidateGlobalOptions(global_options))
    LogWarning("aclgrphBuildInitialize: option '" + key + "' is not an option of the offline build; it is ignored");
  Session s;
  s.global_options = global_options;
  s.emulation = EmulationFromEnv();  // read once, here, as atc reads it at start
  if (s.emulation.on()) LogWarning(EmulationWarning(s.emulation, cann::CannRoots()));
  auto set = std::make_unique<opp::CompileOppSet>();
  atc::LoadCompileOppSet(*set, BuiltinRootNextToLibrary());
  s.opp_set = set.get();
  g.opp_sets.push_back(std::move(set));
  g.session = s;
  g.initialized = true;
}

void Finalize() {
  std::lock_guard<std::mutex> lock(State().mu);
  State().initialized = false;
  State().session = Session();
}

Session Current(const std::string &what) {
  std::lock_guard<std::mutex> lock(State().mu);
  if (!State().initialized) {
    throw Error(ErrorCategory::kUsage, kNotInitialized, what + " needs the offline build to be initialized, and it is not",
                "Call ge::aclgrphBuildInitialize(options) first (and not after ge::aclgrphBuildFinalize)");
  }
  return State().session;
}

ge::graphStatus Guard(const std::string &what, const std::function<void()> &body) {
  std::string message;
  ge::graphStatus status = ge::GRAPH_FAILED;
  try {
    body();
    return ge::GRAPH_SUCCESS;
  } catch (const Error &e) {
    message = e.what();
    status = StatusFor(e);
  } catch (const std::bad_alloc &) {
    message = "E19999: out of memory. Use smaller tensors or free memory";
  } catch (const std::exception &e) {
    message = std::string("E19999: unexpected failure: ") + e.what() + ". Report this as a bug";
  } catch (...) {
    message = "E19999: unexpected failure (non-standard exception). Report this as a bug";
  }
  reg::SetSdkErrorText(what + ": " + message);
  return status;
}

}  // namespace openatc::ir_build
