/**
 * @file openatc/compiler/target.h
 * --soc_version handling (docs/architecture.md "Targets"). "host" (any case) is the CPU reference
 * target, always available. Ascend names (docs/atc-flags.md §7, case-normalised) need CANN's RTC;
 * without it the resolution fails at once naming every path searched and `--soc_version host`.
 */
#ifndef OPENATC_COMPILER_TARGET_H_
#define OPENATC_COMPILER_TARGET_H_

#include <string>
#include <vector>

namespace openatc::compiler {

struct Target {
  std::string soc_version;  ///< canonical spelling: "host" or e.g. "Ascend910B1"
  std::string arch;         ///< host CPU architecture for "host"
  bool is_host() const { return soc_version == "host"; }
};

/// The accepted Ascend names, canonical spelling.
const std::vector<std::string> &AscendSocVersions();
/// Resolves a --soc_version value. Errors: E10054 when empty, E10001 for an unknown name (with the
/// accepted list), OA1301 for an Ascend name without CANN's RTC.
Target ResolveTarget(const std::string &soc_version);

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_TARGET_H_
