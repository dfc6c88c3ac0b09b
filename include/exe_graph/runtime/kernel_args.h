/**
 * @file exe_graph/runtime/kernel_args.h
 * gert::KernelArgs: one registered kernel args block (GE `exe_graph/runtime/kernel_args.h`).
 * Returned by EagerOpExecutionContext::MallocReadOnlyDevArgs (device copy) and
 * UpdateArgsContext::GetKernelArgs (host or device copy).
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_KERNEL_ARGS_H_
#define OPENATC_EXE_GRAPH_RUNTIME_KERNEL_ARGS_H_

#include <cstddef>
#include <cstdint>

#include "graph/types.h"

namespace gert {
using Placement = ge::Placement;

struct KernelArgs {
  KernelArgs() : args_data(nullptr), args_size(0U), reserved{0U, 0U, 0U, 0U}, placement(ge::kPlacementHost),
                 placement_reserved_{0U, 0U, 0U, 0U} {}
  void *args_data;
  size_t args_size;
  uint64_t reserved[4];
  Placement placement;
  uint8_t placement_reserved_[4];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_KERNEL_ARGS_H_
