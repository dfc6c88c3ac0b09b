// NanScanSharePass: not a rewrite. Gives every tensor a built-in float32 Conv reads (X, the fused
// addend) or writes an id, and tells each Conv whether a node before it records that tensor's
// bound on every run (openatc/nan_scan_share.h: the attributes, the run-time protocol and why it
// is sound). Runs on the final graph, after the precision passes, so that no later pass reorders
// nodes.
#include <map>
#include <set>
#include <utility>

#include "openatc/common/log.h"
#include "openatc/nan_scan_share.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

using Tensor = std::pair<int32_t, int32_t>;  // (node, output index)

// A built-in Conv with float32 X and Y: the run time bounds its tensors.
bool Bounds(const std::set<std::string> &builtin, const ir::Node &n) {
  return n.type == "Conv" && builtin.count(n.type) && !n.inputs.empty() && n.inputs[0].connected() &&
         !n.input_descs.empty() && n.input_descs[0].dtype == ge::DT_FLOAT && !n.output_descs.empty() &&
         n.output_descs[0].dtype == ge::DT_FLOAT;
}

// Whether the Conv's post-op chain holds a NaN-losing post-op (it then reads its inputs).
bool DropsNaN(const ir::Node &n) {
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
  std::map<Tensor, int64_t> ids;
  std::set<Tensor> recorded;  // tensors a node before the current one records on every run
  auto id_of = [&](Tensor t) {
    auto it = ids.find(t);
    if (it == ids.end()) it = ids.emplace(t, static_cast<int64_t>(ids.size()) + 1).first;
    return it->second;
  };
  size_t shared = 0;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    ir::Node &n = graph.nodes[i];
    if (!Bounds(builtin, n)) continue;
    const bool reads = DropsNaN(n);
    for (const auto &[slot, attr] : {std::pair<size_t, const char *>{0, kXBoundIdAttr}, {3, kAddendBoundIdAttr}}) {
      if (slot >= n.inputs.size() || !n.inputs[slot].connected()) continue;
      const Tensor t{n.inputs[slot].node, n.inputs[slot].index};
      if (recorded.count(t)) {
        SetInt(n, attr, id_of(t));
        LogInfo("pass " + std::string(kNanScanShare) + ": Conv '" + n.name + "' takes the bound of its " +
                (slot == 0 ? "X" : "addend") + " from an earlier node");
        ++shared;
      } else if (reads) {
        SetInt(n, attr, -id_of(t));
        recorded.insert(t);
      }
    }
    SetInt(n, kYBoundIdAttr, id_of({static_cast<int32_t>(i), 0}));
    recorded.insert({static_cast<int32_t>(i), 0});
  }
  return shared;
}

}  // namespace openatc::compiler::passes
