/**
 * @file openatc/opp/call_guard.h
 * Calls into user code (custom-op callbacks) so that a failure never crashes the tools: a
 * non-success graphStatus or an exception becomes openatc::Error (kCustomOp) naming the node,
 * the op type, the callback and the deliverable (docs/architecture.md "Errors").
 */
#ifndef OPENATC_OPP_CALL_GUARD_H_
#define OPENATC_OPP_CALL_GUARD_H_

#include <functional>
#include <string>
#include <string_view>

#include "graph/error_codes.h"

namespace openatc::opp {

/// Views, not copies: a CallSite is made for every callback call on the run path, and read only
/// when the call fails (make it in the GuardedCall expression, so the viewed text outlives it).
struct CallSite {
  std::string_view node;         ///< node name ("" for per-type calls such as Serialize)
  std::string_view op_type;
  std::string_view callback;     ///< "Compile", "InferShape", ...
  std::string_view deliverable;  ///< path or name of the .so
};

/// Runs `fn`; throws openatc::Error(kCustomOp, "OA1401") when it returns anything but
/// GRAPH_SUCCESS or throws.
void GuardedCall(const CallSite &site, const std::function<ge::graphStatus()> &fn);

/// "GRAPH_FAILED", "GRAPH_PARAM_INVALID", ... or the number.
std::string GraphStatusName(ge::graphStatus status);

}  // namespace openatc::opp

#endif  // OPENATC_OPP_CALL_GUARD_H_
