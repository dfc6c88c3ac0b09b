/**
 * @file exe_graph/runtime/op_compile_context.h
 * gert::OpCompileContext: what CompilableOp::Compile sees (GE
 * `exe_graph/runtime/op_compile_context.h`). Tensors carry shapes, dtypes and formats after
 * inference, with a null address and size 0. GetOption answers ATC options by their `ge.*` key;
 * GetPlatformInfos describes the --soc_version target (host: NpuArch "host").
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_OP_COMPILE_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_OP_COMPILE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/tensor.h"
#include "platform/platform_infos_def.h"

namespace gert {
class OpCompileContext : public ExtendedKernelContext {
 public:
  const Tensor *GetInputTensor(size_t index) const { return InputTensor(index); }
  const Tensor *GetRequiredInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 0); }
  const Tensor *GetOptionalInputTensor(size_t ir_index) const { return IrInputTensor(ir_index, 0, 1); }
  const Tensor *GetDynamicInputTensor(size_t ir_index, size_t relative_index) const {
    return IrInputTensor(ir_index, relative_index, 2);
  }
  const Tensor *GetOutputTensor(size_t index) const { return OutputTensor(index); }
  const Tensor *GetRequiredOutputTensor(size_t ir_index) const { return IrOutputTensor(ir_index, 0); }
  const Tensor *GetDynamicOutputTensor(size_t ir_index, size_t relative_index) const {
    return IrOutputTensor(ir_index, relative_index);
  }
  /// GRAPH_SUCCESS and the value, or GRAPH_FAILED when nobody set `option_key`.
  ge::graphStatus GetOption(const ge::AscendString &option_key, ge::AscendString &option) const;
  ge::graphStatus GetPlatformInfos(fe::PlatFormInfos &platform_info, fe::OptionalInfos &optional_infos) const;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_OP_COMPILE_CONTEXT_H_
