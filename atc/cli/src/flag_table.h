// The one table of atc's flags (internal): name, type, group, default, allowed values, help line.
// ATC's flags and our own (check_portable, compress, compress_weights): docs/atc-flags.md §5.
#ifndef OPENATC_ATC_CLI_FLAG_TABLE_H_
#define OPENATC_ATC_CLI_FLAG_TABLE_H_

#include <string>
#include <vector>

namespace openatc {
namespace atc {

enum class FlagType { kString, kInt, kBool };
enum class FlagGroup { kInput, kTarget, kOutput, kDebug, kCompat };

struct FlagSpec {
  const char *name;          ///< canonical name, no dashes
  FlagType type;
  FlagGroup group;
  const char *default_text;  ///< shown in --help; "" = none
  /// Comma-separated allowed values checked after parsing ("" = any value of the type).
  const char *allowed;
  const char *help;          ///< one-line description
};

/// All flags in help order (grouped). kCompat flags go to Options::other_flags.
const std::vector<FlagSpec> &AtcFlagTable();
/// nullptr when `name` (canonical, '_' form) is not a flag.
const FlagSpec *FindAtcFlag(const std::string &name);
/// Group title used by CLI11 and the help text ("Input", ..., "Accepted for compatibility").
const char *FlagGroupTitle(FlagGroup group);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_CLI_FLAG_TABLE_H_
