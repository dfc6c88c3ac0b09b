// Pass switches and the fusion switch file (passes.h: ReadFusionSwitchFile).
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

const char *const kAllPasses[] = {kHardSwishPattern, kGeluPattern, kLayerNormPattern, kConvBnFold, kConvBiasAdd, kBnScaleFold, kMatMulBiasAdd, kConvActivation, kConvAdd, kReshapeChain, kTransposePair, kStridedPointwiseConv, kLayoutPlan, kConvWinograd, kWeightPrepack, kNanScanShare, kAddendInPlace};

[[noreturn]] void Malformed(const std::string &path, const std::string &what) {
  std::string names;
  for (const char *p : kAllPasses) names += std::string(p) + ", ";
  throw Error(ErrorCategory::kUsage, "E10001", "--fusion_switch_file: " + what,
              "Write {\"Switch\": {\"GraphFusion\": {\"<pass>\": \"on\" | \"off\"}}} or lines <pass>:on|off; passes: " +
                  names + "ALL")
      .WithFile(path);
}

// Applies `name` = `value` ("on"/"off"); "ALL" entries are applied by the caller first.
void Apply(PassSwitches &s, const std::string &path, const std::string &name, const std::string &value) {
  if (value != "on" && value != "off")
    Malformed(path, "pass '" + name + "' has the value '" + value + "'; only \"on\" and \"off\" are accepted");
  if (name == "ALL") {
    for (const char *p : kAllPasses) s.on[p] = value == "on";
  } else if (s.on.count(name)) {
    s.on[name] = value == "on";
  } else {
    LogWarning("--fusion_switch_file '" + path + "': '" + name + "' is not a pass of this compiler; it has no effect");
  }
}

void ApplyEntries(PassSwitches &s, const std::string &path, const std::vector<std::pair<std::string, std::string>> &e) {
  for (const auto &[k, v] : e)
    if (k == "ALL") Apply(s, path, k, v);
  for (const auto &[k, v] : e)
    if (k != "ALL") Apply(s, path, k, v);
}

std::vector<std::pair<std::string, std::string>> JsonEntries(const std::string &path, const std::string &text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception &e) {
    Malformed(path, std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("Switch") || !j["Switch"].is_object())
    Malformed(path, "the JSON form needs an object \"Switch\" at the top level");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &[section, passes] : j["Switch"].items()) {
    if (section != "GraphFusion" && section != "UBFusion")
      Malformed(path, "unknown section \"" + section + "\" (GraphFusion or UBFusion)");
    if (!passes.is_object()) Malformed(path, "section \"" + section + "\" is not an object");
    for (const auto &[name, value] : passes.items()) {
      if (!value.is_string()) Malformed(path, "pass '" + name + "' has a value that is not a string");
      out.emplace_back(name, value.get<std::string>());
    }
  }
  return out;
}

std::string Trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::pair<std::string, std::string>> LineEntries(const std::string &path, const std::string &text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    line = Trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos || Trim(line.substr(0, colon)).empty())
      Malformed(path, "line " + std::to_string(no) + " is not <pass>:on or <pass>:off");
    out.emplace_back(Trim(line.substr(0, colon)), Trim(line.substr(colon + 1)));
  }
  return out;
}

}  // namespace

PassSwitches::PassSwitches() {
  // Every pass on. Conv post-op fusion was off while Convs ran gemm:jit on plain NCHW (its post-op
  // path cost more than the separate passes it saved); with layout planning the Convs run oneDNN's
  // direct jit kernels in blocked layouts, where fused post-ops are cheaper than separate passes
  // (ultraface-rfb-320 at 1 thread, omrun median 9.5 -> 8.6 ms).
  for (const char *p : kAllPasses) on[p] = true;
}

bool PassSwitches::enabled(const char *name) const {
  auto it = on.find(name);
  return it != on.end() && it->second;
}

PassSwitches ReadFusionSwitchFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) Malformed(path, "the file cannot be read");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  const size_t first = text.find_first_not_of(" \t\r\n");
  PassSwitches s;
  ApplyEntries(s, path, first != std::string::npos && text[first] == '{' ? JsonEntries(path, text) : LineEntries(path, text));
  return s;
}

}  // namespace openatc::compiler::passes
