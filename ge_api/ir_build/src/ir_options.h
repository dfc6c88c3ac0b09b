// GE's offline-build option maps as atc's command line (ge/ge_ir_build.h): every GE key becomes
// the atc flag that sets the same key (openatc/atc/options.h AtcFlagForGeOptionKey), and atc's
// own parser checks the values, so both front doors accept, refuse and record options alike.
#ifndef OPENATC_IR_BUILD_IR_OPTIONS_H_
#define OPENATC_IR_BUILD_IR_OPTIONS_H_

#include <string>
#include <vector>

#include "ir_state.h"
#include "openatc/atc/options.h"

namespace openatc::ir_build {

/// The keys of `global_options` no atc flag sets (GE warns about unknown global keys and goes
/// on); the others are checked as atc checks its flags (throws openatc::Error, kUsage).
std::vector<std::string> ValidateGlobalOptions(const OptionMap &global_options);

/// atc's options for compiling graph `graph_name`: mode 0, --framework 1, --model = the graph's
/// name (recorded in the OM's build record where atc records the file), the global options
/// overridden by `build_options`, `emulation`. A build key no flag sets is kBadOption
/// (GRAPH_PARAM_INVALID, as GE refuses it); a bad value is atc's error (kUsage).
atc::Options ToAtcOptions(const OptionMap &global_options, const OptionMap &build_options,
                          const std::string &graph_name, const Emulation &emulation);

}  // namespace openatc::ir_build

#endif  // OPENATC_IR_BUILD_IR_OPTIONS_H_
