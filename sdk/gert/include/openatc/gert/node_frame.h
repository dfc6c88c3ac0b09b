/**
 * @file openatc/gert/node_frame.h
 * INTERNAL: a Frame that owns everything one callback invocation on an ir::Node needs (its
 * NodeInfo and its input/output gert::Tensors), and the one way an output tensor is bound to
 * memory that a Services::MallocOutputTensor returns. Shared by whoever drives callbacks outside
 * the runtime's executor (the compiler's shape inference and constant folding).
 */
#ifndef OPENATC_GERT_NODE_FRAME_H_
#define OPENATC_GERT_NODE_FRAME_H_

#include <deque>
#include <functional>
#include <memory>

#include "openatc/gert/frame.h"
#include "openatc/gert/tensor_convert.h"

namespace openatc::gert_impl {

/// Data of one connected input anchor: host address and size in bytes (nullptr/0 = no data).
struct AnchorData {
  void *addr = nullptr;
  size_t size = 0;
};

/// The bytes of input anchor `anchor` of `node` when a Const/Constant of `graph` feeds it (what
/// callbacks that see constant inputs get: openatc/weight_packing.h), else no data.
inline AnchorData ConstAnchorData(const ir::Graph &graph, const ir::Node &node, size_t anchor) {
  const ir::Endpoint &e = node.inputs[anchor];
  if (!e.connected() || e.node < 0 || static_cast<size_t>(e.node) >= graph.nodes.size()) return {};
  const ir::Node &p = graph.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return {};
  auto it = p.attrs.find("value");
  if (it == p.attrs.end() || it->second.kind != ir::AttrKind::kTensor || !it->second.t) return {};
  return {const_cast<uint8_t *>(it->second.t->data.data), it->second.t->data.size};
}

/// One callback invocation's frame for `node`: NodeInfo from BuildNodeInfo (throws its
/// openatc::Error), one input tensor per flattened input (desc = node.input_descs[anchor], data
/// from `input_data(anchor)`, placement `input_placement`), one output tensor per output desc with
/// no memory. `services` is left null for the caller to set. Not copyable (the frame points into
/// the object).
class NodeFrame {
 public:
  NodeFrame(const ir::Node &node, const std::function<AnchorData(size_t anchor)> &input_data,
            gert::TensorPlacement input_placement)
      : info_(BuildNodeInfo(node)) {
    frame.node = info_.get();
    for (size_t anchor : info_->input_anchor) {
      tensors_.emplace_back();
      const AnchorData d = input_data(anchor);
      InitTensor(tensors_.back(), node.input_descs[anchor], d.addr, d.size, input_placement);
      frame.inputs.push_back(&tensors_.back());
    }
    for (const auto &desc : node.output_descs) {
      tensors_.emplace_back();
      InitTensor(tensors_.back(), desc, nullptr, 0);
      frame.outputs.push_back(&tensors_.back());
    }
  }
  NodeFrame(const NodeFrame &) = delete;
  NodeFrame &operator=(const NodeFrame &) = delete;

  const NodeInfo &info() const { return *info_; }
  Frame frame;

 private:
  std::unique_ptr<NodeInfo> info_;
  std::deque<gert::Tensor> tensors_;  // deque: addresses stay valid as it grows
};

/// What MallocOutputTensor does to the output tensor it hands out (GE: the requested shape,
/// format and dtype overwrite the descriptor): `bytes` at `addr` on `placement`.
inline void BindOutputTensor(gert::Tensor &t, const gert::StorageShape &shape, const gert::StorageFormat &format,
                             ge::DataType dtype, void *addr, size_t bytes,
                             gert::TensorPlacement placement = gert::kOnDeviceHbm) {
  t.GetShape() = shape;
  t.MutableFormat() = format;
  t.SetDataType(dtype);
  t.MutableTensorData() = gert::TensorData(addr, nullptr, bytes, placement);
}

}  // namespace openatc::gert_impl

#endif  // OPENATC_GERT_NODE_FRAME_H_
