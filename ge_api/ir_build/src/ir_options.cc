// GE option maps -> atc::Options (ir_options.h).
#include "ir_options.h"

#include "openatc/common/error.h"

namespace openatc::ir_build {
namespace {

// The atc flag for GE key `key`, or "" ("ge.frameworkType" is fixed: the graph is GE IR).
std::string FlagFor(const std::string &key) {
  const std::string flag = atc::AtcFlagForGeOptionKey(key);
  return flag == "framework" ? std::string() : flag;
}

// atc's mode-0 command line for graph `model`. --output is required by the parser but never used
// here (aclgrphSaveModel names the file) and, as in atc, not part of the build record.
std::vector<std::string> BaseWords(const std::string &call, const std::string &model) {
  return {call, "--mode=0", "--framework=1", "--model=" + model, "--output=" + call};
}

atc::Options Parse(const std::vector<std::string> &words) {
  std::vector<const char *> argv;
  for (const auto &w : words) argv.push_back(w.c_str());
  return atc::ParseAtcOptions(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

std::vector<std::string> ValidateGlobalOptions(const OptionMap &global_options) {
  std::vector<std::string> unknown;
  std::vector<std::string> words = BaseWords("aclgrphBuildInitialize", "global");
  for (const auto &[key, value] : global_options) {
    const std::string flag = FlagFor(key);
    if (flag.empty()) {
      unknown.push_back(key);
      continue;
    }
    words.push_back("--" + flag + "=" + value);
  }
  (void)Parse(words);
  return unknown;
}

atc::Options ToAtcOptions(const OptionMap &global_options, const OptionMap &build_options,
                          const std::string &graph_name, const Emulation &emulation) {
  OptionMap merged;
  for (const auto &[key, value] : global_options)
    if (!FlagFor(key).empty()) merged[key] = value;  // unknown global keys were warned about
  for (const auto &[key, value] : build_options) {
    if (FlagFor(key).empty()) {
      throw Error(ErrorCategory::kUsage, kBadOption,
                  "build option '" + key + "' = '" + value + "' is not an option of the offline build",
                  "Use the keys of ge::ir_option (ge/ge_ir_build.h), e.g. \"input_shape\" or "
                  "\"ge.exec.precision_mode\"");
    }
    merged[key] = value;
  }
  std::vector<std::string> words = BaseWords("aclgrphBuildModel", graph_name);
  for (const auto &[key, value] : merged) words.push_back("--" + FlagFor(key) + "=" + value);
  atc::Options options = Parse(words);
  options.emulation = emulation;
  return options;
}

}  // namespace openatc::ir_build
