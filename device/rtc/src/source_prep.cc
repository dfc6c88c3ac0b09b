// Ascend C source preparation (source_prep.h): a light scanner over code with comments and
// literals masked, enough for kernel definitions and `<<<>>>` launches as users write them.
#include "source_prep.h"

#include <cctype>
#include <set>

#include "acl/acl_rtc_error.h"
#include "openatc/common/error.h"

namespace openatc {
namespace rtc {
namespace {

bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

[[noreturn]] void BadLaunch(const std::string &file, int line, const std::string &what) {
  throw openatc::Error(ErrorCategory::kUsage, "ACL" + std::to_string(ACL_ERROR_RTC_COMPILATION),
                       file + ":" + std::to_string(line) + ": " + what,
                       "Write launches as kernel<<<numBlocks, nullptr, stream>>>(args...)");
}

int LineAt(const std::string &s, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

/** True when `pos` lies on a preprocessor line (first non-blank character is '#'). */
bool OnDirectiveLine(const std::string &m, size_t pos) {
  size_t start = m.rfind('\n', pos);
  start = start == std::string::npos ? 0 : start + 1;
  while (start < pos && (m[start] == ' ' || m[start] == '\t')) ++start;
  return start < m.size() && m[start] == '#';
}

size_t SkipSpace(const std::string &m, size_t i) {
  while (i < m.size() && std::isspace(static_cast<unsigned char>(m[i]))) ++i;
  return i;
}

/** Index of the bracket closing the one at `open` (same kind), or npos. */
size_t MatchForward(const std::string &m, size_t open) {
  const char o = m[open];
  const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < m.size(); ++i) {
    if (m[i] == o) ++depth;
    if (m[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

/** True when the word ending just before `end` (after blanks) is `word`. */
bool WordBefore(const std::string &m, size_t end, const char *word) {
  while (end > 0 && std::isspace(static_cast<unsigned char>(m[end - 1]))) --end;
  size_t start = end;
  while (start > 0 && IsIdent(m[start - 1])) --start;
  return m.compare(start, end - start, word) == 0 && end > start;
}

/** Whether the `__global__` at `at` is preceded by a `template <...>` header. */
bool HasTemplateHeader(const std::string &m, size_t at) {
  size_t i = at;
  // Skip back over `extern "C"` (the literal is masked to blanks) and other words on the way.
  for (int words = 0; words < 8; ++words) {
    while (i > 0 && std::isspace(static_cast<unsigned char>(m[i - 1]))) --i;
    if (i == 0) return false;
    if (m[i - 1] == '>') {
      int depth = 0;
      size_t j = i;
      while (j > 0) {
        --j;
        if (m[j] == '>') ++depth;
        if (m[j] == '<' && --depth == 0) break;
      }
      return WordBefore(m, j, "template");
    }
    if (!IsIdent(m[i - 1])) return false;
    size_t start = i;
    while (start > 0 && IsIdent(m[start - 1])) --start;
    std::string w = m.substr(start, i - start);
    // Kernel qualifiers may come first: `template <uint32_t N> __vector__ __global__ void k(...)`.
    const bool qualifier = w.size() > 4 && w.rfind("__", 0) == 0 && w.compare(w.size() - 2, 2, "__") == 0;
    if (w != "extern" && w != "static" && w != "inline" && !qualifier) return false;
    i = start;
  }
  return false;
}

}  // namespace

std::string MaskNonCode(const std::string &s) {
  std::string m = s;
  size_t i = 0;
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < m.size(); ++k) {
      if (m[k] != '\n') m[k] = ' ';
    }
  };
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      size_t e = s.find('\n', i);
      e = e == std::string::npos ? s.size() : e;
      blank(i, e);
      i = e;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? s.size() : e + 2;
      blank(i, e);
      i = e;
    } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !IsIdent(s[i - 1]))) {
      size_t paren = s.find('(', i + 2);
      std::string delim = paren == std::string::npos ? "" : ")" + s.substr(i + 2, paren - i - 2) + "\"";
      size_t e = paren == std::string::npos ? std::string::npos : s.find(delim, paren);
      e = e == std::string::npos ? s.size() : e + delim.size();
      blank(i + 1, e);
      i = e;
    } else if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
      const char q = s[i];
      size_t e = i + 1;
      while (e < s.size() && s[e] != q && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = e < s.size() ? e + 1 : s.size();
      blank(i, e);
      i = e;
    } else {
      ++i;
    }
  }
  return m;
}

