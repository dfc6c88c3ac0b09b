// Process-wide state of GE's offline build API (ge/ge_ir_build.h): whether
// aclgrphBuildInitialize ran, its global options, the emulation switch read then, and the
// operators it loaded; plus the guard that turns an error into GE's code and the SDK's last error.
#ifndef OPENATC_IR_BUILD_IR_STATE_H_
#define OPENATC_IR_BUILD_IR_STATE_H_

#include <functional>
#include <map>
#include <string>

#include "graph/ge_error_codes.h"
#include "openatc/common/target.h"
#include "openatc/opp/deliverable.h"

namespace openatc::ir_build {

using OptionMap = std::map<std::string, std::string>;

/// Error codes of the offline build API (ge_api/ir_build/ERRORS.md).
inline constexpr const char *kNotInitialized = "OA2501";
inline constexpr const char *kBadOption = "OA2502";
inline constexpr const char *kBadArgument = "OA2503";
inline constexpr const char *kCannotWrite = "OA2504";

/// What a build sees of the current aclgrphBuildInitialize.
struct Session {
  OptionMap global_options;
  Emulation emulation = Emulation();
  const opp::CompileOppSet *opp_set = nullptr;  ///< never freed: builds in flight keep theirs
};

/// Starts the build API: checks `global_options` (ValidateGlobalOptions), reads the emulation
/// switch, loads the OPP set. A second call while started changes nothing.
void Initialize(const OptionMap &global_options);
void Finalize();
/// The current session. Throws kNotInitialized (naming `what`) when the API is not started.
Session Current(const std::string &what);

/// Runs `body`: GRAPH_SUCCESS, or GE's code for the openatc::Error it threw
/// (GE_CLI_GE_NOT_INITIALIZED for kNotInitialized, GRAPH_PARAM_INVALID for a usage error,
/// GRAPH_FAILED otherwise) with the message logged and kept as the SDK's last error. Never lets
/// an exception out.
ge::graphStatus Guard(const std::string &what, const std::function<void()> &body);

}  // namespace openatc::ir_build

#endif  // OPENATC_IR_BUILD_IR_STATE_H_
