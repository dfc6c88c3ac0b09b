// InferNativeNode: output descs of control flow, sequence and optional nodes (ONNX operator
// specs, docs of each op's "Outputs"), and shape inference inside their subgraphs.
#include "control_flow_shapes.h"

#include <algorithm>

#include "openatc/common/error.h"
#include "openatc/compiler/compiler.h"
#include "openatc/ir/attr_get.h"
#include "openatc/ir/control_flow.h"

namespace openatc::compiler {
namespace {

using ir::ValueKind;

ir::TensorDesc Unknown(ge::DataType dt, ValueKind kind) {
  ir::TensorDesc d;
  d.dtype = dt;
  d.shape = d.origin_shape = {-2};
  d.value_kind = kind;
  return d;
}

// The desc both `a` and `b` fit: equal dims kept, differing dims -1, differing ranks unknown.
ir::TensorDesc Merge(const ir::TensorDesc &a, const ir::TensorDesc &b) {
  ir::TensorDesc d = a;
  if (d.dtype == ge::DT_UNDEFINED) d.dtype = b.dtype;
  if (a.shape == b.shape) return d;
  const bool ranked = a.shape != std::vector<int64_t>{-2} && b.shape != std::vector<int64_t>{-2};
  if (!ranked || a.shape.size() != b.shape.size()) {
    d.shape = {-2};
  } else {
    for (size_t k = 0; k < d.shape.size(); ++k)
      if (a.shape[k] != b.shape[k]) d.shape[k] = -1;
  }
  d.origin_shape = d.shape;
  return d;
}

ir::TensorDesc WithKind(ir::TensorDesc d, ValueKind kind) {
  d.value_kind = kind;
  d.name.clear();
  return d;
}

bool Ranked(const ir::TensorDesc &d) { return d.shape != std::vector<int64_t>{-2}; }

// `d` with dim `axis` removed (a Scan slice), or inserted as `len` (a scan output).
ir::TensorDesc DropDim(ir::TensorDesc d, int64_t axis) {
  if (!Ranked(d)) return d;
  if (axis < 0) axis += static_cast<int64_t>(d.shape.size());
  if (axis >= 0 && axis < static_cast<int64_t>(d.shape.size())) d.shape.erase(d.shape.begin() + axis);
  d.origin_shape = d.shape;
  return d;
}
ir::TensorDesc InsertDim(ir::TensorDesc d, int64_t axis, int64_t len) {
  if (!Ranked(d)) return d;
  if (axis < 0) axis += static_cast<int64_t>(d.shape.size()) + 1;
  axis = std::clamp<int64_t>(axis, 0, static_cast<int64_t>(d.shape.size()));
  d.shape.insert(d.shape.begin() + axis, len);
  d.origin_shape = d.shape;
  return d;
}

using ir::IntAttrOr;
using ir::IntsAttrOr;

ir::Graph &Body(ir::Node &n, const char *attr) {
  auto it = n.attrs.find(attr);
  if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kGraph || !it->second.g)
    throw Error(ErrorCategory::kGraph, "OA1111", std::string("the node has no subgraph attribute '") + attr + "'",
                "Give the node its ONNX graph attribute")
        .WithNode(n.name, n.type);
  return *it->second.g;
}

// Gives the subgraph's formal inputs `formal` (where the body declares no dtype) and its captured
// inputs the node's captured input descs, runs shape inference on it, returns its output descs.
std::vector<ir::TensorDesc> InferBody(ir::Node &n, ir::Graph &g, const std::vector<ir::TensorDesc> &formal) {
  const size_t captures = ir::CapturedInputs(n);
  if (captures > n.input_descs.size() || g.inputs.size() != formal.size() + captures)
    throw Error(ErrorCategory::kGraph, "OA1111",
                "subgraph '" + g.name + "' has " + std::to_string(g.inputs.size()) + " inputs, but the node gives it " +
                    std::to_string(formal.size()) + " formal and " + std::to_string(captures) + " captured inputs",
                "Declare the subgraph's inputs as the ONNX operator defines them")
        .WithNode(n.name, n.type);
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    ir::Node &data = g.nodes[static_cast<size_t>(g.inputs[k])];
    if (data.input_descs.empty()) data.input_descs.resize(1);
    const bool captured = k >= formal.size();
    const ir::TensorDesc &outer = captured ? n.input_descs[n.input_descs.size() - captures + (k - formal.size())] : formal[k];
    if (captured || data.input_descs[0].dtype == ge::DT_UNDEFINED) {
      std::string name = data.input_descs[0].name;
      data.input_descs[0] = outer;
      data.input_descs[0].name = name;
      data.output_descs = {data.input_descs[0]};
    }
  }
  InferShapes(g);
  std::vector<ir::TensorDesc> out;
  for (const auto &e : g.outputs) out.push_back(g.nodes[static_cast<size_t>(e.node)].output_descs.at(static_cast<size_t>(e.index)));
  return out;
}

