// Parsing and launching AnnotatedArgsOp launch records.
#include "annotated.h"

#include "graph/utils/args_format_desc_utils.h"
#include "openatc/common/error.h"

namespace openatc::runtime {

std::unique_ptr<AnnotatedNode> LoadAnnotated(const ir::Node &node, const std::string &path) {
  if (node.plan.launches.empty()) return nullptr;
  auto a = std::make_unique<AnnotatedNode>();
  for (const ir::DeclaredLaunch &d : node.plan.launches) {
    AnnotatedLaunch l;
    l.kernel_name = d.kernel_name;
    l.block_dim = d.block_dim;
    for (const ir::LaunchSlot &s : d.slots) l.slots.push_back({s.addr_type, s.index, s.value});
    aclrtBinHandle handle = nullptr;
    if (aclrtBinaryLoadFromData(d.binary.data, d.binary.size, nullptr, &handle) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(handle, l.kernel_name.c_str(), &l.func) != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCorruptOm, "OA2109",
                  "the declared kernel '" + l.kernel_name + "' does not load: " + aclGetRecentErrMsg(),
                  "Rebuild the OM with atc")
          .WithFile(path)
          .WithNode(node.name, node.type);
    }
    a->launches.push_back(std::move(l));
  }
  // Sizes were bounds-checked by the OM reader (om_format/ERRORS.md, OA2025).
  for (int64_t size : node.plan.workspace_bytes) {
    const size_t bytes = static_cast<size_t>(size);
    a->workspaces.push_back(std::make_unique<HostBuffer>(
        bytes, bytes,
        "workspace " + std::to_string(a->workspaces.size()) + " of node '" + node.name + "' (" + std::to_string(bytes) +
            " bytes)"));
  }
  return a;
}

void LaunchAnnotated(const AnnotatedNode &a, const gert_impl::Frame &frame, void *stream) {
  for (const auto &l : a.launches) {
    std::vector<uint64_t> slots;
    for (const auto &s : l.slots) {
      const void *addr = nullptr;
      switch (static_cast<ge::AddrType>(s.type)) {
        case ge::AddrType::INPUT_INSTANCE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= frame.inputs.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "input slot index out of range");
          addr = frame.inputs[static_cast<size_t>(s.index)]->GetAddr();
          break;
        case ge::AddrType::OUTPUT_INSTANCE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= frame.outputs.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "output slot index out of range");
          addr = frame.outputs[static_cast<size_t>(s.index)]->GetAddr();
          break;
        case ge::AddrType::WORKSPACE:
          if (s.index < 0 || static_cast<size_t>(s.index) >= a.workspaces.size()) throw Error(ErrorCategory::kCorruptOm, "OA2108", "workspace slot index out of range");
          addr = a.workspaces[static_cast<size_t>(s.index)]->data();
          break;
        case ge::AddrType::CUSTOM_VALUE:
          slots.push_back(s.value);
          continue;
        default:
          throw Error(ErrorCategory::kCorruptOm, "OA2108", "unknown slot type " + std::to_string(s.type));
      }
      slots.push_back(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(addr)));
    }
    if (aclrtLaunchKernelV2(l.func, l.block_dim, slots.data(), slots.size() * 8, nullptr, stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCustomOp, "OA2205",
                  "launching declared kernel '" + l.kernel_name + "' failed: " + aclGetRecentErrMsg());
    }
  }
}

}  // namespace openatc::runtime
