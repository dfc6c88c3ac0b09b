/**
 * @file exe_graph/runtime/extended_kernel_context.h
 * gert::ExtendedKernelContext: the base of every context a custom-op callback receives
 * (GE metadef `exe_graph/runtime/extended_kernel_context.h`): node name and type, compile-time
 * descriptors, IR-to-flattened index maps and attributes. All derived contexts add no data.
 *
 * Contexts are created by the OpenATC compiler/runtime only, live for one callback, and must not
 * be stored. Index arguments out of range return nullptr (never crash).
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_

#include <cstddef>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "graph/types.h"

namespace openatc::gert_impl {
struct Frame;
struct ContextAccess;
}

namespace gert {
/// Opaque kernel extension info (internal to GE; always nullptr here).
struct KernelExtendInfo;

class ExtendedKernelContext {
 public:
  const CompileTimeTensorDesc *GetInputDesc(const size_t index) const;
  const CompileTimeTensorDesc *GetOptionalInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc *GetRequiredInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc *GetDynamicInputDesc(const size_t ir_index, const size_t relative_index) const;
  const CompileTimeTensorDesc *GetOutputDesc(const size_t index) const;
  const AnchorInstanceInfo *GetIrInputInstanceInfo(const size_t ir_index) const;
  const AnchorInstanceInfo *GetIrOutputInstanceInfo(const size_t ir_index) const;
  size_t GetComputeNodeInputNum() const;
  size_t GetComputeNodeOutputNum() const;
  const RuntimeAttrs *GetAttrs() const;
  const ge::char_t *GetNodeType() const;
  const ge::char_t *GetNodeName() const;
  const ComputeNodeInfo *GetComputeNodeInfo() const;
  /// OpenATC runs host kernels directly: the kernel name is the node name, the type the op type.
  const ge::char_t *GetKernelName() const;
  const ge::char_t *GetKernelType() const;
  const KernelExtendInfo *GetExtendInfo() const { return nullptr; }

  ExtendedKernelContext(const ExtendedKernelContext &) = delete;
  ExtendedKernelContext &operator=(const ExtendedKernelContext &) = delete;

 protected:
  ExtendedKernelContext() = default;
  ~ExtendedKernelContext() = default;
  /// Flattened input tensor i (nullptr past the end).
  const Tensor *InputTensor(size_t index) const;
  const Tensor *IrInputTensor(size_t ir_index, size_t relative_index, int kind) const;
  Tensor *OutputTensor(size_t index) const;
  Tensor *IrOutputTensor(size_t ir_index, size_t relative_index) const;

 private:
  friend struct openatc::gert_impl::ContextAccess;
  openatc::gert_impl::Frame *frame_ = nullptr;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
