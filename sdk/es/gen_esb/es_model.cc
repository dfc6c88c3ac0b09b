// BuildModel: which REG_OP prototypes gen_esb can wrap, and their Python defaults.
#include <cmath>
#include <set>
#include <sstream>
#include <variant>

#include "es_model.h"

namespace openatc::es {
namespace {

bool KindOf(const std::string &token, EsAttrKind &kind) {
  if (token == "Int") kind = EsAttrKind::kInt;
  else if (token == "Float") kind = EsAttrKind::kFloat;
  else if (token == "Bool") kind = EsAttrKind::kBool;
  else if (token == "String" || token == "AscendString") kind = EsAttrKind::kString;
  else if (token == "Type") kind = EsAttrKind::kDataType;
  else if (token == "ListInt") kind = EsAttrKind::kListInt;
  else return false;
  return true;
}

std::string PyString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string PyDefault(const reg::AttrValue &v) {
  std::ostringstream os;
  os.precision(9);
  if (auto *i = std::get_if<int64_t>(&v)) os << *i;
  else if (auto *f = std::get_if<float>(&v)) {
    if (std::isfinite(*f)) os << *f;
    else os << "float(" << PyString(std::isnan(*f) ? "nan" : (*f > 0 ? "inf" : "-inf")) << ")";
  }
  else if (auto *b = std::get_if<bool>(&v)) os << (*b ? "True" : "False");
  else if (auto *s = std::get_if<std::string>(&v)) os << PyString(*s);
  else if (auto *d = std::get_if<ge::DataType>(&v)) os << static_cast<int>(*d);
  else if (auto *l = std::get_if<std::vector<int64_t>>(&v)) {
    os << "[";
    for (size_t k = 0; k < l->size(); ++k) os << (k ? ", " : "") << (*l)[k];
    os << "]";
  } else {
    return "";
  }
  return os.str();
}

}  // namespace

std::string SafeName(const std::string &name) {
  static const std::set<std::string> reserved = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
      "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "auto", "char", "const", "default",
      "delete", "do", "double", "enum", "extern", "float", "goto", "int", "long", "new", "operator", "register",
      "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "typedef", "union", "unsigned",
      "void", "volatile", "owner"};
  return reserved.count(name) ? name + "_" : name;
}

std::string FileStem(const std::string &module) { return "es_" + module + "_ops"; }

bool BuildModel(const reg::OpPrototype &proto, EsOpModel &out, std::string &why_not) {
  out = EsOpModel{};
  out.op_type = proto.op_type;
  out.inputs = proto.inputs;
  for (const auto &in : proto.inputs) out.needs_owner = out.needs_owner && in.second != reg::IrInputKind::kRequired;
  for (const auto &o : proto.outputs) {
    if (o.second == reg::IrOutputKind::kDynamic) {
      why_not = "dynamic output '" + o.first + "' is not supported by the ES wrappers";
      return false;
    }
    out.outputs.push_back(o.first);
  }
  if (!proto.subgraphs.empty()) {
    why_not = "subgraph '" + proto.subgraphs.front().first + "' is not supported by the ES wrappers";
    return false;
  }
  for (const auto &a : proto.attrs) {
    EsAttr attr;
    attr.name = a.name;
    attr.required = a.required;
    if (!KindOf(a.type, attr.kind)) {
      why_not = "attribute '" + a.name + "' of type " + a.type + " is not supported by the ES wrappers";
      return false;
    }
    if (!a.required) {
      attr.py_default = PyDefault(a.default_value);
      if (attr.py_default.empty()) attr.required = true;  // no usable default: the caller passes it
    }
    out.attrs.push_back(attr);
  }
  return true;
}

}  // namespace openatc::es
