// The config files some flags name (docs/atc-deploy-flags.md §3): each must exist and parse as
// ATC reads it. --keep_dtype (lines), --modify_mixlist (JSON lists), --op_precision_mode (ini),
// --raw_ge_options (JSON object). Parse and check only; what they change is a later stage.
#include "config_files.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "openatc/common/error.h"

namespace openatc {
namespace atc {
namespace {

[[noreturn]] void BadFile(const std::string &flag, const std::string &path, const std::string &what,
                          const std::string &hint, const char *code = "E10001") {
  throw Error(ErrorCategory::kUsage, code, "--" + flag + ": " + what, hint).WithFile(path);
}

std::string Trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool PascalCase(const std::string &s) {
  if (s.empty() || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

void CheckKeepDtype(const std::string &path, const std::string &text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string entry = Trim(line);
    if (entry.rfind("OpType::", 0) != 0) continue;  // blank, or a node name
    const std::string type = entry.substr(8);
    if (!PascalCase(type))
      BadFile("keep_dtype", path, "line " + std::to_string(n) + ": op type '" + type + "' is not PascalCase",
              "Write op types as OpType::Relu (letters and digits, first letter upper case)", "E10003");
  }
}

// Per op type: which lists it is added to and removed from.
struct MixEdit {
  std::set<std::string> add, remove;
};

void CheckMixEdits(const std::string &path, const std::map<std::string, MixEdit> &edits) {
  for (const auto &[type, e] : edits) {
    bool ok = e.add.size() <= 1;
    if (ok && e.add.size() == 1) ok = e.remove.count(*e.add.begin()) == 0;  // add-X never with remove-X
    if (ok && e.add.empty()) ok = e.remove.size() == 1 && !e.remove.count("gray-list");
    if (!ok)
      BadFile("modify_mixlist", path, "op type '" + type + "' has a combination of to-add / to-remove that ATC refuses",
              "Per op type: one to-add list at most, not also removed from it; without an add, remove it from "
              "black-list or white-list only");
  }
}

void CheckModifyMixlist(const std::string &path, const std::string &text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.empty())
    BadFile("modify_mixlist", path, "not a JSON object with black-list, white-list or gray-list",
            "Write {\"black-list\": {\"to-add\": [\"Conv2D\"]}}");
  std::map<std::string, MixEdit> edits;
  for (const auto &[list, body] : j.items()) {
    if (list != "black-list" && list != "white-list" && list != "gray-list")
      BadFile("modify_mixlist", path, "unknown key '" + list + "'", "Use black-list, white-list or gray-list");
    if (!body.is_object()) BadFile("modify_mixlist", path, "'" + list + "' is not an object", "Write \"" + list + "\": {\"to-add\": [...]}");
    for (const auto &[action, types] : body.items()) {
      if (action != "to-add" && action != "to-remove")
        BadFile("modify_mixlist", path, "unknown key '" + list + "." + action + "'", "Use to-add or to-remove");
      if (!types.is_array()) BadFile("modify_mixlist", path, "'" + list + "." + action + "' is not an array", "Write a list of op types");
      for (const auto &t : types) {
        if (!t.is_string()) BadFile("modify_mixlist", path, "'" + list + "." + action + "' holds a non-string", "List op type names");
        auto &e = edits[t.get<std::string>()];
        (action == "to-add" ? e.add : e.remove).insert(list);
      }
    }
  }
  CheckMixEdits(path, edits);
}

void CheckOpPrecisionMode(const std::string &path, const std::string &text) {
  static const std::set<std::string> kModes = {"high_precision", "high_performance", "enable_float_32_execution",
                                               "enable_hi_float_32_execution", "support_out_of_bound_index",
                                               "keep_fp16", "super_performance"};
  std::istringstream in(text);
  std::string line, section;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string l = Trim(line);
    const std::string at = "line " + std::to_string(n) + ": ";
    if (l.empty() || l[0] == '#' || l[0] == ';') continue;
    if (l.front() == '[') {
      section = l;
      if (section != "[ByOpType]" && section != "[ByNodeName]")
        BadFile("op_precision_mode", path, at + "unknown section " + l, "Use [ByOpType] or [ByNodeName]");
      continue;
    }
    const size_t eq = l.find('=');
    if (section.empty()) BadFile("op_precision_mode", path, at + "an entry before any section", "Start with [ByOpType] or [ByNodeName]");
    if (eq == std::string::npos || Trim(l.substr(0, eq)).empty())
      BadFile("op_precision_mode", path, at + "expected key=mode", "Write e.g. Conv2D=high_precision");
    const std::string mode = Trim(l.substr(eq + 1));
    if (!kModes.count(mode))
      BadFile("op_precision_mode", path, at + "'" + mode + "' is not a precision mode",
              "Use high_precision, high_performance, enable_float_32_execution, enable_hi_float_32_execution, "
              "support_out_of_bound_index, keep_fp16 or super_performance");
  }
}

void CheckRawGeOptions(const std::string &path, const std::string &text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    BadFile("raw_ge_options", path, "not a JSON object", "Write the GE options as a JSON object");
}

}  // namespace

std::string ReadFlagFile(const std::string &flag, const std::string &path, const char *code) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (path.empty() || !std::filesystem::is_regular_file(path, ec) || !in)
    BadFile(flag, path, "the file does not exist or cannot be read", "Check the path given to --" + flag, code);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void CheckConfigFile(const std::string &flag, const std::string &path) {
  const std::string text = ReadFlagFile(flag, path);
  if (flag == "keep_dtype") CheckKeepDtype(path, text);
  else if (flag == "modify_mixlist") CheckModifyMixlist(path, text);
  else if (flag == "op_precision_mode") CheckOpPrecisionMode(path, text);
  else if (flag == "raw_ge_options") CheckRawGeOptions(path, text);
}

}  // namespace atc
}  // namespace openatc
