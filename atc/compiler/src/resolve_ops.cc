// Resolution of every custom-op node's type against the registry, reporting all problems at once.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "openatc/common/error.h"
#include "openatc/compiler/compiler.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/ir/control_flow.h"
#include "resolve_ops.h"

namespace openatc::compiler {
namespace {
size_t EditDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::vector<std::string> ClosestNames(const std::string &name, const std::vector<std::string> &candidates) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto &c : candidates) {
    size_t d = EditDistance(name, c);
    if (d <= std::max<size_t>(2, name.size() / 3)) scored.emplace_back(d, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

void ResolveOpTypes(const ir::Graph &graph, const opp::CompileOppSet &opp) {
  auto &registry = gert_impl::CustomOpRegistry::Global();
  std::map<std::string, std::vector<std::string>> missing;  // type -> nodes
  // Subgraph nodes (If/Loop/Scan bodies) resolve like the main graph's.
  std::function<void(const ir::Graph &)> visit = [&](const ir::Graph &g) {
    for (const auto &node : g.nodes) {
      ir::ForEachSubgraph(node, [&](const std::string &, const ir::Graph &sub) { visit(sub); });
      if (IsFrameworkOp(node.type) || registry.Has(node.type)) continue;
      missing[node.type].push_back(node.name);
    }
  };
  visit(graph);
  if (missing.empty()) return;
  const std::vector<std::string> types = registry.Types();
  std::string msg;
  for (const auto &[type, nodes] : missing) {
    if (!msg.empty()) msg += "; ";
    msg += "op type '" + type + "' (node";
    msg += nodes.size() > 1 ? "s " : " ";
    for (size_t i = 0; i < nodes.size(); ++i) msg += (i ? ", '" : "'") + nodes[i] + "'";
    msg += ") is not registered by any deliverable";
    auto close = ClosestNames(type, types);
    if (!close.empty()) {
      msg += " (did you mean ";
      for (size_t i = 0; i < close.size(); ++i) msg += (i ? ", '" : "'") + close[i] + "'";
      msg += "?)";
    }
  }
  std::vector<std::string> custom(opp.roots().begin(), opp.roots().end() - (opp.builtin_root().empty() ? 0 : 1));
  msg += ". OPP roots searched: ";
  if (custom.empty()) msg += "none from ASCEND_CUSTOM_OPP_PATH (unset or empty)";
  for (size_t i = 0; i < custom.size(); ++i) msg += (i ? ", '" : "'") + custom[i] + "'";
  if (!opp.builtin_root().empty()) msg += ", then the built-in root '" + opp.builtin_root() + "'";
  if (!opp.searched().empty()) {
    msg += " (looked for ";
    for (size_t i = 0; i < opp.searched().size(); ++i) msg += (i ? ", " : "") + opp.searched()[i];
    msg += ")";
  }
  msg += ". Deliverables loaded: ";
  if (opp.deliverables().empty()) msg += "none";
  for (size_t i = 0; i < opp.deliverables().size(); ++i) msg += (i ? ", '" : "'") + opp.deliverables()[i].path + "'";
  msg += ". Registered op types: ";
  if (types.empty()) msg += "none";
  for (size_t i = 0; i < types.size(); ++i) msg += (i ? ", " : "") + types[i];
  std::string hint =
      "Set ASCEND_CUSTOM_OPP_PATH to the OPP root holding op_graph/lib/linux/<arch>/*.so (or libcust_opapi.so), and "
      "make sure REG_AUTO_MAPPING_OP's class name equals the node type";
  Error e(ErrorCategory::kGraph, "OA1104", msg, hint);
  if (missing.size() == 1) e.WithNode(missing.begin()->second.front(), missing.begin()->first);
  throw e;
}

}  // namespace openatc::compiler