std::vector<KernelDef> FindKernels(const std::string &source) {
  const std::string m = MaskNonCode(source);
  std::vector<KernelDef> out;
  std::set<std::string> seen;
  const std::string key = "__global__";
  for (size_t at = m.find(key); at != std::string::npos; at = m.find(key, at + key.size())) {
    if ((at > 0 && IsIdent(m[at - 1])) || (at + key.size() < m.size() && IsIdent(m[at + key.size()]))) continue;
    if (OnDirectiveLine(m, at)) continue;
    size_t stop = m.find_first_of(";{}", at);
    std::string name;
    size_t paren = at;
    // `__mix__(1, 2)` and similar qualifiers with arguments come before the name: skip them.
    while ((paren = m.find('(', paren + 1)) != std::string::npos && (stop == std::string::npos || paren < stop)) {
      size_t end = paren;
      while (end > at && std::isspace(static_cast<unsigned char>(m[end - 1]))) --end;
      size_t start = end;
      while (start > at && IsIdent(m[start - 1])) --start;
      name = m.substr(start, end - start);
      if (name.rfind("__", 0) != 0) break;
      paren = MatchForward(m, paren);
      if (paren == std::string::npos) break;
      name.clear();
    }
    if (name.empty() || paren == std::string::npos || (stop != std::string::npos && paren > stop)) continue;
    size_t close = MatchForward(m, paren);
    if (close == std::string::npos) continue;
    size_t after = SkipSpace(m, close + 1);
    if (after >= m.size() || m[after] != '{') continue;  // a declaration
    if (!seen.insert(name).second) continue;
    out.push_back({name, HasTemplateHeader(m, at), LineAt(m, at)});
  }
  return out;
}

std::string RewriteLaunches(const std::string &source, const std::string &file) {
  const std::string m = MaskNonCode(source);
  std::string out;
  size_t copied = 0;
  for (size_t at = m.find("<<<"); at != std::string::npos; at = m.find("<<<", at + 3)) {
    if (OnDirectiveLine(m, at)) continue;
    // The callee: an id-expression, optionally with template arguments, ending at `<<<`.
    size_t end = at;
    while (end > 0 && std::isspace(static_cast<unsigned char>(m[end - 1]))) --end;
    size_t start = end;
    if (start > 0 && m[start - 1] == '>') {
      int depth = 0;
      while (start > 0) {
        --start;
        if (m[start] == '>') ++depth;
        if (m[start] == '<' && --depth == 0) break;
      }
    }
    while (start > 0 && (IsIdent(m[start - 1]) || m[start - 1] == ':')) --start;
    if (start == end || start < copied) BadLaunch(file, LineAt(m, at), "'<<<' does not follow a kernel name");
    // The launch configuration, up to the `>>>` at bracket depth 0.
    int depth = 0;
    size_t cfg_end = std::string::npos;
    for (size_t i = at + 3; i < m.size(); ++i) {
      char c = m[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (depth < 0 || c == ';') break;
      if (depth == 0 && m.compare(i, 3, ">>>") == 0) {
        cfg_end = i;
        break;
      }
    }
    if (cfg_end == std::string::npos) BadLaunch(file, LineAt(m, at), "'<<<' without a matching '>>>'");
    std::string callee;
    for (size_t i = start; i < end; ++i) {
      if (!std::isspace(static_cast<unsigned char>(m[i]))) callee += m[i];
    }
    size_t call = SkipSpace(m, cfg_end + 3);
    if (call >= m.size() || m[call] != '(') {
      BadLaunch(file, LineAt(m, at), "the launch of '" + callee + "' has no argument list after '>>>'");
    }
    out.append(source, copied, start - copied);
    out += "::openatc_ascendc::Launch<&" + callee + ">(\"" + callee + "\", ";
    out.append(source, at + 3, cfg_end - at - 3);
    out += ")";
    copied = cfg_end + 3;
    at = cfg_end;
  }
  out.append(source, copied, std::string::npos);
  return out;
}

std::string LoweredName(const std::string &expression, size_t index) {
  std::string base;
  for (char c : expression) {
    if (!IsIdent(c)) break;
    base += c;
  }
  return base + "__openatc_expr_" + std::to_string(index);
}

std::string PrepareAscendC(const std::string &source, const std::string &file, const std::vector<NameExpr> &exprs) {
  const std::string masked = MaskNonCode(source);
  const bool launches = masked.find("<<<") != std::string::npos || masked.find("ACLRT_LAUNCH_KERNEL") != std::string::npos;
  std::string out;
  if (launches) out += "#include \"openatc/ascendc_launch.h\"\n";
  out += "#line 1 \"" + file + "\"\n";
  out += launches ? RewriteLaunches(source, file) : source;
  if (!out.empty() && out.back() != '\n') out += '\n';
  std::string entries;
  auto entry = [&](const std::string &symbol, const std::string &fn) {
    entries += "extern \"C\" __attribute__((used, visibility(\"default\"))) size_t openatc_ascendc_args_size_" + symbol +
               "(void) { return ::openatc_host_kernel_detail::ArgsSizeOf(" + fn + "); }\n";
    entries += "extern \"C\" __attribute__((used, visibility(\"default\"))) void openatc_ascendc_entry_" + symbol +
               "(const void *args, size_t size) { (void)::openatc_host_kernel_detail::Invoke(" + fn + ", args, size); }\n";
    entries += "extern \"C\" __attribute__((used, visibility(\"default\"))) const size_t *openatc_ascendc_params_" + symbol +
               "(size_t *count) { return ::openatc_ascendc::ParamLayout(" + fn + ", count); }\n";
  };
  for (const KernelDef &k : FindKernels(source)) {
    if (!k.is_template) entry(k.name, "&" + k.name);
  }
  for (const NameExpr &e : exprs) entry(e.lowered, "&" + e.expression);
  if (!entries.empty()) out += "#line 1 \"<openatc-ascendc-entries>\"\n#include \"openatc/ascendc_launch.h\"\n" + entries;
  return out;
}

}  // namespace rtc
}  // namespace openatc
