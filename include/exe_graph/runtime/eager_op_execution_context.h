/**
 * @file exe_graph/runtime/eager_op_execution_context.h
 * gert::EagerOpExecutionContext: what EagerExecuteOp::Execute sees (GE
 * `exe_graph/runtime/eager_op_execution_context.h`). Addresses are host addresses of the host
 * runtime's memory; GetStream() is an aclrtStream.
 *
 * MallocOutputTensor writes shape/format/dtype into output `index` and returns its memory: the
 * planned buffer when the output has one (GE does not compare the requested shape with the plan),
 * else a fresh allocation of shape size x dtype size rounded up to 512 bytes, owned by the
 * runtime. MallocWorkSpace returns scratch memory (512-byte rounded) freed after the node.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_EAGER_OP_EXECUTION_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_EAGER_OP_EXECUTION_CONTEXT_H_

#include <cstdint>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/kernel_args.h"
#include "graph/tensor.h"

namespace gert {
using rtStream = void *;

class EagerOpExecutionContext : public ExtendedKernelContext {
 public:
  enum class AdditionalInputIndex : uint32_t { kDeviceAllocator = 0, kStream, kNum };
  enum class AdditionalOutputIndex : uint32_t { kWorkSpace = 0, kArgsHandler, kNum };

  rtStream GetStream() const;
  const Tensor *GetInputTensor(size_t index) const { return InputTensor(index); }
  const Tensor *GetRequiredInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 0); }
  const Tensor *GetOptionalInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 1); }
  const Tensor *GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return IrInputTensor(ir_index, relative_index, 2);
  }
  /// nullptr on failure (bad index, allocation failure, or an output that must use
  /// MakeOutputRefInput); the reason is logged.
  Tensor *MallocOutputTensor(size_t index, const StorageShape &shape, const StorageFormat &format,
                             ge::DataType dtype);
  /// Output `output_index` aliases input `input_index` (descriptor copied, data shared, no copy).
  Tensor *MakeOutputRefInput(size_t output_index, size_t input_index) const;
  void *MallocWorkSpace(size_t size);
  const Tensor *GetOutputTensor(size_t index) const { return OutputTensor(index); }
  /// Registers an args block; the returned args_data is the runtime's read-only copy. The call
  /// order is the index UpdateArgsContext::GetKernelArgs uses.
  const KernelArgs *MallocReadOnlyDevArgs(void *host_args, size_t args_size) const;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_EAGER_OP_EXECUTION_CONTEXT_H_
