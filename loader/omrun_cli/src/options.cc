// ParseOmrunOptions: flag spellings normalized, CLI11 parse (one option per table row plus the
// positional model), then every value checked with our codes and wording.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flag_table.h"
#include "openatc/common/error.h"
#include "openatc/omrun/options.h"

namespace openatc {
namespace omrun {
namespace {

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

[[noreturn]] void BadValue(const std::string &flag, const std::string &value, const std::string &why,
                           const std::string &hint = "See 'omrun --help'") {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + value + "' for --" + flag + ": " + why, hint);
}

// Rewrites every flag to one word "--name=value"; positional words go to `positionals`.
std::vector<std::string> Normalize(int argc, const char *const *argv, std::vector<std::string> *positionals) {
  std::vector<std::string> out;
  bool flags_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i] ? argv[i] : "";
    if (flags_done || word.size() < 2 || word[0] != '-') {
      positionals->push_back(word);
      continue;
    }
    if (word == "--") {
      flags_done = true;
      continue;
    }
    size_t start = (word[1] == '-') ? 2 : 1;
    std::string body = word.substr(start), name = body, value;
    size_t eq = body.find('=');
    bool has_value = (eq != std::string::npos);
    if (has_value) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
    }
    for (char &c : name)
      if (c == '-') c = '_';
    if (start == 1 && name == "h") name = "help";
    const OmrunFlag *flag = (start == 2 || name == "help") ? FindOmrunFlag(name) : nullptr;
    if (flag == nullptr) {
      throw Error(ErrorCategory::kUsage, "OA0001",
                  "unknown command line flag '" + (has_value ? word.substr(0, eq + start) : word) + "'",
                  "Try 'omrun --help' for the list of flags");
    }
    if (flag->is_bool) {
      if (!has_value) value = "true";
    } else if (!has_value) {
      if (i + 1 >= argc || argv[i + 1] == nullptr)
        throw Error(ErrorCategory::kUsage, "E10001", std::string("the flag --") + flag->name + " is missing its value",
                    std::string("Write --") + flag->name + " <" + flag->placeholder + ">");
      value = argv[++i];
    }
    if (value.empty()) {
      // CLI11 2.1.2 refuses "--name=" but takes an empty separate word as the value.
      out.push_back(std::string("--") + flag->name);
      out.emplace_back();
    } else {
      out.push_back(std::string("--") + flag->name + "=" + value);
    }
  }
  return out;
}

bool ToBool(const std::string &flag, const std::string &raw) {
  std::string v = Lower(raw);
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  BadValue(flag, raw, "expected true or false");
}

long long ToInt(const std::string &flag, const std::string &raw, long long lo, long long hi) {
  size_t i = (!raw.empty() && (raw[0] == '-' || raw[0] == '+')) ? 1 : 0;
  bool digits = i < raw.size();
  for (size_t k = i; k < raw.size(); ++k) digits = digits && std::isdigit(static_cast<unsigned char>(raw[k]));
  errno = 0;
  long long v = digits ? std::strtoll(raw.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE) BadValue(flag, raw, "expected an integer");
  if (v < lo || v > hi)
    BadValue(flag, raw, "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

double ToTolerance(const std::string &flag, const std::string &raw) {
  errno = 0;
  char *end = nullptr;
  double v = raw.empty() ? 0.0 : std::strtod(raw.c_str(), &end);
  if (raw.empty() || end != raw.c_str() + raw.size() || errno == ERANGE || !std::isfinite(v))
    BadValue(flag, raw, "expected a number such as 1e-5");
  if (v < 0) BadValue(flag, raw, "a tolerance cannot be negative");
  return v;
}

std::vector<std::string> ToList(const std::string &flag, const std::string &raw) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (true) {
    size_t pos = raw.find(',', begin);
    std::string item = raw.substr(begin, pos == std::string::npos ? std::string::npos : pos - begin);
    if (item.empty())
      BadValue(flag, raw, "element " + std::to_string(items.size()) + " of the list is empty",
               "Separate files with single commas, e.g. --" + flag + " a.npy,b.npy");
    items.push_back(item);
    if (pos == std::string::npos) break;
    begin = pos + 1;
  }
  return items;
}

// --dynamic_batch N, --dynamic_hw H,W, --dynamic_dims D1,D2,...: positive integers.
std::vector<int64_t> ToGear(const std::string &flag, const std::string &raw) {
  const char *example = flag == "dynamic_batch" ? "--dynamic_batch 4" : flag == "dynamic_hw" ? "--dynamic_hw 224,224" : "--dynamic_dims 1,64";
  std::vector<int64_t> values;
  for (const std::string &item : ToList(flag, raw)) {
    bool digits = !item.empty() && item.size() <= 9;
    for (char c : item) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits || std::stoll(item) < 1) BadValue(flag, raw, "'" + item + "' is not an integer >= 1", std::string("Write e.g. ") + example);
    values.push_back(std::stoll(item));
  }
  if (flag == "dynamic_batch" && values.size() != 1) BadValue(flag, raw, "give one batch size", std::string("Write e.g. ") + example);
  if (flag == "dynamic_hw" && values.size() != 2) BadValue(flag, raw, "give the height and the width", std::string("Write e.g. ") + example);
  return values;
}

}  // namespace

