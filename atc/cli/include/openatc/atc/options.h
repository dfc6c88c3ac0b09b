/**
 * @file openatc/atc/options.h
 * atc's command line: the parsed options, the help text, the `ge.*` option keys the flags map
 * to, and the `--input_shape` / `--out_nodes` parsers. Facts of ATC's flags (spellings, modes,
 * defaults, allowed values) are in docs/atc-flags.md §1-§6; our command line in README.md "atc",
 * the error form in README.md "Error codes".
 *
 * Every failure throws openatc::Error with category kUsage and one of these codes:
 *   E10001  invalid value (bad number, value outside the allowed set, bad --input_shape piece,
 *           a value flag given without its value, a refused mode such as 7 or 30)
 *   E10007  --framework missing and not inferable from the model file's extension
 *   E10054  a parameter the mode requires is empty
 *   E10003-E10056, E10052  the deployment flags' own rules, with ATC's codes
 *           (docs/atc-deploy-flags.md: gears, precision modes and their files, --output_type,
 *           --insert_op_conf, --singleop, --external_weight, --allow_hf32, ...)
 *   OA0001  unknown flag (the message ends with "Try 'atc --help' for the list of flags.")
 *   OA0002  a non-option argument (atc takes no positional arguments)
 * (--singleop builds its models in the driver: atc/driver/src/singleop_build.cc.)
 */
#ifndef OPENATC_ATC_OPTIONS_H_
#define OPENATC_ATC_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "openatc/common/target.h"

