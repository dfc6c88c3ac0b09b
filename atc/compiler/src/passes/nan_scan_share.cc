// NanScanSharePass: not a rewrite. A Conv whose fused chain oneDNN evaluates NaN-losing checks
// its X and its fused addend for non-finite values on every run; where an earlier Conv (graph
// order = run order) checks the same tensor as its X, the later one is told to take that verdict
// (openatc/nan_scan_share.h: the attributes, the run-time protocol and why it is sound). Runs on
// the final graph, after the precision passes, so that no later pass reorders nodes.
#include <map>
#include <utility>

#include "openatc/common/log.h"
#include "openatc/nan_scan_share.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// A built-in float32 Conv whose post-op chain holds a NaN-losing post-op.
bool ChecksInputs(const std::set<std::string> &builtin, const ir::Node &n) {
  if (n.type != "Conv" || !builtin.count(n.type) || n.inputs.empty() || !n.inputs[0].connected()) return false;
  if (n.input_descs.empty() || n.input_descs[0].dtype != ge::DT_FLOAT) return false;
  auto ops = n.attrs.find("openatc_post_ops");
  if (ops == n.attrs.end()) return false;
  auto alpha = n.attrs.find("openatc_post_alpha");
  for (size_t k = 0; k < ops->second.list_s.size(); ++k) {
    const float a = alpha != n.attrs.end() && k < alpha->second.list_f.size() ? alpha->second.list_f[k] : 0.0f;
    if (PostOpDropsNaN(ops->second.list_s[k], a)) return true;
  }
  return false;
}

}  // namespace

size_t RunNanScanShare(ir::Graph &graph, const std::set<std::string> &builtin) {
  std::map<std::pair<int32_t, int32_t>, int32_t> first;  // tensor -> the first Conv checking it as X
  int64_t next_id = 1;
  size_t marked = 0;
  auto id_of = [&](int32_t node) {
    ir::Node &p = graph.nodes[static_cast<size_t>(node)];
    if (!p.attrs.count(kNanScanIdAttr)) SetInt(p, kNanScanIdAttr, next_id++);
    return p.attrs.at(kNanScanIdAttr).i;
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    ir::Node &n = graph.nodes[i];
    if (!ChecksInputs(builtin, n)) continue;
    const ir::Endpoint x = n.inputs[0];
    auto seen = first.find({x.node, x.index});
    if (seen != first.end()) {
      SetInt(n, kXScanFromAttr, id_of(seen->second));
      LogInfo("pass " + std::string(kNanScanShare) + ": Conv '" + n.name + "' takes the non-finite check of its X from '" +
              graph.nodes[static_cast<size_t>(seen->second)].name + "'");
      ++marked;
    } else {
      first[{x.node, x.index}] = static_cast<int32_t>(i);
    }
    if (n.inputs.size() > 3 && n.inputs[3].connected()) {
      auto add = first.find({n.inputs[3].node, n.inputs[3].index});
      if (add != first.end()) {
        SetInt(n, kAddendScanFromAttr, id_of(add->second));
        LogInfo("pass " + std::string(kNanScanShare) + ": Conv '" + n.name +
                "' takes the non-finite check of its addend from '" +
                graph.nodes[static_cast<size_t>(add->second)].name + "'");
        ++marked;
      }
    }
  }
  return marked;
}

}  // namespace openatc::compiler::passes
