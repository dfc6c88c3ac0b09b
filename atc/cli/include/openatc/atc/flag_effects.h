/**
 * @file openatc/atc/flag_effects.h
 * Which of ATC's other flags take effect on which target: the one table (flag_effects.cc).
 * Every flag of Options::other_flags not marked there for the chosen target is accepted,
 * validated, recorded in the OM's build record, and warned about once by the driver.
 */
#ifndef OPENATC_ATC_FLAG_EFFECTS_H_
#define OPENATC_ATC_FLAG_EFFECTS_H_

#include <string>
#include <vector>

#include "openatc/atc/options.h"
#include "openatc/common/target.h"

namespace openatc {
namespace atc {

/// The given other flags (name order) that have no effect when compiling for `kind`.
std::vector<std::string> FlagsWithoutEffect(const Options &options, TargetKind kind);

/// One warning line per flag without effect: for modes 0 and 3 on `target`, for the other modes
/// every other flag given (none of them changes what modes 1, 5 and 6 do).
std::vector<std::string> FlagEffectWarnings(const Options &options, const Target *target);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_FLAG_EFFECTS_H_
