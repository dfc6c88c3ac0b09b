// Guarded calls into custom-op callbacks.
#include "openatc/opp/call_guard.h"

#include <exception>

#include "openatc/common/error.h"

namespace openatc::opp {

std::string GraphStatusName(ge::graphStatus status) {
  switch (status) {
    case ge::GRAPH_SUCCESS: return "GRAPH_SUCCESS";
    case ge::GRAPH_FAILED: return "GRAPH_FAILED";
    case ge::GRAPH_PARAM_INVALID: return "GRAPH_PARAM_INVALID";
    case ge::GRAPH_NOT_CHANGED: return "GRAPH_NOT_CHANGED";
    case ge::GRAPH_NULL_PTR: return "GRAPH_NULL_PTR";
    case ge::GRAPH_PARAM_OUT_OF_RANGE: return "GRAPH_PARAM_OUT_OF_RANGE";
    case ge::GRAPH_MEM_OPERATE_FAILED: return "GRAPH_MEM_OPERATE_FAILED";
    default: return std::to_string(status);
  }
}

void GuardedCall(const CallSite &site, const std::function<ge::graphStatus()> &fn) {
  std::string what;
  try {
    ge::graphStatus status = fn();
    if (status == ge::GRAPH_SUCCESS) return;
    what = std::string(site.callback) + " returned " + GraphStatusName(status);
  } catch (const Error &) {
    throw;  // already ours (raised by a nested guarded call or a service)
  } catch (const std::exception &e) {
    what = std::string(site.callback) + " threw an exception: " + e.what();
  } catch (...) {
    what = std::string(site.callback) + " threw a non-standard exception";
  }
  std::string hint = "See the deliverable's log above";
  if (!site.deliverable.empty()) hint += " ('" + std::string(site.deliverable) + "')";
  Error err(ErrorCategory::kCustomOp, "OA1401", what, hint);
  if (!site.node.empty()) err.WithNode(std::string(site.node), std::string(site.op_type));
  else if (!site.op_type.empty()) err.WithNode("", std::string(site.op_type));
  throw err;
}

}  // namespace openatc::opp
