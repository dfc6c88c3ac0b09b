/**
 * @file exe_graph/runtime/update_args_context.h
 * gert::UpdateArgsContext: what ArgsUpdater::UpdateHostArgs sees (GE
 * `exe_graph/runtime/update_args_context.h`). Every EagerOpExecutionContext getter already
 * carries the new input/output addresses; patch the host args with GetKernelArgs(kPlacementHost, i).
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_UPDATE_ARGS_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_UPDATE_ARGS_CONTEXT_H_

#include "exe_graph/runtime/eager_op_execution_context.h"

namespace gert {
class UpdateArgsContext : public EagerOpExecutionContext {
 public:
  /// `index` = order of MallocReadOnlyDevArgs calls; nullptr when out of range.
  const KernelArgs *GetKernelArgs(Placement placement, size_t index) const;
};
static_assert(sizeof(UpdateArgsContext) == sizeof(EagerOpExecutionContext), "contexts add no data");
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_UPDATE_ARGS_CONTEXT_H_
