// ParseAtcOptions: ATC spellings -> CLI11 (one option per table row) -> checked Options.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flag_checks.h"
#include "flag_table.h"
#include "openatc/atc/options.h"
#include "openatc/common/error.h"
#include "parse_util.h"

namespace openatc {
namespace atc {
namespace {

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string ListText(const std::string &comma_list) {
  std::string out;
  for (char c : comma_list) out += (c == ',') ? std::string(", ") : std::string(1, c);
  return out;
}

bool InList(const std::string &value, const std::string &comma_list) {
  size_t begin = 0;
  while (begin <= comma_list.size()) {
    size_t end = comma_list.find(',', begin);
    if (end == std::string::npos) end = comma_list.size();
    if (comma_list.compare(begin, end - begin, value) == 0 && value.size() == end - begin) return true;
    begin = end + 1;
  }
  return false;
}

[[noreturn]] void BadValue(const std::string &flag, const std::string &value, const std::string &why,
                           const std::string &hint) {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + value + "' for --" + flag + ": " + why,
              hint);
}

// Checks one given value against its row's type and allowed set; returns the normalized value.
std::string CheckValue(const FlagSpec &spec, const std::string &raw) {
  std::string value = raw;
  if (spec.type == FlagType::kBool) {
    std::string v = Lower(raw);
    if (v == "true" || v == "1") return "true";
    if (v == "false" || v == "0") return "false";
    BadValue(spec.name, raw, "expected true or false", std::string("Write --") + spec.name + " or --" +
                                                           spec.name + "=false");
  }
  if (spec.type == FlagType::kInt) {
    int64_t n = 0;
    if (!ParseStrictInt64(raw, &n) || n < INT32_MIN || n > INT32_MAX)
      BadValue(spec.name, raw, "expected an integer", "See 'atc --help'");
    value = std::to_string(n);
  }
  if (std::string(spec.name) == "log") value = Lower(value);
  if (spec.allowed[0] != '\0' && !InList(value, spec.allowed))
    throw Error(ErrorCategory::kUsage, AllowedValueCode(spec.name),
                "invalid value '" + raw + "' for --" + spec.name + ": allowed values are " + ListText(spec.allowed),
                "Pass one of the allowed values");
  return value;
}

int CheckMode(const std::string &raw) {
  int64_t n = 0;
  if (!ParseStrictInt64(raw, &n)) BadValue("mode", raw, "expected an integer", "See 'atc --help'");
  if (n == 7)
    throw Error(ErrorCategory::kUsage, "E10001", "--mode=7 (OM2 package) is not supported by OpenATC",
                "Use --mode=0 to build an .om file");
  if (n == 30)
    throw Error(ErrorCategory::kUsage, "E10001",
                "--mode=30 (nano .exeom for Ascend035) is not supported by OpenATC",
                "Use --mode=0 to build an .om file");
  if (n != 0 && n != 1 && n != 3 && n != 5 && n != 6)
    BadValue("mode", raw, "allowed values are 0, 1, 3, 5, 6", "See 'atc --help' for what each mode does");
  return static_cast<int>(n);
}

int CheckFramework(const std::string &raw) {
  int64_t n = 0;
  if (!ParseStrictInt64(raw, &n) || (n != 1 && n != 5))
    BadValue("framework", raw, "allowed values are 1 (GE IR: AIR, its JSON form or a GE text dump) and 5 (ONNX)",
             "Caffe (0) and TensorFlow (3) models are not supported; convert them to ONNX");
  return static_cast<int>(n);
}

// .air/.json/.txt/.pbtxt -> 1, .onnx -> 5, else -1 (docs/atc-flags.md §3, JSON and text being our
// extension).
int FrameworkFromExtension(const std::string &path) {
  size_t dot = path.rfind('.');
  size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return -1;
  std::string ext = Lower(path.substr(dot));
  if (ext == ".air" || ext == ".json" || ext == ".txt" || ext == ".pbtxt") return 1;
  if (ext == ".onnx") return 5;
  return -1;
}

void Require(const std::string &value, const std::string &flag, const std::string &hint) {
  if (value.empty())
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --" + flag + " is empty", hint);
}

void CheckRequired(Options &o) {
  const bool compile = (o.mode == 0 || o.mode == 3);
  if (compile) {
    Require(o.model, "model", "Pass --model <graph file> (.air, .json, .txt, .pbtxt or .onnx)");
    if (o.framework == -1) {
      int inferred = FrameworkFromExtension(o.model);
      if (inferred == -1)
        throw Error(ErrorCategory::kUsage, "E10007",
                    "--framework is not given and cannot be inferred from the model file name '" + o.model + "'",
                    "Pass --framework 1 for GE IR (.air, .json, .txt, .pbtxt) or --framework 5 for ONNX");
      o.framework = inferred;
      o.framework_inferred = true;
    }
    if (o.mode == 0) Require(o.output, "output", "Pass --output <path prefix>; .om is appended");
    Require(o.soc_version, "soc_version", "Pass --soc_version host to build for this CPU");
    return;
  }
  if (o.mode == 1) {
    Require(o.om, "om", "Pass --om <model.om> (or a source model with --framework)");
    Require(o.json, "json", "Pass --json <output file>");
  } else if (o.mode == 5) {
    Require(o.om, "om", "Pass --om <GE text dump, e.g. ge_proto_*.txt>");
    Require(o.json, "json", "Pass --json <output file>");
  } else if (o.mode == 6) {
    Require(o.om, "om", "Pass --om <model.om>");
  }
  // Modes 1/5/6 read --om; a source model given there (mode 1) may tell its framework by extension.
  if (o.framework == -1 && o.mode == 1) {
    int inferred = FrameworkFromExtension(!o.model.empty() ? o.model : o.om);
    if (inferred != -1) {
      o.framework = inferred;
      o.framework_inferred = true;
    }
  }
}

}  // namespace

Options ParseAtcOptions(int argc, const char *const *argv) {
  std::vector<std::string> words = NormalizeAtcArgv(argc, argv);

  // The one table, declared to CLI11 with its groups. Every value is kept as text and checked
  // below, so errors carry our codes and wording.
  CLI::App app("OpenATC offline model compiler", "atc");
  app.set_help_flag();
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::vector<std::pair<const FlagSpec *, CLI::Option *>> declared;
  for (const FlagSpec &spec : AtcFlagTable()) {
    CLI::Option *opt = app.add_option(std::string("--") + spec.name, spec.help);
    opt->group(FlagGroupTitle(spec.group));
    opt->type_size(1);
    opt->expected(1);
    if (spec.default_text[0] != '\0') opt->default_str(spec.default_text);
    declared.emplace_back(&spec, opt);
  }
  std::vector<std::string> args(words.rbegin(), words.rend());
  if (!args.empty()) args.pop_back();  // argv[0]
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    throw Error(ErrorCategory::kUsage, "E10001", std::string("cannot parse the command line: ") + e.what(),
                "Try 'atc --help' for the list of flags");
  }

