// WeightPrepackPass (passes.h): packed copies of built-in ops' constant inputs into the OM
// (openatc/weight_packing.h; README "omrun", what is packed and when), through the op compile
// cache when it is on (weight_cache.h).
#include <mutex>
#include <set>
#include <string>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/node_frame.h"
#include "openatc/opp/call_guard.h"
#include "openatc/weight_packing.h"
#include "passes.h"
#include "weight_cache.h"

namespace openatc::compiler::passes {
namespace {

// Collects one node's copies; `input` is the op's flattened index, stored as the node's anchor.
class Collector : public openatc::PackedWeightSink {
 public:
  Collector(const gert_impl::NodeInfo &info, ir::Node &node) : info_(info), node_(node) {}
  void Add(int32_t input, const char *isa, const char *layout, const void *data, size_t size) override {
    if (input < 0 || static_cast<size_t>(input) >= info_.input_anchor.size() || data == nullptr || size == 0) {
      bad_ = "PackWeights gave a copy of input " + std::to_string(input) + " that the node does not have, or no bytes";
      return;
    }
    ir::PackedWeight pw;
    pw.input = static_cast<int32_t>(info_.input_anchor[static_cast<size_t>(input)]);
    pw.isa = isa != nullptr ? isa : "";
    pw.layout = layout != nullptr ? layout : "";
    pw.data = ir::Bytes::Copy(data, size);
    node_.packed_weights.push_back(std::move(pw));
  }
  const std::string &bad() const { return bad_; }

 private:
  const gert_impl::NodeInfo &info_;
  ir::Node &node_;
  std::string bad_;
};

// A copy of `op`'s PackingEnvironment() text. The op's pointer is valid only until the next call
// on the object, and one object serves every compile in the process (the registry's instance):
// compiles on several threads (an embedding program, the op tests) call it one at a time here
// and keep their own copy, also across the PackWeights call that follows.
std::string EnvironmentOf(openatc::WeightPackingOp &op) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  const char *text = op.PackingEnvironment();
  return text != nullptr ? text : "";
}

}  // namespace

size_t RunWeightPrepack(ir::Graph &graph, const std::set<std::string> &builtin, WeightCache &cache) {
  auto &registry = gert_impl::CustomOpRegistry::Global();
  size_t stored = 0;
  for (ir::Node &node : graph.nodes) {
    node.packed_weights.clear();
    if (builtin.count(node.type) == 0) continue;
    auto op = registry.GetOrCreate(node.type);
    auto *packing = dynamic_cast<openatc::WeightPackingOp *>(op.get());
    if (packing == nullptr) continue;
    cache.Pack(graph, node, EnvironmentOf(*packing), [&] {
      gert_impl::NodeFrame nf(node, [&](size_t a) { return gert_impl::ConstAnchorData(graph, node, a); },
                              gert::kOnHost);
      gert_impl::Services services;  // nothing to allocate: every request fails cleanly
      nf.frame.services = &services;
      auto ctx = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&nf.frame);
      Collector sink(nf.info(), node);
      opp::GuardedCall({node.name, node.type, "PackWeights", registry.Origin(node.type)},
                       [&] { return packing->PackWeights(ctx.get(), sink); });
      if (!sink.bad().empty())
        throw Error(ErrorCategory::kInternal, "OA1112", sink.bad(),
                    "Switch WeightPrepackPass off (--fusion_switch_file) and report the op")
            .WithNode(node.name, node.type);
    });
    for (const auto &pw : node.packed_weights) {
      LogInfo("pass " + std::string(kWeightPrepack) + ": '" + node.name + "' input " + std::to_string(pw.input) +
              " packed for " + pw.isa + " (" + std::to_string(pw.data.size) + " bytes)");
      ++stored;
    }
  }
  return stored;
}

}  // namespace openatc::compiler::passes
