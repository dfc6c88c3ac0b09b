// ATC's flag spellings (docs/atc-flags.md §1) rewritten to one CLI11-friendly form before CLI11
// sees argv: "-name", "--name value", "--name-with-dashes" all become "--canonical_name=value".
#include <string>
#include <vector>

#include "flag_table.h"
#include "openatc/atc/options.h"
#include "openatc/common/error.h"

namespace openatc {
namespace atc {

std::vector<std::string> NormalizeAtcArgv(int argc, const char *const *argv) {
  std::vector<std::string> out;
  if (argc <= 0 || argv == nullptr) return out;
  out.emplace_back(argv[0] ? argv[0] : "atc");
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i] ? argv[i] : "";
    if (word.size() < 2 || word[0] != '-' || word == "--") {
      throw Error(ErrorCategory::kUsage, "OA0002",
                  "unexpected argument '" + word + "': atc takes no positional arguments",
                  "Give every value after its flag, e.g. --model=" + word);
    }
    // Strip one or two leading dashes; "-h" is --help, "-name" (2+ letters) is --name.
    size_t start = (word[1] == '-') ? 2 : 1;
    std::string body = word.substr(start);
    std::string name = body, value;
    bool has_value = false;
    size_t eq = body.find('=');
    if (eq != std::string::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    for (char &c : name)
      if (c == '-') c = '_';
    if (start == 1 && name == "h") name = "help";
    const FlagSpec *spec = name.empty() ? nullptr : FindAtcFlag(name);
    if (spec == nullptr) {
      std::string shown = has_value ? word.substr(0, eq + start) : word;
      throw Error(ErrorCategory::kUsage, "OA0001", "unknown command line flag '" + shown + "'",
                  "Try 'atc --help' for the list of flags");
    }
    if (spec->type == FlagType::kBool) {
      if (!has_value) value = "true";
    } else if (!has_value) {
      // As getopt_long: a value flag takes the next word, whatever it starts with.
      if (i + 1 >= argc || argv[i + 1] == nullptr) {
        throw Error(ErrorCategory::kUsage, "E10001",
                    std::string("the flag --") + spec->name + " is missing its value",
                    std::string("Write --") + spec->name + "=<value> or --" + spec->name + " <value>");
      }
      value = argv[++i];
    }
    if (value.empty()) {
      // CLI11 2.1.2 refuses "--name=" but takes an empty separate word as the value.
      out.push_back(std::string("--") + spec->name);
      out.emplace_back();
    } else {
      out.push_back(std::string("--") + spec->name + "=" + value);
    }
  }
  return out;
}

}  // namespace atc
}  // namespace openatc
