// InferShapes: propagates descriptors in topological order, calling InferDataType then InferShape
// of every custom op that is a ShapeInferOp (docs/custom-op-lifecycle.md §10, "shape inference"),
// or, for an op without ShapeInferOp, its legacy IMPL_OP hooks (docs/custom-op-lifecycle.md §4.1;
// legacy_infer.h).
#include <deque>

#include "constant_folding.h"
#include "control_flow_shapes.h"
#include "openatc/ir/control_flow.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/compiler/compiler.h"
#include "openatc/compiler/op_checks.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/frame.h"
#include "openatc/gert/legacy_infer.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/opp/call_guard.h"

namespace openatc::compiler {
namespace {

const ir::TensorDesc &ProducerDesc(const ir::Graph &g, const ir::Endpoint &e) {
  return g.nodes[static_cast<size_t>(e.node)].output_descs[static_cast<size_t>(e.index)];
}

// Const data for an input, when the producer is a Const (InferShape may read it).
const ir::ConstTensor *ConstValue(const ir::Graph &g, const ir::Endpoint &e) {
  const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return nullptr;
  auto it = p.attrs.find("value");
  return (it != p.attrs.end() && it->second.kind == ir::AttrKind::kTensor) ? it->second.t.get() : nullptr;
}

// Returns true when some InferShape (ShapeInferOp or IMPL_OP) computed the output shapes.
bool InferCustomNode(ir::Graph &g, ir::Node &node) {
  auto &registry = gert_impl::CustomOpRegistry::Global();
  std::string why;
  auto op = registry.GetOrCreate(node.type, &why);
  if (!op) {
    const OpCheckProblem p = CannotCreateProblem(why);
    throw Error(ErrorCategory::kCustomOp, p.code, p.message, p.hint).WithNode(node.name, node.type);
  }
  auto *infer = dynamic_cast<ge::ShapeInferOp *>(op.get());
  gert_impl::LegacyInferHooks legacy;
  // Neither ShapeInferOp nor IMPL_OP hooks: GE keeps the graph's own output descriptors.
  if (infer == nullptr && !gert_impl::FindLegacyInferHooks(node.type, &legacy)) return false;

  auto info = gert_impl::BuildNodeInfo(node);
  std::deque<gert::Tensor> tensors;
  gert_impl::Frame frame;
  frame.node = info.get();
  for (size_t anchor : info->input_anchor) {
    tensors.emplace_back();
    const ir::ConstTensor *cv = ConstValue(g, node.inputs[anchor]);
    gert_impl::InitTensor(tensors.back(), node.input_descs[anchor], cv ? const_cast<uint8_t *>(cv->data.data) : nullptr,
                          cv ? cv->data.size : 0, gert::kOnHost);
    frame.inputs.push_back(&tensors.back());
  }
  for (const auto &d : node.output_descs) {
    tensors.emplace_back();
    gert_impl::InitTensor(tensors.back(), d, nullptr, 0);
    frame.outputs.push_back(&tensors.back());
  }
  gert_impl::Services no_services;
  frame.services = &no_services;
  const std::string origin = registry.Origin(node.type);
  auto dt_ctx = gert_impl::ContextAccess::Make<gert::InferDataTypeContext>(&frame);
  auto shape_ctx = gert_impl::ContextAccess::Make<gert::InferShapeContext>(&frame);
  if (infer != nullptr) {
    opp::GuardedCall({node.name, node.type, "InferDataType", origin}, [&] { return infer->InferDataType(dt_ctx.get()); });
    opp::GuardedCall({node.name, node.type, "InferShape", origin}, [&] { return infer->InferShape(shape_ctx.get()); });
  } else {
    if (legacy.infer_datatype != nullptr) {
      opp::GuardedCall({node.name, node.type, "IMPL_OP InferDataType", origin},
                       [&] { return legacy.infer_datatype(dt_ctx.get()); });
    } else {
      gert_impl::InferDataTypesFromPrototype(frame, legacy.dtype_same_as_first_input);
    }
    if (legacy.infer_shape != nullptr) {
      opp::GuardedCall({node.name, node.type, "IMPL_OP InferShape", origin},
                       [&] { return legacy.infer_shape(shape_ctx.get()); });
    }
  }
  for (size_t i = 0; i < node.output_descs.size(); ++i) {
    gert::Tensor &t = *frame.outputs[i];
    // The host target stores tensors in their origin layout: storage shape = inferred shape.
    t.MutableStorageShape() = t.GetOriginShape();
    gert_impl::UpdateDesc(node.output_descs[i], t);
  }
  return infer != nullptr || legacy.infer_shape != nullptr;
}

std::string Dims(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// "A shape is empty at compile time" (OA1106): nothing inferred the outputs of a custom op and
// the graph gives an output no dims while an input has some. The output would be planned as a
// one-element scalar while the op presumably writes a tensor the size of its inputs.
void CheckUninferredShapes(const ir::Node &node) {
  const ir::TensorDesc *ranked = nullptr;
  for (const auto &d : node.input_descs)
    if (d.valid && !d.shape.empty() && ranked == nullptr) ranked = &d;
  if (ranked == nullptr) return;
  for (size_t i = 0; i < node.output_descs.size(); ++i) {
    // An output with no dtype either has no desc at all: OA1105 reports it.
    if (!node.output_descs[i].shape.empty() || node.output_descs[i].dtype == ge::DT_UNDEFINED) continue;
    throw Error(ErrorCategory::kGraph, "OA1106",
                "the shape of output " + std::to_string(i) +
                    " is empty at compile time: the op has no ShapeInferOp and no IMPL_OP InferShape, and the "
                    "graph's outputDesc gives no dims, while an input has shape " + Dims(ranked->shape),
                "Give the node an outputDesc with the output's \"shape\": {\"dim\": [...]}, or implement "
                "ShapeInferOp::InferShape (or IMPL_OP(" + node.type + ").InferShape) in the deliverable")
        .WithNode(node.name, node.type);
  }
}

}  // namespace

void InferShapes(ir::Graph &g, const FoldOptions *fold) {
  for (auto &node : g.nodes) {
    // Input descriptors follow their producers (the producer's output is the truth).
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (i >= node.input_descs.size()) node.input_descs.resize(i + 1);
      if (!node.inputs[i].connected()) {
        node.input_descs[i].valid = node.type == ir::kData;
        continue;
      }
      std::string name = node.input_descs[i].name;
      node.input_descs[i] = ProducerDesc(g, node.inputs[i]);
      node.input_descs[i].name = name;
      node.input_descs[i].valid = true;
    }
    if (node.type == ir::kData) {
      if (node.output_descs.empty()) node.output_descs.resize(1);
      // The fed tensor's desc: the input desc when the file gives one, else the output desc.
      const bool has_in = !node.input_descs.empty() && node.input_descs[0].dtype != ge::DT_UNDEFINED;
      const ir::TensorDesc &in = has_in ? node.input_descs[0] : node.output_descs[0];
      std::string name = node.output_descs[0].name;
      node.output_descs[0] = in;
      node.output_descs[0].name = name;
      if (node.output_descs[0].origin_shape.empty()) node.output_descs[0].origin_shape = node.output_descs[0].shape;
      if (node.output_descs[0].dtype == ge::DT_UNDEFINED) {
        throw Error(ErrorCategory::kGraph, "OA1106",
                    "the Data node has no tensor desc: its dtype and shape are empty at compile time",
                    "Give the Data node an outputDesc (or inputDesc) with a \"dtype\" and a \"shape\": {\"dim\": "
                    "[...]} (\"dim\": [] is a scalar); --input_shape sets dims only")
            .WithNode(node.name, node.type);
      }
    } else if (node.type == ir::kConst || node.type == ir::kConstant) {
      auto it = node.attrs.find("value");
      if (it != node.attrs.end() && it->second.t) {
        if (node.output_descs.empty()) node.output_descs.resize(1);
        std::string name = node.output_descs[0].name;
        node.output_descs[0] = it->second.t->desc;
        node.output_descs[0].name = name;
      }
    } else if (ir::IsNativeOp(node.type)) {
      InferNativeNode(node);
    } else if (!IsFrameworkOp(node.type)) {
      if (!InferCustomNode(g, node)) CheckUninferredShapes(node);
    }
    for (size_t i = 0; i < node.output_descs.size(); ++i) {
      const ir::TensorDesc &d = node.output_descs[i];
      if (d.dtype == ge::DT_UNDEFINED) {
        throw Error(ErrorCategory::kGraph, "OA1105",
                    "the dtype of output " + std::to_string(i) + " is unknown after shape inference",
                    "Give the op a ShapeInferOp (InferDataType) or an outputDesc with a dtype in the graph")
            .WithNode(node.name, node.type);
      }
    }
    if (fold != nullptr) TryFoldNode(g, node, *fold);
  }
}

}  // namespace openatc::compiler
