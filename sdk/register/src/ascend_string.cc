// ge::AscendString (graph/ascend_string.h): semantics per docs/custom-op-lifecycle.md §8.
// A null string (default/nullptr-built) reads as "", equals only another null string, sorts
// before every non-null string, and hashes like "".
#include "sdk_visibility.h"

#include <functional>

namespace ge {

AscendString::AscendString(const char_t *const name) {
  if (name != nullptr) name_ = std::make_shared<std::string>(name);
}

AscendString::AscendString(const char_t *const name, size_t length) {
  if (name != nullptr) name_ = std::make_shared<std::string>(name, length);
}

const char_t *AscendString::GetString() const { return name_ ? name_->c_str() : ""; }

size_t AscendString::GetLength() const { return name_ ? name_->size() : 0U; }

size_t AscendString::Find(const AscendString &ascend_string) const {
  if (!name_ || !ascend_string.name_) return std::string::npos;
  return name_->find(*ascend_string.name_);
}

size_t AscendString::Hash() const {
  static const size_t kEmptyHash = std::hash<std::string>()(std::string());
  return name_ ? std::hash<std::string>()(*name_) : kEmptyHash;
}

bool AscendString::operator<(const AscendString &d) const {
  if (!name_) return static_cast<bool>(d.name_);
  if (!d.name_) return false;
  return *name_ < *d.name_;
}

bool AscendString::operator>(const AscendString &d) const { return d < *this; }
bool AscendString::operator<=(const AscendString &d) const { return !(d < *this); }
bool AscendString::operator>=(const AscendString &d) const { return !(*this < d); }

bool AscendString::operator==(const AscendString &d) const {
  if (!name_ || !d.name_) return !name_ && !d.name_;
  return *name_ == *d.name_;
}

bool AscendString::operator!=(const AscendString &d) const { return !(*this == d); }

bool AscendString::operator==(const char_t *const d) const {
  if (!name_ || d == nullptr) return !name_ && d == nullptr;
  return *name_ == d;
}

bool AscendString::operator!=(const char_t *const d) const { return !(*this == d); }

}  // namespace ge
