// Strict text-to-number helpers of atc's option parser (internal).
#ifndef OPENATC_ATC_CLI_PARSE_UTIL_H_
#define OPENATC_ATC_CLI_PARSE_UTIL_H_

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace openatc {
namespace atc {

/// Whole-string decimal integer with an optional sign; false on empty text, junk or overflow.
inline bool ParseStrictInt64(const std::string &text, int64_t *value) {
  if (text.empty()) return false;
  size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size()) return false;
  for (size_t k = i; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end != text.c_str() + text.size()) return false;
  *value = static_cast<int64_t>(v);
  return true;
}

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_CLI_PARSE_UTIL_H_
