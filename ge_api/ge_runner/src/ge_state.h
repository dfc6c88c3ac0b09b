// Process-wide state of libge_runner: whether GEInitialize ran, the loaded OPP set, the global
// options, and the calling thread's last error / warnings (internal).
#ifndef OPENATC_GE_RUNNER_GE_STATE_H_
#define OPENATC_GE_RUNNER_GE_STATE_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ge/ge_api.h"
#include "openatc/opp/deliverable.h"

namespace openatc::ge_runner {

using Options = std::map<std::string, std::string>;

/// Error codes of libge_runner (ge_api/ge_runner/ERRORS.md).
inline constexpr const char *kNotInitialized = "OA2401";
inline constexpr const char *kUnknownGraph = "OA2402";
inline constexpr const char *kDuplicateGraph = "OA2403";
inline constexpr const char *kBadGraph = "OA2404";
inline constexpr const char *kOutOfOrder = "OA2405";
inline constexpr const char *kBadTensor = "OA2406";
inline constexpr const char *kBadOption = "OA2407";
inline constexpr const char *kInternal = "OA2408";

/// Converts an AscendString map.
Options ToOptions(const std::map<ge::AscendString, ge::AscendString> &options);

/// True between GEInitialize and GEFinalize.
bool IsInitialized();
/// Global options of the current GEInitialize. Throws kNotInitialized when GE is not started.
Options GlobalOptions(const std::string &what);
/// GEInitialize's work: loads the OPP set (ASCEND_CUSTOM_OPP_PATH, then the built-in root next
/// to libge_runner.so) and keeps `options`.
void Initialize(const Options &options);
void Finalize();
/// The OPP set loaded by the last GEInitialize (empty before any).
const opp::CompileOppSet &OppSet();

/// Logs every option key the online flow does not read (GE accepts unknown keys) as a warning.
void NoteUnknownOptions(const Options &options, const std::string &where);
/// Appends to the calling thread's warnings (GEGetWarningMsgV2) and logs it.
void Warn(const std::string &message);

/// Runs `body`; returns SUCCESS, or FAILED with the error kept as the thread's last error
/// message (openatc::Error formatted as "<code>: ... <hint>"). Never lets an exception out.
ge::Status Guard(const std::function<void()> &body);
void ClearLastError();
const std::string &LastError();
std::string TakeWarnings();

}  // namespace openatc::ge_runner

#endif  // OPENATC_GE_RUNNER_GE_STATE_H_
