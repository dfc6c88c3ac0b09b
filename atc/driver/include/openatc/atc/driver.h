/**
 * @file openatc/atc/driver.h
 * The atc tool behind its thin main: parses the flags, runs the mode, and turns every error into
 * the one message template on stderr plus ATC's own stdout lines (shared/cli.md). Returns the
 * process exit code (0 success, 255 failure, as ATC).
 */
#ifndef OPENATC_ATC_DRIVER_H_
#define OPENATC_ATC_DRIVER_H_

#include <string>
#include <vector>

#include "openatc/atc/options.h"

namespace openatc::atc {

int RunAtc(int argc, const char *const *argv);

/// Mode 0: compile `options.model` into `<options.output>.om`. Throws openatc::Error.
void CompileModel(const Options &options);

/// Mode 3: pre-check `options.model` and write the report (--check_report). Throws openatc::Error
/// (OA1603) when a problem was found, after writing the report.
void PreCheckModel(const Options &options);
/// Up to three registered op types close to `type` (after the OPP roots were loaded).
std::vector<std::string> ClosestRegisteredNames(const std::string &type);

/// The built-in operators' OPP root, relative to the running executable
/// (`<bin>/../opp/builtin`); "" when it does not exist.
std::string BuiltinOppRoot();

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_H_