// The node's own (ONNX) inputs: all but the captured ones.
size_t ExplicitInputs(const ir::Node &n) {
  const size_t captures = ir::CapturedInputs(n);
  if (captures > n.inputs.size())
    throw Error(ErrorCategory::kGraph, "OA1111", "attr openatc_captures counts more inputs than the node has",
                "Set openatc_captures to the number of captured outer-scope inputs").WithNode(n.name, n.type);
  return n.inputs.size() - captures;
}

ir::TensorDesc In(const ir::Node &n, size_t k) {
  return k < n.input_descs.size() && n.inputs[k].connected() ? n.input_descs[k] : ir::TensorDesc{};
}

void InferIf(ir::Node &n) {
  auto then_out = InferBody(n, Body(n, "then_branch"), {});
  auto else_out = InferBody(n, Body(n, "else_branch"), {});
  if (then_out.size() != else_out.size())
    throw Error(ErrorCategory::kGraph, "OA1111",
                "then_branch has " + std::to_string(then_out.size()) + " outputs but else_branch has " +
                    std::to_string(else_out.size()),
                "Give both branches the same outputs").WithNode(n.name, n.type);
  n.output_descs.resize(then_out.size());
  for (size_t k = 0; k < then_out.size(); ++k) n.output_descs[k] = WithKind(Merge(then_out[k], else_out[k]), then_out[k].value_kind);
}

void InferLoop(ir::Node &n) {
  const size_t explicit_in = ExplicitInputs(n);
  const size_t states = explicit_in >= 2 ? explicit_in - 2 : 0;
  ir::TensorDesc iter{};
  iter.dtype = ge::DT_INT64;
  ir::TensorDesc cond{};
  cond.dtype = ge::DT_BOOL;
  std::vector<ir::TensorDesc> formal = {iter, cond};
  for (size_t k = 0; k < states; ++k) formal.push_back(In(n, 2 + k));
  auto out = InferBody(n, Body(n, "body"), formal);
  if (out.size() < 1 + states)
    throw Error(ErrorCategory::kGraph, "OA1111", "the body has fewer outputs than 1 + " + std::to_string(states) + " loop-carried values",
                "The Loop body outputs cond, then every loop-carried value, then its scan outputs").WithNode(n.name, n.type);
  n.output_descs.resize(out.size() - 1);
  for (size_t k = 0; k < states; ++k) n.output_descs[k] = WithKind(Merge(out[1 + k], In(n, 2 + k)), out[1 + k].value_kind);
  for (size_t k = 1 + states; k < out.size(); ++k) n.output_descs[k - 1] = WithKind(InsertDim(out[k], 0, -1), ValueKind::kTensor);
}

// Scan-9+: inputs = N states then M scan inputs; Scan-8: a first input sequence_lens and a batch dim 0 everywhere.
void InferScan(ir::Node &n) {
  const bool v8 = IntAttrOr(n, "onnx_opset", 9) < 9;
  const size_t first = v8 ? 1 : 0;
  const size_t explicit_in = ExplicitInputs(n);
  const size_t m = static_cast<size_t>(std::max<int64_t>(0, IntAttrOr(n, "num_scan_inputs", 0)));
  if (m + first > explicit_in)
    throw Error(ErrorCategory::kGraph, "OA1111", "num_scan_inputs is larger than the number of inputs",
                "Set num_scan_inputs to the number of scanned inputs").WithNode(n.name, n.type);
  const size_t states = explicit_in - first - m;
  const auto in_axes = IntsAttrOr(n, "scan_input_axes");
  const auto out_axes = IntsAttrOr(n, "scan_output_axes");
  std::vector<ir::TensorDesc> formal;
  for (size_t k = 0; k < states; ++k) formal.push_back(v8 ? DropDim(In(n, first + k), 0) : In(n, first + k));
  for (size_t j = 0; j < m; ++j) {
    ir::TensorDesc d = In(n, first + states + j);
    if (v8) d = DropDim(DropDim(d, 0), 0);
    else d = DropDim(d, j < in_axes.size() ? in_axes[j] : 0);
    formal.push_back(d);
  }
  auto out = InferBody(n, Body(n, "body"), formal);
  n.output_descs.resize(out.size());
  for (size_t k = 0; k < out.size(); ++k) {
    ir::TensorDesc d = out[k];
    if (k >= states) d = v8 ? InsertDim(d, 0, -1) : InsertDim(d, k - states < out_axes.size() ? out_axes[k - states] : 0, -1);
    if (v8) d = InsertDim(d, 0, -1);
    if (k < states && !v8) d = Merge(d, In(n, first + k));
    n.output_descs[k] = WithKind(d, ValueKind::kTensor);
  }
}

