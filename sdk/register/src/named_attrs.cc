// ge::NamedAttrs (graph/operator.h): a name plus int/float/string attributes, deep-copied.
#include "sdk_visibility.h"

#include <map>
#include <variant>

#include "graph/operator.h"

namespace ge {

class NamedAttrsImpl {
 public:
  std::string name;
  std::map<std::string, std::variant<int64_t, float, std::string>> attrs;
};

namespace {
std::string Str(const char_t *s) { return s != nullptr ? std::string(s) : std::string(); }

template <typename T>
graphStatus Read(const NamedAttrsImpl &impl, const char_t *name, T &out) {
  const auto it = impl.attrs.find(Str(name));
  if (it == impl.attrs.end() || !std::holds_alternative<T>(it->second)) {
    openatc::reg::SetSdkError("NamedAttrs::GetAttr: '" + impl.name + "' has no attribute '" + Str(name) +
                              "' of the requested type");
    return GRAPH_FAILED;
  }
  out = std::get<T>(it->second);
  return GRAPH_SUCCESS;
}
}  // namespace

NamedAttrs::NamedAttrs() : impl_(std::make_unique<NamedAttrsImpl>()) {}
NamedAttrs::~NamedAttrs() = default;
NamedAttrs::NamedAttrs(const NamedAttrs &other) : impl_(std::make_unique<NamedAttrsImpl>(*other.impl_)) {}
NamedAttrs &NamedAttrs::operator=(const NamedAttrs &other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
void NamedAttrs::SetName(const char_t *name) { impl_->name = Str(name); }
AscendString NamedAttrs::GetName() const { return AscendString(impl_->name.c_str(), impl_->name.size()); }
graphStatus NamedAttrs::SetAttr(const char_t *name, int64_t value) {
  impl_->attrs[Str(name)] = value;
  return GRAPH_SUCCESS;
}
graphStatus NamedAttrs::SetAttr(const char_t *name, float value) {
  impl_->attrs[Str(name)] = value;
  return GRAPH_SUCCESS;
}
graphStatus NamedAttrs::SetAttr(const char_t *name, const AscendString &value) {
  impl_->attrs[Str(name)] = std::string(value.GetString(), value.GetLength());
  return GRAPH_SUCCESS;
}
graphStatus NamedAttrs::GetAttr(const char_t *name, int64_t &value) const { return Read(*impl_, name, value); }
graphStatus NamedAttrs::GetAttr(const char_t *name, float &value) const { return Read(*impl_, name, value); }
graphStatus NamedAttrs::GetAttr(const char_t *name, AscendString &value) const {
  std::string s;
  const graphStatus ret = Read(*impl_, name, s);
  if (ret == GRAPH_SUCCESS) value = AscendString(s.c_str(), s.size());
  return ret;
}
std::vector<AscendString> NamedAttrs::GetAttrNames() const {
  std::vector<AscendString> names;
  for (const auto &kv : impl_->attrs) names.emplace_back(kv.first.c_str(), kv.first.size());
  return names;
}

}  // namespace ge
