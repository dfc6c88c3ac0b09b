// GraphToIr: reg::GraphView -> raw ir::Graph -> GE IR JSON -> the front end's reader.
#include "graph_to_ir.h"

#include <stdexcept>
#include <type_traits>

#include "openatc/common/error.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/frontend/ge_ir_writer.h"
#include "openatc/register/graph_view.h"

namespace openatc::ge_runner {
namespace {

Error GraphFailure(const std::string &message, const std::string &hint) {
  return Error(ErrorCategory::kGraph, "OA2404", message, hint);
}

ir::TensorDesc ConvertDesc(const ge::TensorDesc &d, const std::string &name) {
  ir::TensorDesc out;
  out.name = name;
  out.dtype = d.GetDataType();
  out.format = d.GetFormat();
  out.origin_format = d.GetOriginFormat();
  out.shape = d.GetShape().GetDims();
  out.origin_shape = d.GetOriginShape().GetDims();
  return out;
}

std::shared_ptr<ir::ConstTensor> ConvertTensor(const ge::Tensor &t) {
  auto out = std::make_shared<ir::ConstTensor>();
  out->desc = ConvertDesc(t.GetTensorDesc(), "");
  out->data = ir::Bytes::Copy(t.GetData(), t.GetSize());
  return out;
}

// reg::AttrValue (what ge::Operator stores) -> ir::AttrValue. False for kinds the IR has no room
// for (list of tensors, named attrs); monostate (never set) is dropped by the caller.
bool ConvertAttr(const reg::AttrValue &in, ir::AttrValue *out) {
  return std::visit(
      [out](const auto &v) -> bool {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          out->kind = ir::AttrKind::kInt;
          out->i = v;
        } else if constexpr (std::is_same_v<T, float>) {
          out->kind = ir::AttrKind::kFloat;
          out->f = v;
        } else if constexpr (std::is_same_v<T, bool>) {
          out->kind = ir::AttrKind::kBool;
          out->b = v;
        } else if constexpr (std::is_same_v<T, std::string>) {
          out->kind = ir::AttrKind::kString;
          out->s = v;
        } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
          out->kind = ir::AttrKind::kBytes;
          out->s.assign(v.begin(), v.end());
        } else if constexpr (std::is_same_v<T, ge::DataType>) {
          out->kind = ir::AttrKind::kDataType;
          out->dt = v;
        } else if constexpr (std::is_same_v<T, ge::Tensor>) {
          out->kind = ir::AttrKind::kTensor;
          out->t = ConvertTensor(v);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          out->kind = ir::AttrKind::kListInt;
          out->list_i = v;
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          out->kind = ir::AttrKind::kListFloat;
          out->list_f = v;
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          out->kind = ir::AttrKind::kListBool;
          for (bool b : v) out->list_b.push_back(b ? 1 : 0);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          out->kind = ir::AttrKind::kListString;
          out->list_s = v;
        } else if constexpr (std::is_same_v<T, std::vector<ge::DataType>>) {
          out->kind = ir::AttrKind::kListDataType;
          for (ge::DataType dt : v) out->list_i.push_back(static_cast<int64_t>(dt));
        } else if constexpr (std::is_same_v<T, std::vector<std::vector<int64_t>>>) {
          out->kind = ir::AttrKind::kListListInt;
          out->list_list_i = v;
        } else {
          return false;  // monostate, list of tensors, named attrs
        }
        return true;
      },
      in);
}

ir::Graph RawGraph(const reg::GraphView &view) {
  ir::Graph g;
  g.name = view.name;
  for (const reg::NodeView &nv : view.nodes) {
    ir::Node n;
    n.name = nv.name;
    n.type = nv.type;
    for (const auto &out : nv.outputs)
      n.output_descs.push_back(out.desc_set ? ConvertDesc(out.desc, out.name) : ir::TensorDesc{});
    for (const auto &[name, value] : nv.attrs) {
      if (std::holds_alternative<std::monostate>(value)) continue;
      ir::AttrValue v;
      if (!ConvertAttr(value, &v)) {
        throw GraphFailure("attr '" + name + "' holds " + reg::AttrValueToText(value) +
                               ", a kind (list of tensors or named attrs) the compiler's IR cannot hold",
                           "Remove the attr or express it with scalar, list or tensor attrs")
            .WithNode(nv.name, nv.type);
      }
      n.attrs[name] = std::move(v);
    }
    for (size_t c : nv.control_inputs) n.control_inputs.push_back(static_cast<int32_t>(c));
    g.nodes.push_back(std::move(n));
  }
  // Inputs after all nodes exist: an input desc the program did not set takes its producer's.
  for (size_t i = 0; i < view.nodes.size(); ++i) {
    ir::Node &n = g.nodes[i];
    for (const auto &in : view.nodes[i].inputs) {
      ir::Endpoint ep;
      ir::TensorDesc d;
      if (in.src_node >= 0) {
        ep.node = static_cast<int32_t>(in.src_node);
        ep.index = static_cast<int32_t>(in.src_output);
        const auto &producer = g.nodes[static_cast<size_t>(ep.node)];
        if (static_cast<size_t>(ep.index) < producer.output_descs.size()) d = producer.output_descs[ep.index];
      }
      if (in.desc_set) d = ConvertDesc(in.desc, in.name);
      d.name = in.name;
      n.inputs.push_back(ep);
      n.input_descs.push_back(std::move(d));
    }
  }
  for (const auto &[node, index] : view.outputs)
    g.outputs.push_back({static_cast<int32_t>(node), static_cast<int32_t>(index)});
  return g;
}

}  // namespace

ir::Graph GraphToIr(const ge::Graph &graph, const std::string &where) {
  reg::GraphView view;
  try {
    view = reg::ViewGraph(graph);
  } catch (const std::exception &e) {
    throw GraphFailure(e.what(), "Remove the loop from the graph").WithFile(where);
  }
  if (view.nodes.empty()) {
    throw GraphFailure("the graph has no nodes", "Build the graph and call Graph::SetInputs / SetOutputs first")
        .WithFile(where);
  }
  if (view.outputs.empty()) {
    throw GraphFailure("the graph has no outputs", "Call Graph::SetOutputs with the ops whose outputs you want")
        .WithFile(where);
  }
  try {
    ir::Graph raw = RawGraph(view);
    return frontend::ReadGeIrString(frontend::WriteGeIrJson(raw), frontend::GeIrEncoding::kJson, where);
  } catch (Error &e) {
    e.WithFile(where);
    throw;
  }
}

}  // namespace openatc::ge_runner
