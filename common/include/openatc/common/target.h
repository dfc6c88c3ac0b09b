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
 *   kAscendEmulated an Ascend chip emulated on the host (OPENATC_EMULATION): soc_version a chip of
 *                   the facts table (openatc/common/chip_facts.h), arch = the CPU it is emulated on.
 *                   Compile sees the chip's facts; kernels are compiled for and run on that CPU,
 *                   never through CANN. The OM records it as soc_version + arch (an Ascend name
 *                   with a CPU arch), so no schema field is needed.
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

/// The emulation switch, OPENATC_EMULATION (README.md "Environment variables"), read once at
/// program start (atc and omrun main; libascendcl.so and libge_runner.so at first use) and then
/// passed explicitly. Never set by OpenATC itself.
struct Emulation {
  explicit Emulation() = default;  // not an aggregate: `{roots}` never converts to it
  std::string chip;   ///< the switch's chip, canonical table name ("Ascend910B1"); "" = off
  std::string value;  ///< the variable's text as given ("1", "ascend910_9362")
  bool on() const { return !chip.empty(); }
};

/// Parses the switch's value: nullptr or "" -> off; "1" -> Ascend910B1; a chip of the facts table
/// in any letter case -> that chip. Anything else throws openatc::Error (kUsage, E10001) naming
/// the table's chips.
Emulation ParseEmulation(const char *value);
/// ParseEmulation(getenv("OPENATC_EMULATION")), evaluated once per process (the first call; a
/// bad value throws on every call).
Emulation EmulationFromEnv();
/// The one warning line a tool prints when the switch is on (without "<tool>: warning: "):
/// "OA1302: OPENATC_EMULATION=<v>: ...", naming the switch's chip and the CPU, and, when CANN's
/// RTC is found under `cann_roots`, that CANN is not used (the switch wins). "" when off.
std::string EmulationWarning(const Emulation &emulation, const std::vector<std::string> &cann_roots);

/// Decides the target from a --soc_version value, the emulation switch and what is installed.
/// "host" (any case) gives HostTarget(), whatever the switch. With the switch on, an Ascend name
/// (any case) of the facts table gives {kAscendEmulated, canonical name, HostCpuArch()} even when
/// CANN is installed (the switch wins; EmulationWarning says so); an Ascend name not in the table
/// is E10001 naming the table and the switch. With the switch off, as the overload below.
Target ResolveTarget(const std::string &soc_version, const Emulation &emulation,
                     const std::vector<std::string> &cann_roots);
/// The same over cann::CannRoots().
Target ResolveTarget(const std::string &soc_version, const Emulation &emulation);

/// Decides the target from a --soc_version value and what is installed (emulation off). "host" (any case) gives
/// HostTarget(). An Ascend name (any case) gives {kAscendCann, canonical name, ""} when CANN's
/// RTC, libacl_rtc.so, is found under `cann_roots` (openatc/common/cann_lookup.h). Errors
/// (openatc::Error, kUsage): E10054 when empty; E10001 for an unknown name, with the accepted
/// list; OA1301 for an Ascend name without CANN's RTC, naming every path searched and the two ways
/// out (--soc_version host, export OPENATC_EMULATION=1).
Target ResolveTarget(const std::string &soc_version, const std::vector<std::string> &cann_roots);
/// ResolveTarget over cann::CannRoots() ($ASCEND_HOME_PATH, then the two default installs).
Target ResolveTarget(const std::string &soc_version);

/// The record an OM holds (soc_version, arch) as a target: "host" -> kHost with that arch; a
/// canonical Ascend name without arch -> kAscendCann; a chip of the facts table with an arch ->
/// kAscendEmulated on that CPU. Anything else (another spelling, an unknown name, an Ascend name
/// outside the table with an arch) -> nullopt: no runtime of this version can run it.
std::optional<Target> TargetFromRecord(const std::string &soc_version, const std::string &arch);

/// "host (x86_64)", "host" (no arch), "Ascend910B1, emulated on host (x86_64)", or the
/// soc_version (through CANN): the target as messages name it.
std::string DescribeTarget(const Target &target);

}  // namespace openatc

#endif  // OPENATC_COMMON_TARGET_H_