namespace openatc {
namespace atc {

/// One piece of `--input_shape` (docs/atc-flags.md §4): "name:d0,d1,...".
struct InputShape {
  std::string name;  ///< input (Data node) name; the text before the LAST ':' of the piece
  /// One entry per dim: the fixed size, or -1 for an unknown dim ("-1") and for a range ("lo~hi").
  std::vector<int64_t> dims;
  /// One pair per dim: {d, d} for a fixed dim, {0, -1} for "-1" (any size >= 0; -1 = unbounded,
  /// as GE writes shape ranges), {lo, hi} for "lo~hi" (hi may be -1 = unbounded).
  std::vector<std::pair<int64_t, int64_t>> ranges;
  bool scalar = false;  ///< true when nothing follows ':' ("a:"): a rank-0 input
};

/// One `--out_nodes` entry "node:idx" (docs/atc-flags.md §4): output index `index` of node `node`.
struct OutNode {
  std::string node;
  int index = 0;
};

/// Everything atc's command line says. Defaults are ATC's, except `log` ("error";
/// docs/atc-flags.md §5).
struct Options {
  int mode = 0;              ///< 0 compile, 1 OM/model -> JSON, 3 pre-check, 5 text dump -> JSON, 6 OM summary
  std::string model;         ///< --model: source graph file
  /// --framework: 1 = GE IR (AIR, JSON form, text dump), 5 = ONNX, -1 = not given and not inferred.
  /// When not given it is inferred from the extension of --model (and, in mode 1, of a --om that is
  /// not ".om"): .air/.json/.txt/.pbtxt -> 1, .onnx -> 5 (case-insensitive).
  int framework = -1;
  bool framework_inferred = false;  ///< true when `framework` came from the file extension
  std::string output;        ///< --output: path prefix; ".om" is appended by the driver
  std::string soc_version;   ///< --soc_version: "host" or an Ascend name (checked by the driver)
  std::string input_shape;   ///< --input_shape as given
  std::vector<InputShape> input_shapes;  ///< --input_shape parsed (empty when not given)
  std::string out_nodes_text;            ///< --out_nodes as given
  std::vector<OutNode> out_nodes;        ///< --out_nodes parsed
  std::string om;            ///< --om: input of modes 1, 5, 6
  std::string json;          ///< --json: output of modes 1, 5
  std::string log = "error"; ///< --log: debug, info, warning, error, null (stored lowercase)
  bool check_portable = false;  ///< --check_portable: round-trip every PortableOp's Serialize/Deserialize
  int compress = 3;             ///< --compress: zstd level 0..22 for artifact/deliverable segments; 0 = off
  bool compress_weights = false;  ///< --compress_weights: also compress weight segments
  std::string check_report = "check_result.json";  ///< --check_report: mode 3 report path
  bool help = false;         ///< --help / -h given: print AtcHelpText(), exit 0; no other checks ran
  /// The other ATC flags of docs/atc-flags.md §5 that were given on the command line (canonical
  /// name without dashes, e.g. "precision_mode" -> "force_fp32"); bool flags given bare hold
  /// "true". Recorded in the OM's build record; see GeOptionKeys for what they mean to ops.
  std::map<std::string, std::string> other_flags;
  /// Not a flag: argv joined by spaces, as --display_model_info prints it ("Original Atc command
  /// line"). Set by RunAtc; empty when ParseAtcOptions alone is called.
  std::string command_line;
  /// Not a flag: the emulation switch (OPENATC_EMULATION), read once by RunAtc at start and
  /// passed to ResolveTarget. Off when ParseAtcOptions alone is called.
  openatc::Emulation emulation;
};

/// Parses atc's argv (argv[0] is the program name and is skipped). Spellings (docs/atc-flags.md
/// §1): `--name=value`, `--name value`, `-name` (2+ letters) for `--name`, `-h` for `--help`, and
/// '-' inside a flag name read as '_' (`--soc-version` == `--soc_version`). A value flag given as a
/// separate word always takes the next word as its value, even one starting with '-'
/// (`--input_shape -1,3` is rejected by the shape parser, not read as a flag), as getopt_long does.
/// Bool flags take no separate value; `--flag=true|false|1|0` is accepted.
/// A repeated flag: the last value wins. With --help, only the spelling checks run.
/// Throws openatc::Error (kUsage) with the codes listed at the top of this file.
Options ParseAtcOptions(int argc, const char *const *argv);

/// The `--help` text: usage lines, then one line per flag grouped as Input, Target, Output,
/// Debug, Accepted for compatibility. Ends with a newline.
std::string AtcHelpText();

/// The GE option keys (GE `inc/external/ge/ge_api_types.h`, namespaces `ir_option` and
/// `configure_option`) that the options set, as `OpCompileContext::GetOption` answers them.
/// Always present: "ge.jit_compile" (--jit_compile, default "1"), "ge.exec.disableReuseMemory"
/// (--disable_reuse_memory, default "0"), "log" (--log).
/// Present when known: "ge.socVersion" (--soc_version), "ge.frameworkType" (--framework, given or
/// inferred), "input_shape" (--input_shape text), "ge.outputNodeName" (--out_nodes text),
/// "ge.engineType" (--core_type: AiCore -> "AIcoreEngine", VectorCore -> "VectorEngine").
/// Every other mapped flag (table in ge_option_keys.cc, e.g. --precision_mode ->
/// "ge.exec.precision_mode", --op_debug_level -> "ge.opDebugLevel") sets its key, value unchanged,
/// only when given. A key nobody set is absent from the map.
std::map<std::string, std::string> GeOptionKeys(const Options &options);

/// The atc flag (canonical name, no dashes) whose value GeOptionKeys puts under GE option `key`
/// ("ge.socVersion" -> "soc_version", "ge.exec.precision_mode" -> "precision_mode"); "" for a key
/// no flag sets. GE's offline build API (ge_api/ir_build) turns its option maps into atc flags
/// with it, so both front doors validate and record options the same way.
std::string AtcFlagForGeOptionKey(const std::string &key);

/// Parses `--input_shape` text (docs/atc-flags.md §4): pieces separated by ';' (empty pieces
/// ignored), each "name:dims" with dims separated by ','; a dim is an integer >= 0, -1, or "lo~hi"
/// with 0 <= lo <= hi (hi = -1: unbounded). Names must be unique. Throws E10001 naming the bad
/// piece.
std::vector<InputShape> ParseInputShape(const std::string &text);
/// The deprecated --input_shape_range "name:[d0,d1,...];..." (dims as in --input_shape), E10001
/// naming the piece on a malformed one. Its entries replace --input_shape's for the inputs they
/// name (ParseAtcOptions), as in ATC.
std::vector<InputShape> ParseInputShapeRange(const std::string &text);

/// Parses `--out_nodes` text "node:idx;node:idx" (idx an integer >= 0; empty pieces ignored).
/// Throws E10001 naming the bad piece.
std::vector<OutNode> ParseOutNodes(const std::string &text);

/// The argv rewriting ParseAtcOptions does before CLI11 sees it (exposed for tests): every flag
/// becomes one word "--canonical_name=value" ("--name" alone for a bare bool flag is written
/// "--name=true"; an empty value is written as two words, "--name" and "", because CLI11 2.1.2
/// refuses "--name="). Throws OA0001 / OA0002 / E10001 (missing value) as ParseAtcOptions.
std::vector<std::string> NormalizeAtcArgv(int argc, const char *const *argv);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_OPTIONS_H_