Options ParseOmrunOptions(int argc, const char *const *argv) {
  std::vector<std::string> positionals;
  std::vector<std::string> words = Normalize(argc, argv, &positionals);

  CLI::App app("OpenATC OM runner", "omrun");
  app.set_help_flag();
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::vector<std::pair<const OmrunFlag *, CLI::Option *>> declared;
  for (const OmrunFlag &f : OmrunFlagTable()) {
    CLI::Option *opt = app.add_option(std::string("--") + f.name, f.help);
    opt->expected(1);
    declared.emplace_back(&f, opt);
  }
  std::vector<std::string> args(words.rbegin(), words.rend());
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    throw Error(ErrorCategory::kUsage, "E10001", std::string("cannot parse the command line: ") + e.what(),
                "Try 'omrun --help' for the list of flags");
  }

  Options o;
  for (const auto &[flag, opt] : declared) {
    if (opt->count() == 0) continue;
    const std::string raw = opt->results().empty() ? std::string() : opt->results().back();
    const std::string name = flag->name;
    if (name == "help") o.help = ToBool(name, raw);
    else if (name == "info") o.info = ToBool(name, raw);
    else if (name == "dynamic_batch" || name == "dynamic_hw" || name == "dynamic_dims") {
      if (!o.gear_flag.empty())
        throw Error(ErrorCategory::kUsage, "E10001", "--" + o.gear_flag + " and --" + name + " cannot be used together",
                    "Choose the gear with one of --dynamic_batch, --dynamic_hw, --dynamic_dims");
      o.gear_flag = name;
      o.gear = ToGear(name, raw);
    }
    else if (name == "input") o.inputs = ToList(name, raw);
    else if (name == "output") {
      if (raw.empty()) BadValue(name, raw, "the folder name is empty");
      o.output_dir = raw;
    } else if (name == "profile") {
      if (raw.empty()) BadValue(name, raw, "the file name is empty");
      o.profile = raw;
    } else if (name == "dump") {
      if (raw.empty()) BadValue(name, raw, "the folder name is empty");
      o.dump_dir = raw;
    } else if (name == "compare") {
      if (raw.empty()) BadValue(name, raw, "the OM or folder name is empty");
      o.compare = raw;
    } else if (name == "outfmt") {
      std::string v = raw;
      for (char &c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (v != "NPY" && v != "BIN" && v != "TXT") BadValue(name, raw, "allowed values are NPY, BIN, TXT");
      o.outfmt = v;
    } else if (name == "expected_output") o.expected_outputs = ToList(name, raw);
    else if (name == "atol") o.atol = ToTolerance(name, raw);
    else if (name == "rtol") o.rtol = ToTolerance(name, raw);
    else if (name == "loop") o.loop = static_cast<int>(ToInt(name, raw, 1, 1000000000));
    else if (name == "warmup") o.warmup = static_cast<int>(ToInt(name, raw, 0, 1000000000));
    else if (name == "threads") o.threads = static_cast<int>(ToInt(name, raw, 0, 4096));
    else if (name == "random_seed") {
      if (!raw.empty() && raw[0] == '-') BadValue(name, raw, "expected an integer >= 0");
      errno = 0;
      char *end = nullptr;
      unsigned long long v = raw.empty() ? 0 : std::strtoull(raw.c_str(), &end, 10);
      if (raw.empty() || end != raw.c_str() + raw.size() || errno == ERANGE || !std::isdigit(static_cast<unsigned char>(raw[0])))
        BadValue(name, raw, "expected an integer in 0..18446744073709551615");
      o.random_seed = v;
    } else if (name == "log") {
      std::string v = Lower(raw);
      if (v != "debug" && v != "info" && v != "warning" && v != "error" && v != "null")
        BadValue(name, raw, "allowed values are debug, info, warning, error, null");
      o.log = v;
    }
  }
  if (o.help) return o;
  if (positionals.size() > 1)
    throw Error(ErrorCategory::kUsage, "OA0002",
                "unexpected argument '" + positionals[1] + "': omrun takes one model file",
                "Give the inputs with --input a.npy,b.npy");
  if (positionals.empty() || positionals[0].empty())
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter MODEL.om is missing",
                "Run omrun <model.om> [flags]; build the OM with atc");
  o.model = positionals[0];
  return o;
}

}  // namespace omrun
}  // namespace openatc
