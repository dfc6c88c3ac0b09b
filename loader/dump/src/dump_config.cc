// The "dump" section of an ACL config file (dump_config.h).
#include "openatc/dump/dump_config.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <set>

#include "openatc/common/error.h"

namespace openatc::dump {
namespace {

using nlohmann::json;

constexpr size_t kMaxPathChars = 512;  // GE's dump_path limit
constexpr size_t kMaxStepGroups = 100;

[[noreturn]] void Bad(const std::string &file, const std::string &what, const std::string &hint) {
  throw Error(ErrorCategory::kUsage, "OA2306", "'" + file + "': \"dump\": " + what, hint);
}

// The string value of `key` (`fallback` when absent); a non-string value is an error.
std::string Str(const json &section, const char *key, const std::string &file, const std::string &fallback) {
  auto it = section.find(key);
  if (it == section.end()) return fallback;
  if (!it->is_string())
    Bad(file, "\"" + std::string(key) + "\" must be a string, not " + it->dump(), "Quote the value");
  return it->get<std::string>();
}

// As Str, and the value must be one of `allowed`.
std::string OneOf(const json &section, const char *key, const std::string &file, const std::string &fallback,
                  std::initializer_list<const char *> allowed) {
  const std::string v = Str(section, key, file, fallback);
  std::string list;
  for (const char *a : allowed) {
    if (v == a) return v;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  Bad(file, "\"" + std::string(key) + "\" is '" + v + "'", "Use one of: " + list);
}

bool Digits(const std::string &s) {
  return !s.empty() && s.size() <= 18 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An IPv4 address before the first ':' of dump_path: GE's remote dump (ip:path).
bool RemotePath(const std::string &p) {
  const size_t colon = p.find(':');
  if (colon == std::string::npos) return false;
  const std::string ip = p.substr(0, colon);
  size_t parts = 0, start = 0;
  while (true) {
    const size_t dot = ip.find('.', start);
    const std::string part = ip.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!Digits(part) || part.size() > 3 || std::stoi(part) > 255) return false;
    ++parts;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts == 4;
}

std::string CheckPath(const json &section, const std::string &file) {
  if (!section.contains("dump_path"))
    Bad(file, "\"dump_path\" is missing", "Add \"dump_path\": the existing folder the dumps go to");
  const std::string p = Str(section, "dump_path", file, "");
  if (p.empty()) Bad(file, "\"dump_path\" is empty", "Name the existing folder the dumps go to");
  if (p.size() > kMaxPathChars)
    Bad(file,
        "\"dump_path\" has " + std::to_string(p.size()) + " characters, more than GE's " +
            std::to_string(kMaxPathChars),
        "Use a shorter path");
  if (RemotePath(p))
    Bad(file, "\"dump_path\" '" + p + "' names a remote host (ip:path), which the host runtime cannot send to",
        "Use a local folder");
  std::error_code ec;
  if (!std::filesystem::is_directory(p, ec))
    Bad(file, "\"dump_path\" '" + p + "' is not an existing folder", "Create the folder first (GE does not create it)");
  if (::access(p.c_str(), R_OK | W_OK | X_OK) != 0)
    Bad(file, "\"dump_path\" '" + p + "' cannot be written", "Dump into a folder this process may write");
  const std::filesystem::path abs = std::filesystem::absolute(p, ec);
  return ec ? p : abs.lexically_normal().string();
}

void ParseList(const json &section, const std::string &file, DumpConfig &c) {
  auto it = section.find("dump_list");
  if (it == section.end()) return;
  if (!it->is_array())
    Bad(file, "\"dump_list\" must be an array, not " + it->dump(), "Write \"dump_list\": [{\"model_name\": \"...\"}]");
  for (size_t i = 0; i < it->size(); ++i) {
    const json &e = (*it)[i];
    const std::string where = "dump_list[" + std::to_string(i) + "]";
    if (!e.is_object()) Bad(file, where + " must be an object, not " + e.dump(), "Write {\"model_name\": \"...\"}");
    DumpModelEntry m;
    bool skip = false;
    for (const auto &[key, value] : e.items()) {
      if (key == "model_name") {
        if (!value.is_string())
          Bad(file, where + ".model_name must be a string, not " + value.dump(), "Quote the name");
        m.model_name = value.get<std::string>();
      } else if (key == "layer") {
        if (!value.is_array())
          Bad(file, where + ".layer must be an array of op names, not " + value.dump(),
              "Write \"layer\": [\"op1\", ...]");
        for (const auto &l : value) {
          if (!l.is_string())
            Bad(file, where + ".layer holds " + l.dump() + ", not an op name", "List op names as strings");
          m.layers.push_back(l.get<std::string>());
        }
        if (m.layers.empty()) {
          c.warnings.push_back("'" + file + "': \"dump\": " + where +
                               ".layer is empty: the entry is skipped, as GE skips it");
          skip = true;
        }
      } else if (key == "optype_blacklist" || key == "opname_blacklist" || key == "opname_range" ||
                 key == "watcher_nodes") {
        c.warnings.push_back("'" + file + "': \"dump\": " + where + "." + key +
                             " is not acted on by OpenATC: every op the entry selects is dumped");
      } else {
        c.warnings.push_back("'" + file + "': \"dump\": " + where + "." + key +
                             " is not a dump_list key GE knows: ignored");
      }
    }
    if (m.model_name.empty()) {
      c.warnings.push_back("'" + file + "': \"dump\": " + where +
                           " has no model_name: the entry is skipped, as GE skips it");
      continue;
    }
    if (!skip) c.models.push_back(std::move(m));
  }
}

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> ParseDumpStep(const std::string &text, const std::string &file) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const std::string hint = "Write steps and ranges separated by '|', e.g. \"0|5-10\" (at most 100 groups)";
  size_t start = 0;
  while (true) {
    const size_t bar = text.find('|', start);
    const std::string g = text.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    const size_t dash = g.find('-');
    const std::string a = g.substr(0, dash), b = dash == std::string::npos ? a : g.substr(dash + 1);
    if (!Digits(a) || !Digits(b))
      Bad(file, "\"dump_step\" '" + text + "': '" + g + "' is not a step or a range a-b", hint);
    const uint64_t lo = std::stoull(a), hi = std::stoull(b);
    if (lo > hi) Bad(file, "\"dump_step\" '" + text + "': the range '" + g + "' ends before it starts", hint);
    out.emplace_back(lo, hi);
    if (out.size() > kMaxStepGroups) Bad(file, "\"dump_step\" has more than 100 groups", hint);
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

bool DumpConfig::StepSelected(uint64_t step) const {
  if (steps.empty()) return true;
  for (const auto &[lo, hi] : steps)
    if (step >= lo && step <= hi) return true;
  return false;
}

const DumpModelEntry *DumpConfig::Find(const std::string &model_name) const {
  for (const auto &m : models)
    if (m.model_name == model_name) return &m;
  return nullptr;
}

DumpConfig ParseDumpConfig(const json &section, const std::string &file) {
  if (!section.is_object())
    Bad(file, "the section must be an object, not " + section.dump(), "Write \"dump\": {\"dump_path\": ...}");
  static const std::set<std::string> kKeys = {"dump_path",  "dump_list",  "dump_mode", "dump_op_switch", "dump_data",
                                              "dump_stats", "dump_level", "dump_step", "dump_debug",     "dump_scene"};
  DumpConfig c;
  auto warn = [&](const std::string &s) { c.warnings.push_back("'" + file + "': \"dump\": " + s); };
  for (const auto &[key, value] : section.items())
    if (kKeys.count(key) == 0) warn("\"" + key + "\" is not a dump key GE knows: ignored");
  c.path = CheckPath(section, file);
  ParseList(section, file, c);
  const std::string mode = OneOf(section, "dump_mode", file, "output", {"input", "output", "all"});
  c.mode = mode == "input" ? DumpMode::kInput : mode == "all" ? DumpMode::kAll : DumpMode::kOutput;
  const bool op_switch = OneOf(section, "dump_op_switch", file, "off", {"on", "off"}) == "on";
  if (op_switch) warn("\"dump_op_switch\" on is not acted on by OpenATC: single-op (aclop) executions are not dumped");
  c.stats = OneOf(section, "dump_data", file, "tensor", {"tensor", "stats"}) == "stats";
  if (auto it = section.find("dump_stats"); it != section.end()) {
    if (!c.stats)
      Bad(file, "\"dump_stats\" is given but \"dump_data\" is not \"stats\"",
          "Set \"dump_data\": \"stats\" or drop \"dump_stats\"");
    if (!it->is_array())
      Bad(file, "\"dump_stats\" must be an array, not " + it->dump(), "List the statistics as strings");
    warn(
        "\"dump_stats\" is not acted on by OpenATC: every statistic (count, max, min, mean, NaN and inf counts) is "
        "written");
  }
  if (OneOf(section, "dump_level", file, "all", {"op", "kernel", "all"}) == "kernel")
    warn(
        "\"dump_level\" kernel is not acted on by OpenATC: the host runs ops, not device tasks, so op dumps are "
        "written");
  if (section.contains("dump_step")) c.steps = ParseDumpStep(Str(section, "dump_step", file, ""), file);
  const bool debug = OneOf(section, "dump_debug", file, "off", {"on", "off"}) == "on";
  if (debug && !c.models.empty())
    Bad(file, "\"dump_debug\" on (overflow dump) is given with a model dump_list",
        "GE takes one or the other: drop one");
  if (debug)
    warn("\"dump_debug\" on is not acted on by OpenATC: the host has no overflow detection, nothing is written for it");
  const bool scene = section.contains("dump_scene");
  if (scene) {
    OneOf(section, "dump_scene", file, "",
          {"lite_exception", "aic_err_brief_dump", "aic_err_norm_dump", "aic_err_detail_dump"});
    warn("\"dump_scene\" is not acted on by OpenATC: the host writes no exception dumps");
  }
  if (c.models.empty() && !op_switch && !debug && !scene)
    Bad(file, "nothing to dump: no dump_list entry names a model, and dump_op_switch and dump_debug are off",
        "Add {\"model_name\": \"<om file name without .om>\"} to \"dump_list\"");
  return c;
}

}  // namespace openatc::dump
