// openatc::reg::AttrValueToText (openatc/register/attr_value.h): text form of attribute values
// for prototypes, diagnostics and dumps.
#include "sdk_visibility.h"

#include <sstream>

#include "openatc/common/dtype.h"
#include "openatc/register/attr_value.h"

namespace openatc::reg {
namespace {
std::string FloatText(float f) {
  std::ostringstream os;
  os << f;
  return os.str();
}
std::string Quote(const std::string &s) { return "\"" + s + "\""; }

template <typename T, typename F>
std::string List(const std::vector<T> &v, F &&one) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i != 0) out += ", ";
    out += one(v[i]);
  }
  return out + "]";
}

std::string TensorText(const ge::Tensor &t) {
  const ge::TensorDesc d = t.GetTensorDesc();
  return "tensor(" + DataTypeName(d.GetDataType()) + ", " + ShapeToString(d.GetShape().GetDims()) + ", " +
         std::to_string(t.GetSize()) + " bytes)";
}
std::string NamedText(const ge::NamedAttrs &n) { return "named_attrs(" + Quote(n.GetName().GetString()) + ")"; }

struct Printer {
  std::string operator()(std::monostate) const { return "<none>"; }
  std::string operator()(int64_t v) const { return std::to_string(v); }
  std::string operator()(float v) const { return FloatText(v); }
  std::string operator()(const std::string &v) const { return Quote(v); }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(const ge::Tensor &v) const { return TensorText(v); }
  std::string operator()(ge::DataType v) const { return DataTypeName(v); }
  std::string operator()(const std::vector<int64_t> &v) const {
    return List(v, [](int64_t x) { return std::to_string(x); });
  }
  std::string operator()(const std::vector<float> &v) const { return List(v, FloatText); }
  std::string operator()(const std::vector<std::string> &v) const { return List(v, Quote); }
  std::string operator()(const std::vector<bool> &v) const {
    std::vector<std::string> s;
    for (bool b : v) s.push_back(b ? "true" : "false");
    return List(s, [](const std::string &x) { return x; });
  }
  std::string operator()(const std::vector<ge::Tensor> &v) const { return List(v, TensorText); }
  std::string operator()(const std::vector<uint8_t> &v) const { return "bytes(" + std::to_string(v.size()) + ")"; }
  std::string operator()(const std::vector<std::vector<int64_t>> &v) const {
    return List(v, [this](const std::vector<int64_t> &x) { return (*this)(x); });
  }
  std::string operator()(const std::vector<ge::DataType> &v) const {
    return List(v, [](ge::DataType x) { return DataTypeName(x); });
  }
  std::string operator()(const ge::NamedAttrs &v) const { return NamedText(v); }
  std::string operator()(const std::vector<ge::NamedAttrs> &v) const { return List(v, NamedText); }
};
}  // namespace

std::string AttrValueToText(const AttrValue &value) { return std::visit(Printer{}, value); }

}  // namespace openatc::reg
