// ge::Operator attributes (graph/operator.h): SetAttr/GetAttr over openatc::reg::AttrValue, and
// AttrRegister, which records an IR attribute with the value set just before as its default.
#include "operator_impl.h"

#include <limits>

namespace ge {
namespace {
using openatc::reg::AttrValue;
using openatc::reg::SetSdkError;

std::string Str(const char_t *s) { return s != nullptr ? std::string(s) : std::string(); }

Operator &Put(Operator &op, const std::shared_ptr<OperatorImpl> &impl, const char_t *name, AttrValue value) {
  if (!impl) {
    SetSdkError("Operator::SetAttr('" + Str(name) + "'): the operator is empty; construct it with a name and type");
    return op;
  }
  if (name == nullptr || *name == '\0') {
    SetSdkError("Operator::SetAttr: the attribute name is empty on " + impl->Where() + "; pass a name");
    return op;
  }
  impl->PutAttr(name, std::move(value));
  return op;
}

// Finds attribute `name` holding type T; sets the error and returns nullptr otherwise.
template <typename T>
const T *Get(const std::shared_ptr<OperatorImpl> &impl, const char_t *name) {
  if (!impl) {
    SetSdkError("Operator::GetAttr('" + Str(name) + "'): the operator is empty");
    return nullptr;
  }
  const AttrValue *v = impl->FindAttr(Str(name));
  if (v == nullptr) {
    SetSdkError("Operator::GetAttr: " + impl->Where() + " has no attribute '" + Str(name) + "'");
    return nullptr;
  }
  const T *typed = std::get_if<T>(v);
  if (typed == nullptr) {
    SetSdkError("Operator::GetAttr: attribute '" + Str(name) + "' of " + impl->Where() +
                " holds another type (value " + openatc::reg::AttrValueToText(*v) + "); read it with its own type");
  }
  return typed;
}

template <typename Narrow>
graphStatus GetNarrowInt(const std::shared_ptr<OperatorImpl> &impl, const char_t *name, Narrow &out) {
  const int64_t *v = Get<int64_t>(impl, name);
  if (v == nullptr) return GRAPH_FAILED;
  if (*v < static_cast<int64_t>(std::numeric_limits<Narrow>::min()) ||
      *v > static_cast<int64_t>(std::numeric_limits<Narrow>::max())) {
    SetSdkError("Operator::GetAttr: attribute '" + Str(name) + "' = " + std::to_string(*v) +
                " does not fit the requested integer type");
    return GRAPH_FAILED;
  }
  out = static_cast<Narrow>(*v);
  return GRAPH_SUCCESS;
}

template <typename Narrow>
graphStatus GetNarrowList(const std::shared_ptr<OperatorImpl> &impl, const char_t *name, std::vector<Narrow> &out) {
  const auto *v = Get<std::vector<int64_t>>(impl, name);
  if (v == nullptr) return GRAPH_FAILED;
  std::vector<Narrow> result;
  for (int64_t x : *v) {
    if (x < static_cast<int64_t>(std::numeric_limits<Narrow>::min()) ||
        x > static_cast<int64_t>(std::numeric_limits<Narrow>::max())) {
      SetSdkError("Operator::GetAttr: an element of attribute '" + Str(name) + "' (" + std::to_string(x) +
                  ") does not fit the requested integer type");
      return GRAPH_FAILED;
    }
    result.push_back(static_cast<Narrow>(x));
  }
  out = std::move(result);
  return GRAPH_SUCCESS;
}

template <typename T>
graphStatus GetCopy(const std::shared_ptr<OperatorImpl> &impl, const char_t *name, T &out) {
  const T *v = Get<T>(impl, name);
  if (v == nullptr) return GRAPH_FAILED;
  out = *v;
  return GRAPH_SUCCESS;
}
}  // namespace

AttrValue *OperatorImpl::FindAttr(const std::string &attr_name) {
  for (auto &kv : attrs) {
    if (kv.first == attr_name) return &kv.second;
  }
  return nullptr;
}
const AttrValue *OperatorImpl::FindAttr(const std::string &attr_name) const {
  for (const auto &kv : attrs) {
    if (kv.first == attr_name) return &kv.second;
  }
  return nullptr;
}
void OperatorImpl::PutAttr(const std::string &attr_name, AttrValue value) {
  AttrValue *existing = FindAttr(attr_name);
  if (existing != nullptr) {
    *existing = std::move(value);
  } else {
    attrs.emplace_back(attr_name, std::move(value));
  }
}

Operator &Operator::SetAttr(const char_t *name, int64_t v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, int32_t v) { return Put(*this, operator_impl_, name, int64_t{v}); }
Operator &Operator::SetAttr(const char_t *name, uint32_t v) { return Put(*this, operator_impl_, name, int64_t{v}); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<int64_t> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<int32_t> &v) {
  return Put(*this, operator_impl_, name, std::vector<int64_t>(v.begin(), v.end()));
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<uint32_t> &v) {
  return Put(*this, operator_impl_, name, std::vector<int64_t>(v.begin(), v.end()));
}
Operator &Operator::SetAttr(const char_t *name, std::initializer_list<int64_t> &&v) {
  return Put(*this, operator_impl_, name, std::vector<int64_t>(v));
}
Operator &Operator::SetAttr(const char_t *name, float v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<float> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, bool v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<bool> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, const Tensor &v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<Tensor> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, const OpBytes &v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<std::vector<int64_t>> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, const ge::DataType &v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<ge::DataType> &v) {
  return Put(*this, operator_impl_, name, v);
}
Operator &Operator::SetAttr(const char_t *name, const char_t *v) {
  if (v == nullptr) {
    SetSdkError("Operator::SetAttr('" + Str(name) + "'): the string value is null; pass \"\" for an empty string");
    return *this;
  }
  return Put(*this, operator_impl_, name, std::string(v));
}
Operator &Operator::SetAttr(const char_t *name, const AscendString &v) {
  return Put(*this, operator_impl_, name, std::string(v.GetString(), v.GetLength()));
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<AscendString> &v) {
  std::vector<std::string> s;
  s.reserve(v.size());
  for (const auto &a : v) s.emplace_back(a.GetString(), a.GetLength());
  return Put(*this, operator_impl_, name, std::move(s));
}
Operator &Operator::SetAttr(const char_t *name, const NamedAttrs &v) { return Put(*this, operator_impl_, name, v); }
Operator &Operator::SetAttr(const char_t *name, const std::vector<NamedAttrs> &v) {
  return Put(*this, operator_impl_, name, v);
}

graphStatus Operator::GetAttr(const char_t *name, int64_t &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, int32_t &v) const { return GetNarrowInt(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, uint32_t &v) const { return GetNarrowInt(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<int64_t> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<int32_t> &v) const {
  return GetNarrowList(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<uint32_t> &v) const {
  return GetNarrowList(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, float &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<float> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, bool &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<bool> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, Tensor &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<Tensor> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, OpBytes &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<std::vector<int64_t>> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, ge::DataType &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<ge::DataType> &v) const {
  return GetCopy(operator_impl_, name, v);
}
graphStatus Operator::GetAttr(const char_t *name, AscendString &v) const {
  const std::string *s = Get<std::string>(operator_impl_, name);
  if (s == nullptr) return GRAPH_FAILED;
  v = AscendString(s->c_str(), s->size());
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<AscendString> &v) const {
  const auto *s = Get<std::vector<std::string>>(operator_impl_, name);
  if (s == nullptr) return GRAPH_FAILED;
  v.clear();
  for (const auto &x : *s) v.emplace_back(x.c_str(), x.size());
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char_t *name, NamedAttrs &v) const { return GetCopy(operator_impl_, name, v); }
graphStatus Operator::GetAttr(const char_t *name, std::vector<NamedAttrs> &v) const {
  return GetCopy(operator_impl_, name, v);
}

bool Operator::HasAttr(const char_t *name) const {
  return operator_impl_ && operator_impl_->FindAttr(Str(name)) != nullptr;
}

void Operator::AttrRegister(const char_t *name, const char_t *type_token, bool required) {
  if (!operator_impl_) return;
  openatc::reg::IrAttr attr;
  attr.name = Str(name);
  attr.type = Str(type_token);
  attr.required = required;
  for (const auto &existing : operator_impl_->ir_attrs) {
    if (existing.name == attr.name) {
      SetSdkError("REG_OP(" + operator_impl_->type + "): attribute '" + attr.name +
                  "' is declared twice; give every attribute a distinct name");
      return;
    }
  }
  if (!required) {
    const AttrValue *v = operator_impl_->FindAttr(attr.name);
    if (v != nullptr) {
      attr.default_value = *v;
      attr.default_text = openatc::reg::AttrValueToText(*v);
    }
  }
  operator_impl_->ir_attrs.push_back(std::move(attr));
}

}  // namespace ge
