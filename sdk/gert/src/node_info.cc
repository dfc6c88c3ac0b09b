// BuildNodeInfo: maps an IR node's anchors and attributes onto its REG_OP prototype (IR order),
// the way GE builds ComputeNodeInfo for a custom op.
#include <algorithm>
#include <cctype>
#include <variant>

#include "openatc/common/error.h"
#include "openatc/gert/frame.h"
#include "openatc/register/op_prototype.h"

namespace openatc::gert_impl {
namespace {

gert::CompileTimeTensorDesc ToTd(const ir::TensorDesc &d) {
  gert::CompileTimeTensorDesc td;
  td.SetDataType(d.dtype);
  td.SetOriginFormat(d.origin_format);
  td.SetStorageFormat(d.format);
  td.SetIsExist(d.valid);
  return td;
}

// True when anchor name `anchor` is instance k of dynamic IR input `ir_name` ("x" -> "x0", "x1").
bool IsInstanceOf(const std::string &anchor, const std::string &ir_name) {
  if (anchor.size() <= ir_name.size() || anchor.compare(0, ir_name.size(), ir_name) != 0) return false;
  return std::all_of(anchor.begin() + static_cast<long>(ir_name.size()), anchor.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

// An ATTR's REG_OP default as an ir::AttrValue (kNone when it has no host representation).
ir::AttrValue DefaultAttrValue(const reg::IrAttr &attr) {
  ir::AttrValue v;
  const reg::AttrValue &d = attr.default_value;
  if (auto p = std::get_if<int64_t>(&d)) { v.kind = ir::AttrKind::kInt; v.i = *p; }
  else if (auto p = std::get_if<float>(&d)) { v.kind = ir::AttrKind::kFloat; v.f = *p; }
  else if (auto p = std::get_if<bool>(&d)) { v.kind = ir::AttrKind::kBool; v.b = *p; }
  else if (auto p = std::get_if<std::string>(&d)) { v.kind = ir::AttrKind::kString; v.s = *p; }
  else if (auto p = std::get_if<ge::DataType>(&d)) { v.kind = ir::AttrKind::kDataType; v.dt = *p; }
  else if (auto p = std::get_if<std::vector<int64_t>>(&d)) { v.kind = ir::AttrKind::kListInt; v.list_i = *p; }
  else if (auto p = std::get_if<std::vector<float>>(&d)) { v.kind = ir::AttrKind::kListFloat; v.list_f = *p; }
  else if (auto p = std::get_if<std::vector<bool>>(&d)) {
    v.kind = ir::AttrKind::kListBool;
    for (bool b : *p) v.list_b.push_back(b ? 1 : 0);
  } else if (auto p = std::get_if<std::vector<std::string>>(&d)) { v.kind = ir::AttrKind::kListString; v.list_s = *p; }
  else if (auto p = std::get_if<std::vector<uint8_t>>(&d)) {
    v.kind = ir::AttrKind::kBytes;
    v.s.assign(p->begin(), p->end());
  } else if (auto p = std::get_if<std::vector<std::vector<int64_t>>>(&d)) {
    v.kind = ir::AttrKind::kListListInt;
    v.list_list_i = *p;
  } else if (auto p = std::get_if<std::vector<ge::DataType>>(&d)) {
    v.kind = ir::AttrKind::kListDataType;
    for (auto dt : *p) v.list_i.push_back(static_cast<int64_t>(dt));
  }
  return v;
}

Error GraphError(const ir::Node &node, const std::string &code, const std::string &message, const std::string &hint) {
  Error e(ErrorCategory::kGraph, code, message, hint);
  e.WithNode(node.name, node.type);
  return e;
}

void MapInputsWithPrototype(const ir::Node &node, const reg::OpPrototype &proto, NodeInfo &info) {
  const size_t anchors = node.inputs.size();
  size_t next = 0;
  size_t flat = 0;
  for (size_t ir = 0; ir < proto.inputs.size(); ++ir) {
    const auto &[name, kind] = proto.inputs[ir];
    size_t count = 0;
    if (kind == reg::IrInputKind::kDynamic) {
      // Instances named name0, name1, ...; without names, every anchor left over after the later
      // IR inputs have one each.
      bool named = false;
      while (next + count < anchors && IsInstanceOf(node.input_descs[next + count].name, name)) {
        ++count;
        named = true;
      }
      if (!named) {
        size_t later = 0;
        for (size_t j = ir + 1; j < proto.inputs.size(); ++j)
          if (proto.inputs[j].second == reg::IrInputKind::kRequired) ++later;
        count = anchors > next + later ? anchors - next - later : 0;
      }
    } else if (next < anchors) {
      count = 1;
    } else if (kind == reg::IrInputKind::kRequired) {
      throw GraphError(node, "OA1101",
                       "required input '" + name + "' (IR index " + std::to_string(ir) + ") of the prototype is missing",
                       "Connect it in the graph");
    }
    size_t start = flat;
    for (size_t k = 0; k < count; ++k, ++next) {
      if (!node.inputs[next].connected()) {
        if (kind == reg::IrInputKind::kRequired)
          throw GraphError(node, "OA1101", "required input '" + name + "' is not connected", "Connect it in the graph");
        continue;  // absent optional instance
      }
      info.input_anchor.push_back(next);
      info.input_descs.push_back(ToTd(node.input_descs[next]));
      ++flat;
    }
    info.ir_inputs.emplace_back(start, flat - start);
  }
  if (next < anchors) {
    throw GraphError(node, "OA1102",
                     "the node has " + std::to_string(anchors) + " inputs but the REG_OP prototype of '" + node.type +
                         "' declares only " + std::to_string(next) + " (input index " + std::to_string(next) +
                         " lies beyond the prototype)",
                     "Remove the extra inputs or add them to the prototype");
  }
}

void MapOutputsWithPrototype(const ir::Node &node, const reg::OpPrototype &proto, NodeInfo &info) {
  const size_t anchors = node.output_descs.size();
  size_t next = 0;
  for (size_t ir = 0; ir < proto.outputs.size(); ++ir) {
    size_t count = 1;
    if (proto.outputs[ir].second == reg::IrOutputKind::kDynamic) {
      size_t later = proto.outputs.size() - ir - 1;
      count = anchors > next + later ? anchors - next - later : 0;
    }
    if (next + count > anchors) count = anchors > next ? anchors - next : 0;
    info.ir_outputs.emplace_back(next, count);
    next += count;
  }
  for (size_t i = 0; i < anchors; ++i) info.output_descs.push_back(ToTd(node.output_descs[i]));
}

void MapWithoutPrototype(const ir::Node &node, NodeInfo &info) {
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    size_t start = info.input_anchor.size();
    if (node.inputs[i].connected()) {
      info.input_anchor.push_back(i);
      info.input_descs.push_back(ToTd(node.input_descs[i]));
    }
    info.ir_inputs.emplace_back(start, info.input_anchor.size() - start);
  }
  for (size_t i = 0; i < node.output_descs.size(); ++i) {
    info.ir_outputs.emplace_back(i, 1);
    info.output_descs.push_back(ToTd(node.output_descs[i]));
  }
}

}  // namespace

std::unique_ptr<NodeInfo> BuildNodeInfo(const ir::Node &node) {
  auto info = std::make_unique<NodeInfo>();
  info->name = node.name;
  info->type = node.type;
  const reg::OpPrototype *proto = reg::FindOpPrototype(node.type);
  info->has_prototype = proto != nullptr;
  if (proto != nullptr) {
    MapInputsWithPrototype(node, *proto, *info);
    MapOutputsWithPrototype(node, *proto, *info);
    for (const auto &attr : proto->attrs) {
      auto it = node.attrs.find(attr.name);
      info->attr_names.push_back(attr.name);
      if (it != node.attrs.end()) {
        info->attrs.Append(it->second);
      } else if (attr.required) {
        throw GraphError(node, "OA1103", "required attribute '" + attr.name + "' (" + attr.type + ") is not set",
                         "Set it in the node's attr map");
      } else {
        info->attrs.Append(DefaultAttrValue(attr));
      }
    }
  } else {
    MapWithoutPrototype(node, *info);
    for (const auto &kv : node.attrs) {
      if (!kv.first.empty() && kv.first[0] == '_') continue;  // GE-internal bookkeeping attrs
      info->attr_names.push_back(kv.first);
      info->attrs.Append(kv.second);
    }
  }
  return info;
}

}  // namespace openatc::gert_impl
