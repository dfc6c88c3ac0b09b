/**
 * @file graph/ascend_string.h
 * ge::AscendString: GE's reference-counted string used across the SDK boundary
 * (metadef `graph/ascend_string.h`). Every method is out of line in libregister.so, so a
 * deliverable built with `-D_GLIBCXX_USE_CXX11_ABI=0` never touches the library's std::string.
 * A default or null-constructed string returns "" from GetString() and compares unequal to "".
 */
#ifndef OPENATC_GRAPH_ASCEND_STRING_H_
#define OPENATC_GRAPH_ASCEND_STRING_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace ge {
using char_t = char;

class AscendString {
 public:
  AscendString() = default;
  ~AscendString() = default;
  /// Implicit on purpose: GE code passes string literals where an AscendString is expected.
  AscendString(const char_t *const name);  // NOLINT(google-explicit-constructor)
  AscendString(const char_t *const name, size_t length);

  /// Never null; "" for a null string.
  const char_t *GetString() const;
  size_t GetLength() const;
  /// Byte offset of the first occurrence, or std::string::npos.
  size_t Find(const AscendString &ascend_string) const;
  size_t Hash() const;

  bool operator<(const AscendString &d) const;
  bool operator>(const AscendString &d) const;
  bool operator<=(const AscendString &d) const;
  bool operator>=(const AscendString &d) const;
  bool operator==(const AscendString &d) const;
  bool operator!=(const AscendString &d) const;
  bool operator==(const char_t *const d) const;
  bool operator!=(const char_t *const d) const;

 private:
  // Created, read and destroyed only inside libregister.so (the control block owns the deleter).
  std::shared_ptr<std::string> name_;
};
}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
  size_t operator()(const ge::AscendString &s) const { return s.Hash(); }
};
}  // namespace std

#endif  // OPENATC_GRAPH_ASCEND_STRING_H_
