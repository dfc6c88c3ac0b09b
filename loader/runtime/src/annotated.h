// Launching AnnotatedArgsOp nodes from their compile-time declarations (internal to the
// runtime): no op callback runs; each launch's 8-byte slots are filled with the real input,
// output and workspace addresses of this run (docs/custom-op-lifecycle.md §5.2, §10).
#ifndef OPENATC_RUNTIME_ANNOTATED_H_
#define OPENATC_RUNTIME_ANNOTATED_H_

#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "exec_services.h"
#include "openatc/gert/frame.h"
#include "openatc/ir/graph.h"

namespace openatc::runtime {

struct AnnotatedLaunch {
  std::string kernel_name;
  aclrtFuncHandle func = nullptr;
  uint32_t block_dim = 0;
  struct Slot {
    uint32_t type;  ///< ge::AddrType: INPUT_INSTANCE, OUTPUT_INSTANCE, WORKSPACE, CUSTOM_VALUE
    int32_t index;
    uint64_t value;
  };
  std::vector<Slot> slots;
};

struct AnnotatedNode {
  std::vector<AnnotatedLaunch> launches;
  std::vector<std::unique_ptr<HostBuffer>> workspaces;  ///< model-owned
};

/// Loads the kernels of the node's declared launches (NodePlan::launches) and allocates its
/// workspaces; nullptr when the node has none. Throws openatc::Error (kCorruptOm, OA2109) for a
/// kernel that does not load.
std::unique_ptr<AnnotatedNode> LoadAnnotated(const ir::Node &node, const std::string &path);

/// Launches the node's declared kernels with this frame's addresses on `stream` and waits.
void LaunchAnnotated(const AnnotatedNode &a, const gert_impl::Frame &frame, void *stream);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_ANNOTATED_H_
