// The "dump" section of GE's ACL config (aclInit's file, aclmdlSetDump's file), parsed and
// checked as GE checks it (keys, defaults and what OpenATC writes: docs/acl.md §8). Used by
// loader/mdl (src/dump_state.h).
#ifndef OPENATC_DUMP_DUMP_CONFIG_H_
#define OPENATC_DUMP_DUMP_CONFIG_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace openatc::dump {

enum class DumpMode { kInput, kOutput, kAll };

/// One dump_list entry: the model it names, and the op names of its "layer" list (ATC names or
/// original names from before fusion; empty: every op).
struct DumpModelEntry {
  std::string model_name;
  std::vector<std::string> layers;
};

struct DumpConfig {
  std::string path;                   ///< dump_path: an existing folder
  std::vector<DumpModelEntry> models; ///< dump_list entries with a model_name
  DumpMode mode = DumpMode::kOutput;  ///< dump_mode
  bool stats = false;                 ///< dump_data "stats" (default "tensor")
  /// dump_step: inclusive ranges; empty = every step.
  std::vector<std::pair<uint64_t, uint64_t>> steps;
  /// One line per key that OpenATC reads but does not act on (dump_op_switch on, dump_debug on,
  /// dump_level kernel, dump_scene, the blacklists ...), naming the key: the caller prints them.
  std::vector<std::string> warnings;

  /// Whether execution `step` (0-based, per loaded model) is dumped.
  bool StepSelected(uint64_t step) const;
  /// The dump_list entry for `model_name`, or null.
  const DumpModelEntry *Find(const std::string &model_name) const;
};

/// Parses and checks the value of the "dump" key of config file `file` (named in messages).
/// A bad section throws openatc::Error OA2306 naming the key, the value and what GE accepts
/// (aclmdl* turn it into ACL_ERROR_INVALID_DUMP_CONFIG).
DumpConfig ParseDumpConfig(const nlohmann::json &section, const std::string &file);

/// Parses dump_step ("0|5-10": '|'-separated steps and inclusive ranges a-b, at most 100
/// groups); OA2306 naming `file` on a malformed value.
std::vector<std::pair<uint64_t, uint64_t>> ParseDumpStep(const std::string &text, const std::string &file);

}  // namespace openatc::dump

#endif  // OPENATC_DUMP_DUMP_CONFIG_H_
