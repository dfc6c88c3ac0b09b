/**
 * @file openatc/common/target.h
 * The one target record of OpenATC (docs/architecture.md "Targets"): what a model is compiled for and runs
 * on. It is decided once, from atc's --soc_version (ResolveTarget), then passed explicitly: to
 * the compiler (compiler::CompileOptions::target; Compile's platform facts), to the RTC through
 * the device state of libascendcl.so (openatc::rt::SetCompileTarget, device/rt), recorded in the
 * OM (om::Model::target: soc_version + arch; the kind is derived from them, TargetFromRecord) and
 * checked once at load (loader/runtime/src/model_loader.cc). Never passed through environment
 * variables the process sets for itself.
 *
 * Kinds:
 *   kHost           the host reference: soc_version "host", arch = this CPU ("x86_64", "aarch64").
 *   kAscendCann     an Ascend chip through CANN (its RTC at compile time, its runtime at load):
 *                   soc_version a canonical name of AscendSocVersions(), arch "".
 *   kAscendEmulated an Ascend chip emulated on the host. Reserved: nothing yields it yet (the
 *                   emulation issue fills it, with OPENATC_EMULATION and its facts table), and an
 *                   OM cannot record it (om_format refuses to write it).
 */
#ifndef OPENATC_COMMON_TARGET_H_
#define OPENATC_COMMON_TARGET_H_

#include <optional>
#include <string>
#include <vector>

namespace openatc {

enum class TargetKind { kHost, kAscendCann, kAscendEmulated };

struct Target {
  TargetKind kind = TargetKind::kHost;
  std::string soc_version = "host";  ///< canonical spelling: "host" or e.g. "Ascend910B1"
  std::string arch;                  ///< the CPU architecture for kHost; "" for an Ascend chip
  bool is_host() const { return kind == TargetKind::kHost; }
  bool operator==(const Target &o) const { return kind == o.kind && soc_version == o.soc_version && arch == o.arch; }
  bool operator!=(const Target &o) const { return !(*this == o); }
};

/// This CPU's architecture as OPP folders and OMs spell it: "x86_64", "aarch64", else uname's.
std::string HostCpuArch();
/// The host target of this machine: {kHost, "host", HostCpuArch()}.
Target HostTarget();
/// The accepted Ascend names, canonical spelling (docs/atc-flags.md §7).
const std::vector<std::string> &AscendSocVersions();
/// True for "host" in any letter case.
bool IsHostSocVersion(const std::string &soc_version);

/// Decides the target from a --soc_version value and what is installed. "host" (any case) gives
/// HostTarget(). An Ascend name (any case) gives {kAscendCann, canonical name, ""} when CANN's
/// RTC, libacl_rtc.so, is found under `cann_roots` (openatc/common/cann_lookup.h). Errors
/// (openatc::Error, kUsage): E10054 when empty; E10001 for an unknown name, with the accepted
/// list; OA1301 for an Ascend name without CANN's RTC, naming every path searched.
Target ResolveTarget(const std::string &soc_version, const std::vector<std::string> &cann_roots);
/// ResolveTarget over cann::CannRoots() ($ASCEND_HOME_PATH, then the two default installs).
Target ResolveTarget(const std::string &soc_version);

/// The record an OM holds (soc_version, arch) as a target: "host" -> kHost with that arch; a
/// canonical Ascend name -> kAscendCann. Anything else (another spelling, an unknown name, an
/// Ascend name with an arch) -> nullopt: no runtime of this version can run it.
std::optional<Target> TargetFromRecord(const std::string &soc_version, const std::string &arch);

/// "host (x86_64)", "host" (no arch), or the soc_version: the target as messages name it.
std::string DescribeTarget(const Target &target);

}  // namespace openatc

#endif  // OPENATC_COMMON_TARGET_H_