  Options o;
  for (const auto &[spec, opt] : declared) {
    if (opt->count() == 0) continue;
    const std::string raw = opt->results().empty() ? std::string() : opt->results().back();
    const std::string name = spec->name;
    if (name == "help") {
      o.help = (CheckValue(*spec, raw) == "true");
      continue;
    }
    if (name == "mode") { o.mode = CheckMode(raw); continue; }
    if (name == "framework") { o.framework = CheckFramework(raw); continue; }
    if (name == "auto_tune_mode")
      throw Error(ErrorCategory::kUsage, "E10001", "--auto_tune_mode is deprecated and no longer supported",
                  "Remove --auto_tune_mode from the command line");
    const std::string value = CheckValue(*spec, raw);
    if (name == "model") o.model = value;
    else if (name == "output") o.output = value;
    else if (name == "soc_version") o.soc_version = value;
    else if (name == "input_shape") o.input_shape = value;
    else if (name == "out_nodes") o.out_nodes_text = value;
    else if (name == "om") o.om = value;
    else if (name == "json") o.json = value;
    else if (name == "log") o.log = value;
    else if (name == "check_portable") o.check_portable = (value == "true");
    else if (name == "compress_weights") o.compress_weights = (value == "true");
    else if (name == "check_report") o.check_report = value;
    else if (name == "compress") {
      o.compress = std::stoi(value);
      if (o.compress < 0 || o.compress > 22)
        BadValue("compress", raw, "expected a zstd level in 0..22", "0 turns compression off; 3 is the default");
    } else {
      o.other_flags[name] = value;
    }
  }
  if (o.help) return o;
  o.input_shapes = ParseInputShape(o.input_shape);
  o.out_nodes = ParseOutNodes(o.out_nodes_text);
  if (o.other_flags.count("singleop")) {
    CheckSingleOp(o);  // its own required flags: no --model (docs/atc-deploy-flags.md §5)
    return o;
  }
  CheckRequired(o);
  CheckDeploymentFlags(o);
  if (auto range = o.other_flags.find("input_shape_range"); range != o.other_flags.end()) {
    // The deprecated form overrides --input_shape for the inputs it names (docs/atc-deploy-flags.md).
    for (InputShape &r : ParseInputShapeRange(range->second)) {
      auto same = std::find_if(o.input_shapes.begin(), o.input_shapes.end(),
                               [&](const InputShape &s) { return s.name == r.name; });
      if (same != o.input_shapes.end()) *same = std::move(r);
      else o.input_shapes.push_back(std::move(r));
    }
  }
  return o;
}

}  // namespace atc
}  // namespace openatc
