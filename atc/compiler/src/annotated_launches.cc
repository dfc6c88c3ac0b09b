// DeclareLaunchArgs at compile time and the serialisation of its launch records.
#include "annotated_launches.h"

#include <cstring>
#include <deque>

#include "graph/utils/args_format_desc_utils.h"
#include "openatc/common/error.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/frame.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/opp/call_guard.h"
#include "openatc/opp/capabilities.h"

namespace openatc::compiler {
namespace {

// Logical addresses handed to DeclareLaunchArgs: distinct, non-null, never dereferenced.
constexpr uintptr_t kLogicalBase = 0x10000000;

class AnnotatedServices : public gert_impl::Services {
 public:
  gert::WorkspaceAddr AnnotatedMallocWorkSpace(gert_impl::Frame &, size_t size) override {
    const uint32_t index = static_cast<uint32_t>(workspaces.size());
    workspaces.push_back(static_cast<int64_t>(size));
    return {index, reinterpret_cast<const void *>(kLogicalBase + 0x8000000 + index * 0x100000)};
  }
  uint32_t GetStreamId(gert_impl::Frame &) override { return 0; }
  ge::graphStatus AddLaunch(gert_impl::Frame &, const gert::AnnotatedKernelLaunchInfo &info,
                            gert::AnnotatedKernelArgs &&args) override {
    std::vector<uint8_t> data;
    std::vector<ge::ArgDesc> descs;
    if (args.ExtractArgsData(data, descs) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    ir::DeclaredLaunch l;
    l.kernel_name = info.kernel_name;
    l.binary = ir::Bytes::Copy(info.kernel_bin, info.kernel_bin_size);
    l.block_dim = info.block_dim;
    for (size_t i = 0; i < descs.size(); ++i) {
      ir::LaunchSlot slot;
      slot.addr_type = static_cast<uint32_t>(descs[i].addr_type);
      slot.index = static_cast<int32_t>(descs[i].ir_idx);
      std::memcpy(&slot.value, data.data() + i * 8, 8);
      l.slots.push_back(slot);
    }
    launches.push_back(std::move(l));
    return ge::GRAPH_SUCCESS;
  }

  std::vector<ir::DeclaredLaunch> launches;
  std::vector<int64_t> workspaces;
};

}  // namespace

void DeclareAnnotatedLaunches(ir::Graph &graph, const std::map<std::string, OpTypeInfo> &types, bool static_plan) {
  for (const auto &[type, info] : types) {
    if (!(info.capabilities & opp::kAnnotatedArgs) || (info.capabilities & opp::kArgsUpdater)) continue;
    std::string why;
    auto op = gert_impl::CustomOpRegistry::Global().GetOrCreate(type, &why);
    auto *annotated = dynamic_cast<ge::AnnotatedArgsOp *>(op.get());
    for (size_t idx : info.nodes) {
      ir::Node &node = graph.nodes[idx];
      if (!static_plan) {
        throw Error(ErrorCategory::kGraph, "OA1110",
                    "an AnnotatedArgsOp needs a static graph (launches are declared against the memory plan), but "
                    "this graph has run-time shapes",
                    "Fix the input shapes with --input_shape, or give the op an EagerExecuteOp")
            .WithNode(node.name, node.type);
      }
      auto node_info = gert_impl::BuildNodeInfo(node);
      std::deque<gert::Tensor> tensors;
      gert_impl::Frame frame;
      frame.node = node_info.get();
      uintptr_t next = kLogicalBase;
      for (size_t anchor : node_info->input_anchor) {
        tensors.emplace_back();
        gert_impl::InitTensor(tensors.back(), node.input_descs[anchor], reinterpret_cast<void *>(next += 0x100000), 0);
        frame.inputs.push_back(&tensors.back());
      }
      for (const auto &d : node.output_descs) {
        tensors.emplace_back();
        gert_impl::InitTensor(tensors.back(), d, reinterpret_cast<void *>(next += 0x100000), 0);
        frame.outputs.push_back(&tensors.back());
      }
      AnnotatedServices services;
      frame.services = &services;
      auto ctx = gert_impl::ContextAccess::Make<gert::AnnotatedArgsContext>(&frame);
      opp::GuardedCall({node.name, node.type, "DeclareLaunchArgs", info.origin},
                       [&] { return annotated->DeclareLaunchArgs(*ctx); });
      if (services.launches.empty()) {
        throw Error(ErrorCategory::kCustomOp, "OA1404", "DeclareLaunchArgs added no launch",
                    "Call ctx.AddLaunch for every kernel the op runs")
            .WithNode(node.name, node.type);
      }
      node.plan.launches = std::move(services.launches);
      node.plan.workspace_bytes = std::move(services.workspaces);
    }
  }
}

}  // namespace openatc::compiler
