/**
 * @file exe_graph/runtime/annotated_args_context.h
 * gert::AnnotatedArgsContext and helpers: what AnnotatedArgsOp::DeclareLaunchArgs sees (GE 9.2.0
 * `exe_graph/runtime/annotated_args_context.h`). Tensors carry logical addresses; each AddLaunch
 * records one kernel launch whose 8-byte argument slots are tagged input / output / workspace /
 * constant, so the runtime can fill real addresses on every run without calling the op.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_ANNOTATED_ARGS_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_ANNOTATED_ARGS_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/error_codes.h"
#include "graph/tensor.h"

namespace ge {
struct ArgDesc;
}

namespace gert {
struct InputAddr {
  uint32_t index;
  const void *addr;
};
struct OutputAddr {
  uint32_t index;
  const void *addr;
};
struct WorkspaceAddr {
  uint32_t index;
  const void *addr;
};

struct AnnotatedKernelLaunchInfo {
  const char *kernel_name = nullptr;
  const void *kernel_bin = nullptr;
  size_t kernel_bin_size = 0U;
  uint32_t block_dim = 0U;
  uint32_t stream_id = 0U;
};

/// The argument slots of one launch, in kernel parameter order; every slot is 8 bytes.
/// Errors are sticky: after a failed AppendArg every later call fails.
class AnnotatedKernelArgs {
 public:
  AnnotatedKernelArgs();
  template <typename Arg, typename... Args,
            typename = typename std::enable_if<!std::is_same<typename std::decay<Arg>::type, AnnotatedKernelArgs>::value>::type>
  explicit AnnotatedKernelArgs(Arg &&arg, Args &&...args) : AnnotatedKernelArgs() {
    AppendAll(std::forward<Arg>(arg), std::forward<Args>(args)...);
  }
  AnnotatedKernelArgs(const AnnotatedKernelArgs &other);
  AnnotatedKernelArgs &operator=(const AnnotatedKernelArgs &other);
  AnnotatedKernelArgs(AnnotatedKernelArgs &&other) noexcept;
  AnnotatedKernelArgs &operator=(AnnotatedKernelArgs &&other) noexcept;
  ~AnnotatedKernelArgs();

  ge::graphStatus AppendArg(const InputAddr &input);
  ge::graphStatus AppendArg(const OutputAddr &output);
  ge::graphStatus AppendArg(const WorkspaceAddr &workspace);
  ge::graphStatus AppendArg(uint64_t value);
  /// args_data = slots x 8 bytes (logical addresses / values); one ArgDesc per slot.
  ge::graphStatus ExtractArgsData(std::vector<uint8_t> &args_data, std::vector<ge::ArgDesc> &arg_descs) const;

 private:
  void AppendAll() {}
  template <typename A, typename... Rest>
  void AppendAll(A &&a, Rest &&...rest) {
    if (AppendArg(std::forward<A>(a)) != ge::GRAPH_SUCCESS) return;
    AppendAll(std::forward<Rest>(rest)...);
  }
  void *impl_;
};

class AnnotatedArgsContext : public ExtendedKernelContext {
 public:
  /// {index, logical address}; index counts earlier reservations. size 0 fails (addr null).
  WorkspaceAddr MallocWorkSpace(size_t size);
  /// UINT32_MAX on error.
  uint32_t GetStreamId() const;
  ge::graphStatus AddLaunch(const AnnotatedKernelLaunchInfo &launch_info, AnnotatedKernelArgs &&args);
  const Tensor *GetInputTensor(size_t index) const { return InputTensor(index); }
  const Tensor *GetOutputTensor(size_t index) const { return OutputTensor(index); }
  const Tensor *GetRequiredInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 0); }
  const Tensor *GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return IrInputTensor(ir_index, relative_index, 2);
  }
  const Tensor *GetOptionalInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 1); }
  const Tensor *GetRequiredOutputTensor(size_t ir_index) const { return IrOutputTensor(ir_index, 0); }
  const Tensor *GetDynamicOutputTensor(size_t ir_index, size_t relative_index) const {
    return IrOutputTensor(ir_index, relative_index);
  }
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_ANNOTATED_ARGS_CONTEXT_H_