void InferSequenceMap(ir::Node &n) {
  const size_t explicit_in = ExplicitInputs(n);
  std::vector<ir::TensorDesc> formal;
  for (size_t k = 0; k < explicit_in; ++k) formal.push_back(WithKind(In(n, k), ValueKind::kTensor));
  auto out = InferBody(n, Body(n, "body"), formal);
  n.output_descs.resize(out.size());
  for (size_t k = 0; k < out.size(); ++k) n.output_descs[k] = WithKind(Unknown(out[k].dtype, ValueKind::kSequence), ValueKind::kSequence);
}

// A DataType attr (the ONNX front end converts SequenceEmpty's `dtype` and Optional's `type`).
ge::DataType DtypeAttr(const ir::Node &n, const char *name, ge::DataType dflt) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end()) return dflt;
  return it->second.kind == ir::AttrKind::kDataType ? it->second.dt : dflt;
}

}  // namespace

void InferNativeNode(ir::Node &n) {
  const std::string &t = n.type;
  const ValueKind seq = ValueKind::kSequence;
  auto set = [&](std::vector<ir::TensorDesc> d) { n.output_descs = std::move(d); };
  if (t == "If") return InferIf(n);
  if (t == "Loop") return InferLoop(n);
  if (t == "Scan") return InferScan(n);
  if (t == "SequenceMap") return InferSequenceMap(n);
  ir::TensorDesc in0 = In(n, 0);
  if (t == "SequenceConstruct") {
    ir::TensorDesc d = in0;
    for (size_t k = 1; k < n.inputs.size(); ++k) d = Merge(d, In(n, k));
    return set({WithKind(d, seq)});
  }
  if (t == "SequenceEmpty") return set({Unknown(DtypeAttr(n, "dtype", ge::DT_FLOAT), seq)});
  if (t == "SequenceInsert") return set({WithKind(in0.shape.empty() && in0.dtype == ge::DT_UNDEFINED ? In(n, 1) : Merge(in0, In(n, 1)), seq)});
  if (t == "SequenceErase") return set({WithKind(in0, seq)});
  if (t == "SequenceAt") return set({WithKind(in0, ValueKind::kTensor)});
  if (t == "SequenceLength") {
    ir::TensorDesc d;
    d.dtype = ge::DT_INT64;
    return set({d});
  }
  if (t == "SplitToSequence") return set({Unknown(in0.dtype, seq)});
  if (t == "ConcatFromSequence") return set({Unknown(in0.dtype, ValueKind::kTensor)});
  if (t == "Optional") {
    if (n.inputs.empty() || !n.inputs[0].connected()) {
      // No input: the `type` attr gives the element dtype; the file's desc says tensor or sequence.
      const bool is_seq = !n.output_descs.empty() && (n.output_descs[0].value_kind == ValueKind::kOptionalSequence);
      return set({Unknown(DtypeAttr(n, "type", ge::DT_FLOAT), is_seq ? ValueKind::kOptionalSequence : ValueKind::kOptionalTensor)});
    }
    return set({WithKind(in0, in0.value_kind == seq ? ValueKind::kOptionalSequence : ValueKind::kOptionalTensor)});
  }
  if (t == "OptionalHasElement") {
    ir::TensorDesc d;
    d.dtype = ge::DT_BOOL;
    return set({d});
  }
  if (t == "OptionalGetElement") {
    const bool is_seq = in0.value_kind == ValueKind::kOptionalSequence || in0.value_kind == seq;
    return set({WithKind(in0, is_seq ? seq : ValueKind::kTensor)});
  }
}

}  // namespace openatc::compiler
