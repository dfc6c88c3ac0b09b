/**
 * @file openatc/gert/frame.h
 * INTERNAL (not part of the SDK): the data behind every gert context. The compiler and the
 * runtime build one NodeInfo per node (immutable) and one Frame per callback invocation, then
 * hand the callback a context created by ContextAccess. Services are the operations a context
 * delegates to whoever drives the callback (compiler: options, platform, annotated launches;
 * executor: stream, output/workspace allocation, args).
 */
#ifndef OPENATC_GERT_FRAME_H_
#define OPENATC_GERT_FRAME_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/annotated_args_context.h"
#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/eager_op_execution_context.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/op_compile_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/update_args_context.h"
#include "openatc/ir/graph.h"

namespace openatc::gert_impl {

/// IR-ordered attribute values in the representation RuntimeAttrs documents.
class AttrTable {
 public:
  AttrTable();
  AttrTable(const AttrTable &) = delete;
  AttrTable &operator=(const AttrTable &) = delete;
  /// Appends one value (kNone appends a missing attribute: GetAttrPointer returns nullptr).
  void Append(const ir::AttrValue &value);
  size_t size() const { return slots_.size(); }
  const void *Get(size_t index) const;
  const gert::RuntimeAttrs *view() const { return &view_; }

 private:
  struct Slot {
    std::unique_ptr<uint8_t[]> block;   // scalars, strings, continuous vectors
    std::unique_ptr<gert::Tensor> tensor;
    std::shared_ptr<const void> keep;   // keeps tensor bytes alive
  };
  std::vector<Slot> slots_;
  gert::RuntimeAttrs view_;
};

/// Per-node facts shared by every callback on that node.
struct NodeInfo {
  NodeInfo();
  NodeInfo(const NodeInfo &) = delete;
  NodeInfo &operator=(const NodeInfo &) = delete;

  std::string name;
  std::string type;
  std::vector<gert::AnchorInstanceInfo> ir_inputs;   ///< IR input index -> flattened range
  std::vector<gert::AnchorInstanceInfo> ir_outputs;  ///< IR output index -> flattened range
  std::vector<gert::CompileTimeTensorDesc> input_descs;   ///< flattened
  std::vector<gert::CompileTimeTensorDesc> output_descs;  ///< flattened
  /// Flattened input index -> the ir::Node input anchor it comes from (absent optional inputs,
  /// i.e. unconnected anchors, have no flattened index).
  std::vector<size_t> input_anchor;
  std::vector<std::string> attr_names;  ///< IR attribute order (RuntimeAttrs index -> name)
  bool has_prototype = false;           ///< a REG_OP prototype was found for the type
  AttrTable attrs;
  gert::ComputeNodeInfo compute_node_info;
};

struct Frame;

/// Operations a context delegates to the driver of the callback. Defaults report "not available
/// in this phase" (nullptr / GRAPH_FAILED) so a callback that asks for something out of phase
/// gets a clean failure.
class Services {
 public:
  virtual ~Services() = default;
  virtual void *Stream(Frame &) { return nullptr; }
  virtual gert::Tensor *MallocOutputTensor(Frame &, size_t, const gert::StorageShape &, const gert::StorageFormat &,
                                           ge::DataType) { return nullptr; }
  virtual gert::Tensor *MakeOutputRefInput(Frame &, size_t, size_t) { return nullptr; }
  virtual void *MallocWorkSpace(Frame &, size_t) { return nullptr; }
  virtual const gert::KernelArgs *MallocReadOnlyDevArgs(Frame &, void *, size_t) { return nullptr; }
  virtual const gert::KernelArgs *GetKernelArgs(Frame &, ge::Placement, size_t) { return nullptr; }
  virtual bool GetOption(const std::string &, std::string *) { return false; }
  virtual ge::graphStatus GetPlatformInfos(fe::PlatFormInfos &, fe::OptionalInfos &) { return ge::GRAPH_FAILED; }
  virtual gert::WorkspaceAddr AnnotatedMallocWorkSpace(Frame &, size_t) { return {0U, nullptr}; }
  virtual uint32_t GetStreamId(Frame &) { return UINT32_MAX; }
  virtual ge::graphStatus AddLaunch(Frame &, const gert::AnnotatedKernelLaunchInfo &, gert::AnnotatedKernelArgs &&) {
    return ge::GRAPH_FAILED;
  }
};

/// One callback invocation's view: the node, its flattened input and output tensors, and the
/// services. Tensors are owned by the driver and outlive the callback.
struct Frame {
  const NodeInfo *node = nullptr;
  std::vector<gert::Tensor *> inputs;
  std::vector<gert::Tensor *> outputs;
  Services *services = nullptr;
  /// The node's WeightPackingOp::PrepareNode state (openatc/weight_packing.h), owned by the
  /// runtime; null elsewhere.
  void *node_state = nullptr;
};

/// Binds the context objects to their frames (the frame pointer is not public).
struct ContextAccess {
  /// A context of type Ctx bound to a frame, held in place (a context is one pointer: the run
  /// path makes several per node, and a heap allocation each cost more than the call).
  template <typename Ctx>
  class Bound {
   public:
    explicit Bound(Frame *frame) { static_cast<gert::ExtendedKernelContext &>(ctx_).frame_ = frame; }
    Bound(const Bound &) = delete;
    Bound &operator=(const Bound &) = delete;
    Ctx *get() { return &ctx_; }
    Ctx *operator->() { return &ctx_; }
    Ctx &operator*() { return ctx_; }

   private:
    static_assert(sizeof(Ctx) == sizeof(gert::ExtendedKernelContext), "contexts add no data");
    Ctx ctx_;
  };
  template <typename Ctx>
  static Bound<Ctx> Make(Frame *frame) {
    return Bound<Ctx>(frame);
  }
  static Frame *Get(const gert::ExtendedKernelContext *ctx) { return ctx->frame_; }
};

/// Builds the GE-style IR mapping for `node`: with a REG_OP prototype, IR inputs/outputs/attrs in
/// prototype order (dynamic inputs expanded from the node's anchor names or counts, absent optional
/// inputs with 0 instances); without one, each anchor is its own required IR input/output and attrs
/// are the node's non-internal attrs in name order. Throws openatc::Error (kGraph) when the node
/// has more inputs than the prototype declares or misses a REQUIRED_ATTR.
std::unique_ptr<NodeInfo> BuildNodeInfo(const ir::Node &node);

}  // namespace openatc::gert_impl

#endif  // OPENATC_GERT_FRAME_H_
