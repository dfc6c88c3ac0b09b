// Output descriptions, node attributes and attribute scopes of the ES builder
// (ge/es_graph_builder_c.h).
#include <stdexcept>

#include "es_builder.h"
#include "graph/tensor.h"

using openatc::es::CheckedNode;
using openatc::es::GuardedStatus;

namespace openatc::es {

void UpdateDesc(EsTensorHolder *holder, const std::function<void(ge::TensorDesc &)> &change) {
  Node &node = CheckedNode(holder);
  if (holder->index < 0) throw std::invalid_argument("the node has no output to describe");
  const std::string &name = node.output_names[static_cast<size_t>(holder->index)];
  ge::TensorDesc desc = node.op.GetOutputDescByName(name.c_str());
  change(desc);
  node.op.UpdateOutputDesc(name.c_str(), desc);
  if (node.op.GetInputsSize() == 1) {  // a Data node: its input description follows its output
    ge::AscendString type;
    node.op.GetOpType(type);
    if (std::string(type.GetString()) == "Data") node.op.UpdateInputDesc("x", desc);
  }
}

}  // namespace openatc::es

namespace {

std::string Name(const char *name) {
  if (name == nullptr || *name == '\0') throw std::invalid_argument("the attribute name is NULL or empty");
  return name;
}

template <typename V>
int32_t SetNodeAttr(EsTensorHolder *holder, const char *name, V value) {
  return GuardedStatus([&] { CheckedNode(holder).op.SetAttr(Name(name).c_str(), value); });
}

template <typename V>
int32_t SetScopeAttr(const char *name, V value) {
  return GuardedStatus([&] {
    const std::string n = Name(name);
    openatc::es::PushScopeAttr([n, value](ge::Operator &op) { op.SetAttr(n.c_str(), value); });
  });
}

}  // namespace

extern "C" {

int32_t EsSetShape(EsTensorHolder *holder, const int64_t *dims, int64_t dim_num) {
  return GuardedStatus([&] {
    if (dim_num < 0 || (dim_num > 0 && dims == nullptr)) throw std::invalid_argument("dims is NULL or dim_num < 0");
    const ge::Shape shape(std::vector<int64_t>(dims, dims + dim_num));
    openatc::es::UpdateDesc(holder, [&](ge::TensorDesc &d) {
      d.SetShape(shape);
      d.SetOriginShape(shape);
    });
  });
}

int32_t EsSetFormat(EsTensorHolder *holder, int32_t format) {
  return GuardedStatus([&] {
    openatc::es::UpdateDesc(holder, [&](ge::TensorDesc &d) {
      d.SetFormat(static_cast<ge::Format>(format));
      d.SetOriginFormat(static_cast<ge::Format>(format));
    });
  });
}

int32_t EsSetDataType(EsTensorHolder *holder, int32_t dtype) {
  return GuardedStatus(
      [&] { openatc::es::UpdateDesc(holder, [&](ge::TensorDesc &d) { d.SetDataType(static_cast<ge::DataType>(dtype)); }); });
}

int32_t EsSetNodeAttrBool(EsTensorHolder *holder, const char *name, int32_t value) {
  return SetNodeAttr(holder, name, value != 0);
}
int32_t EsSetNodeAttrInt(EsTensorHolder *holder, const char *name, int64_t value) {
  return SetNodeAttr(holder, name, value);
}
int32_t EsSetNodeAttrFloat(EsTensorHolder *holder, const char *name, float value) {
  return SetNodeAttr(holder, name, value);
}
int32_t EsSetNodeAttrString(EsTensorHolder *holder, const char *name, const char *value) {
  if (value == nullptr) {
    openatc::es::SetLastError("the string attribute value is NULL");
    return -1;
  }
  return SetNodeAttr(holder, name, ge::AscendString(value));
}
int32_t EsSetNodeAttrDataType(EsTensorHolder *holder, const char *name, int32_t dtype) {
  return SetNodeAttr(holder, name, static_cast<ge::DataType>(dtype));
}
int32_t EsSetNodeAttrListInt(EsTensorHolder *holder, const char *name, const int64_t *values, int64_t n) {
  if (n < 0 || (n > 0 && values == nullptr)) {
    openatc::es::SetLastError("the list is NULL or its length is negative");
    return -1;
  }
  return SetNodeAttr(holder, name, std::vector<int64_t>(values, values + n));
}

int32_t EsAttrScopeSetBool(const char *name, int32_t value) { return SetScopeAttr(name, value != 0); }
int32_t EsAttrScopeSetInt(const char *name, int64_t value) { return SetScopeAttr(name, value); }
int32_t EsAttrScopeSetFloat(const char *name, float value) { return SetScopeAttr(name, value); }
int32_t EsAttrScopeSetString(const char *name, const char *value) {
  if (value == nullptr) {
    openatc::es::SetLastError("the string attribute value is NULL");
    return -1;
  }
  return SetScopeAttr(name, ge::AscendString(value));
}

}  // extern "C"
