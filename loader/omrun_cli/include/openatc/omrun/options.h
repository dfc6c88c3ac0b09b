/**
 * @file openatc/omrun/options.h
 * omrun's command line (README.md "omrun"): the parsed options and the help text.
 *
 * Every failure throws openatc::Error with category kUsage (omrun exit 2) and one of:
 *   E10001  invalid value (bad number, out of range, unknown --outfmt/--log value, empty list
 *           element, a value flag without its value)
 *   E10054  the model file (MODEL.om) is missing
 *   OA0001  unknown flag (the message ends with "Try 'omrun --help' for the list of flags.")
 *   OA0002  more than one positional argument
 */
#ifndef OPENATC_OMRUN_OPTIONS_H_
#define OPENATC_OMRUN_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace openatc {
namespace omrun {

struct Options {
  std::string model;                    ///< positional MODEL.om
  /// --input: files in model input order (.npy, .bin, .pb); empty = seeded random inputs.
  std::vector<std::string> inputs;
  std::string output_dir;               ///< --output DIR; empty = write nothing
  std::string outfmt = "NPY";           ///< --outfmt NPY|BIN|TXT, stored uppercase
  std::vector<std::string> expected_outputs;  ///< --expected_output: files in model output order
  double atol = 1e-7;                   ///< --atol: absolute tolerance, >= 0
  double rtol = 1e-3;                   ///< --rtol: relative tolerance, >= 0
  int loop = 1;                         ///< --loop N >= 1: timed runs
  int warmup = 0;                       ///< --warmup N >= 0: untimed runs first
  int threads = 0;                      ///< --threads N >= 0: intra-op threads; 0 = all cores
  uint64_t random_seed = 0;             ///< --random_seed: seed of the random inputs
  std::string profile;                  ///< --profile FILE: Chrome trace of every op node of every run
  std::string dump_dir;                 ///< --dump DIR: every op node's outputs of the first run
  std::string compare;                  ///< --compare OTHER: an OM or a --dump folder to compare node by node
  /// --dynamic_batch / --dynamic_hw / --dynamic_dims: the flag given (empty: none; the largest
  /// gear runs) and the gear values, each >= 1.
  std::string gear_flag;
  std::vector<int64_t> gear;
  bool info = false;                    ///< --info: print the model's interface, run nothing
  std::string log = "error";            ///< --log: debug, info, warning, error, null (lowercase)
  bool help = false;                    ///< --help / -h: print OmrunHelpText(), exit 0; nothing else checked
};

/// Parses omrun's argv (argv[0] skipped). Flags are `--name=value` or `--name value` (a value
/// flag takes the next word even when it starts with '-': `--atol -1` reads -1, then refused
/// as negative); '-' inside a flag name reads as '_' (`--expected-output`); `-h` is `--help`.
/// Bool flags (--info, --help) take no separate value (`--info=false` works). The last of
/// repeated flags wins. `--` ends the flags. Lists are comma-separated; empty elements are
/// refused. Throws openatc::Error (kUsage) with the codes above.
Options ParseOmrunOptions(int argc, const char *const *argv);

/// The `--help` text: usage line, then one line per flag. Ends with a newline.
std::string OmrunHelpText();

}  // namespace omrun
}  // namespace openatc

#endif  // OPENATC_OMRUN_OPTIONS_H_
