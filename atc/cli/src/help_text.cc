// AtcHelpText: atc's --help, generated from the flag table (one line per flag, grouped).
#include <string>

#include "flag_table.h"
#include "openatc/atc/options.h"

namespace openatc {
namespace atc {

std::string AtcHelpText() {
  std::string text =
      "Usage: atc --model=<file> --output=<prefix> --soc_version=<name> [--framework=1|5] [flags]\n"
      "       atc --mode=1 --om=<model.om> --json=<out.json>\n"
      "       atc --mode=3 --model=<file> --soc_version=<name> [--check_report=<file>]\n"
      "       atc --mode=5 --om=<ge_dump.txt> --json=<out.json>\n"
      "       atc --mode=6 --om=<model.om>\n"
      "Flags are written --name=value or --name value; -name and --name-with-dashes also work.\n";
  const FlagGroup groups[] = {FlagGroup::kInput, FlagGroup::kTarget, FlagGroup::kOutput, FlagGroup::kDebug,
                              FlagGroup::kCompat};
  const size_t kColumn = 40;
  for (FlagGroup group : groups) {
    text += "\n";
    text += FlagGroupTitle(group);
    text += ":\n";
    for (const FlagSpec &spec : AtcFlagTable()) {
      if (spec.group != group) continue;
      std::string left = std::string("  --") + spec.name;
      if (std::string(spec.name) == "help") left += ", -h";
      else if (spec.type == FlagType::kBool) left += "[=<bool>]";
      else if (spec.type == FlagType::kInt) left += "=<int>";
      else left += "=<str>";
      left += (left.size() + 2 <= kColumn) ? std::string(kColumn - left.size(), ' ') : std::string("  ");
      std::string line = left + spec.help;
      if (spec.default_text[0] != '\0') line += std::string(" (default: ") + spec.default_text + ")";
      text += line + "\n";
    }
  }
  return text;
}

}  // namespace atc
}  // namespace openatc
