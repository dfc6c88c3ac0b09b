/**
 * @file openatc/atc/driver.h
 * The atc tool behind its thin main: parses the flags, runs the mode, and turns every error into
 * the one message template on stderr plus ATC's own stdout lines (README.md "atc",
 * docs/atc-flags.md §6). Returns the process exit code (0 success, 255 failure, as ATC).
 */
#ifndef OPENATC_ATC_DRIVER_H_
#define OPENATC_ATC_DRIVER_H_

#include <optional>
#include <string>
#include <vector>

#include "openatc/atc/options.h"
#include "openatc/compiler/compiler.h"
#include "openatc/ir/graph.h"
#include "openatc/om/model.h"
#include "openatc/opp/deliverable.h"

namespace openatc::atc {

int RunAtc(int argc, const char *const *argv);

/// Mode 0: compile `options.model` into OmPathForOutput(options.output) and return that path.
/// Throws openatc::Error.
std::string CompileModel(const Options &options);

/// `--singleop`: builds one OM per op description of the JSON file into the folder --output
/// (created as needed) and returns the paths written. A failing op does not stop the others; the
/// last failure is thrown (openatc::Error) after the others were printed to stderr.
std::vector<std::string> BuildSingleOps(const Options &options);

// Mode 0's steps, also run in-process by GE's offline build API (ge_api/ir_build), so that a graph
// compiles to the same OM whichever front door it comes through.

/// The compiler's options for `options`: the target (ResolveTarget with options.emulation; throws
/// for a bad --soc_version before any work), the ge.* keys (GeOptionKeys) with the chip's
/// defaults, the build record (every flag that shapes the build, --model as given), the input
/// shapes; warns once per flag that has no effect on the host target.
compiler::CompileOptions CompileOptionsFor(const Options &options);
/// Loads ASCEND_CUSTOM_OPP_PATH's roots (warning about a root that holds no deliverable), then
/// `builtin_root` ("" = none), into `opp_set`. Throws openatc::Error (OA1201) for a bad .so.
void LoadCompileOppSet(opp::CompileOppSet &opp_set, const std::string &builtin_root);
/// Applies --out_nodes, compiles (compiler::CompileGraph) and runs --check_portable. Throws
/// openatc::Error naming options.model. With `original`, it also receives the graph compiled
/// without optimisation (CompileOptions::optimise off, name "<graph>_original": the model
/// --save_original_model writes); when that compile fails it is left empty with one warning.
om::Model CompileIrGraph(ir::Graph graph, const Options &options, const compiler::CompileOptions &copts,
                         const opp::CompileOppSet &opp_set, std::optional<om::Model> *original = nullptr);
/// --compress / --compress_weights as the OM writer's options.
om::WriteOptions OmWriteOptions(const Options &options);

/// The OM file `--output` names: `output` itself when it ends with ".om", else `output + ".om"`.
/// Throws kUsage E10001 for a value ending with '/', an existing folder, a bare ".om" file name,
/// or an OM path that is an existing folder. `output` must not be empty.
std::string OmPathForOutput(const std::string &output);

/// Mode 3: pre-check `options.model` and write the report (--check_report). Throws openatc::Error
/// (OA1603) when a problem was found, after writing the report.
void PreCheckModel(const Options &options);
/// Up to three registered op types close to `type` (after the OPP roots were loaded).
std::vector<std::string> ClosestRegisteredNames(const std::string &type);

/// The built-in operators' OPP root, relative to the running executable
/// (`<bin>/../opp/built-in`, resolved: openatc::opp::BuiltinOppRootBeside); "" when it does not exist.
std::string BuiltinOppRoot();

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_H_
