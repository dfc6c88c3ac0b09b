// gert::ExtendedKernelContext and ComputeNodeInfo: reads of the node facts held in the Frame.
#include "openatc/gert/frame.h"

namespace gert {
using openatc::gert_impl::Frame;
using openatc::gert_impl::NodeInfo;

namespace {
const NodeInfo *Node(const Frame *f) { return f == nullptr ? nullptr : f->node; }

const AnchorInstanceInfo *At(const std::vector<AnchorInstanceInfo> &v, size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}
template <typename T>
const T *AtPtr(const std::vector<T> &v, size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}

// Flattened index of instance `rel` of IR input `ir`, or SIZE_MAX. kind: 0 required (exactly one
// instance), 1 optional (0 or 1), 2 dynamic (any).
size_t Flatten(const std::vector<AnchorInstanceInfo> &ir, size_t ir_index, size_t rel, int kind) {
  if (ir_index >= ir.size()) return SIZE_MAX;
  const AnchorInstanceInfo &a = ir[ir_index];
  if (rel >= a.GetInstanceNum()) return SIZE_MAX;
  if (kind != 2 && rel != 0) return SIZE_MAX;
  return a.GetInstanceStart() + rel;
}
}  // namespace

const CompileTimeTensorDesc *ExtendedKernelContext::GetInputDesc(const size_t index) const {
  const NodeInfo *n = Node(frame_);
  return n ? AtPtr(n->input_descs, index) : nullptr;
}
const CompileTimeTensorDesc *ExtendedKernelContext::GetOptionalInputDesc(const size_t ir_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? GetInputDesc(Flatten(n->ir_inputs, ir_index, 0, 1)) : nullptr;
}
const CompileTimeTensorDesc *ExtendedKernelContext::GetRequiredInputDesc(const size_t ir_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? GetInputDesc(Flatten(n->ir_inputs, ir_index, 0, 0)) : nullptr;
}
const CompileTimeTensorDesc *ExtendedKernelContext::GetDynamicInputDesc(const size_t ir_index,
                                                                        const size_t relative_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? GetInputDesc(Flatten(n->ir_inputs, ir_index, relative_index, 2)) : nullptr;
}
const CompileTimeTensorDesc *ExtendedKernelContext::GetOutputDesc(const size_t index) const {
  const NodeInfo *n = Node(frame_);
  return n ? AtPtr(n->output_descs, index) : nullptr;
}
const AnchorInstanceInfo *ExtendedKernelContext::GetIrInputInstanceInfo(const size_t ir_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? At(n->ir_inputs, ir_index) : nullptr;
}
const AnchorInstanceInfo *ExtendedKernelContext::GetIrOutputInstanceInfo(const size_t ir_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? At(n->ir_outputs, ir_index) : nullptr;
}
size_t ExtendedKernelContext::GetComputeNodeInputNum() const {
  const NodeInfo *n = Node(frame_);
  return n ? n->input_descs.size() : 0;
}
size_t ExtendedKernelContext::GetComputeNodeOutputNum() const {
  const NodeInfo *n = Node(frame_);
  return n ? n->output_descs.size() : 0;
}
const RuntimeAttrs *ExtendedKernelContext::GetAttrs() const {
  const NodeInfo *n = Node(frame_);
  return n ? n->attrs.view() : nullptr;
}
const ge::char_t *ExtendedKernelContext::GetNodeType() const {
  const NodeInfo *n = Node(frame_);
  return n ? n->type.c_str() : "";
}
const ge::char_t *ExtendedKernelContext::GetNodeName() const {
  const NodeInfo *n = Node(frame_);
  return n ? n->name.c_str() : "";
}
const ComputeNodeInfo *ExtendedKernelContext::GetComputeNodeInfo() const {
  const NodeInfo *n = Node(frame_);
  return n ? &n->compute_node_info : nullptr;
}
const ge::char_t *ExtendedKernelContext::GetKernelName() const { return GetNodeName(); }
const ge::char_t *ExtendedKernelContext::GetKernelType() const { return GetNodeType(); }

const Tensor *ExtendedKernelContext::InputTensor(size_t index) const {
  if (frame_ == nullptr || index >= frame_->inputs.size()) return nullptr;
  return frame_->inputs[index];
}
const Tensor *ExtendedKernelContext::IrInputTensor(size_t ir_index, size_t relative_index, int kind) const {
  const NodeInfo *n = Node(frame_);
  return n ? InputTensor(Flatten(n->ir_inputs, ir_index, relative_index, kind)) : nullptr;
}
Tensor *ExtendedKernelContext::OutputTensor(size_t index) const {
  if (frame_ == nullptr || index >= frame_->outputs.size()) return nullptr;
  return frame_->outputs[index];
}
Tensor *ExtendedKernelContext::IrOutputTensor(size_t ir_index, size_t relative_index) const {
  const NodeInfo *n = Node(frame_);
  return n ? OutputTensor(Flatten(n->ir_outputs, ir_index, relative_index, 2)) : nullptr;
}

// ComputeNodeInfo
const ge::char_t *ComputeNodeInfo::GetNodeType() const { return node_ ? node_->type.c_str() : ""; }
const ge::char_t *ComputeNodeInfo::GetNodeName() const { return node_ ? node_->name.c_str() : ""; }
size_t ComputeNodeInfo::GetIrInputsNum() const { return node_ ? node_->ir_inputs.size() : 0; }
size_t ComputeNodeInfo::GetIrOutputsNum() const { return node_ ? node_->ir_outputs.size() : 0; }
size_t ComputeNodeInfo::GetInputsNum() const { return node_ ? node_->input_descs.size() : 0; }
size_t ComputeNodeInfo::GetOutputsNum() const { return node_ ? node_->output_descs.size() : 0; }
const AnchorInstanceInfo *ComputeNodeInfo::GetInputInstanceInfo(const size_t ir_index) const {
  return node_ ? At(node_->ir_inputs, ir_index) : nullptr;
}
const AnchorInstanceInfo *ComputeNodeInfo::GetOutputInstanceInfo(const size_t ir_index) const {
  return node_ ? At(node_->ir_outputs, ir_index) : nullptr;
}
const CompileTimeTensorDesc *ComputeNodeInfo::GetInputTdInfo(const size_t index) const {
  return node_ ? AtPtr(node_->input_descs, index) : nullptr;
}
const CompileTimeTensorDesc *ComputeNodeInfo::GetOutputTdInfo(const size_t index) const {
  return node_ ? AtPtr(node_->output_descs, index) : nullptr;
}
const RuntimeAttrs *ComputeNodeInfo::GetAttrs() const { return node_ ? node_->attrs.view() : nullptr; }

}  // namespace gert

namespace openatc::gert_impl {
NodeInfo::NodeInfo() { compute_node_info.node_ = this; }
}  // namespace openatc::gert_impl
