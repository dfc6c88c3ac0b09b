// Compile option handling for the host RTC and bisheng (options.h; docs/architecture.md "Host RTC").
#include "options.h"

#include <cctype>

#include "acl/acl_rtc_error.h"
#include "openatc/common/chip_facts.h"
#include "openatc/common/error.h"

namespace openatc {
namespace rtc {

const char kAcceptedOptions[] =
    "Accepted: -D<name>[=value], -I<dir>, -O<0|1|2|3|s|z>, -g, -std=<standard>, --npu-arch=dav-<n>, --npu-soc=<SoC>";

namespace {

[[noreturn]] void BadOption(const std::string &what, const std::string &hint) {
  throw openatc::Error(ErrorCategory::kUsage, "ACL" + std::to_string(ACL_ERROR_RTC_INVALID_OPTION), what, hint);
}

bool StartsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

std::string KnownArchs() {
  std::string out;
  for (const ChipFacts &c : ChipTable()) {
    std::string arch = "dav-" + std::to_string(c.npu_arch);
    if (out.find(arch) != std::string::npos) continue;
    out += (out.empty() ? "" : ", ") + arch + " (" + c.soc_version + ")";
  }
  return out + ", and dav-0 / dav-host for the host reference";
}

std::string KnownSocs() {
  std::string out;
  for (const ChipFacts &c : ChipTable()) out += (out.empty() ? "" : ", ") + c.soc_version;
  return out;
}

/** The chip of --npu-arch=<arch>; nullptr for the host reference. */
const ChipFacts *ChipOfArch(const std::string &arch) {
  if (arch == "dav-0" || arch == "dav-host") return nullptr;
  std::string digits = StartsWith(arch, "dav-") ? arch.substr(4) : "";
  bool numeric = !digits.empty() && digits.size() <= 9;
  for (char c : digits) numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
  const ChipFacts *chip = numeric ? FindChipByNpuArch(static_cast<uint32_t>(std::stoul(digits))) : nullptr;
  if (chip == nullptr) {
    BadOption("--npu-arch=" + arch + " is not an NPU architecture this host toolchain emulates",
              "Pass --npu-arch=dav-<n> with one of: " + KnownArchs());
  }
  return chip;
}

}  // namespace

bool ReadCompileOption(const std::string &o, OptionState &state) {
  if (StartsWith(o, "--npu-arch=")) {
    state.npu_arch = o.substr(11);
    return true;
  }
  if (StartsWith(o, "--npu-soc=")) {
    state.npu_soc = o.substr(10);
    return true;
  }
  if ((StartsWith(o, "-D") || StartsWith(o, "-I")) && o.size() > 2) {
    state.flags.push_back(o);
    return true;
  }
  if (o == "-O0" || o == "-O1" || o == "-O2" || o == "-O3" || o == "-Os" || o == "-Oz" || o == "-g") {
    state.flags.push_back(o);
    return true;
  }
  if (StartsWith(o, "-std=") && o.size() > 5) {
    state.flags.push_back(o);
    return true;
  }
  return false;
}

std::vector<std::string> FinishOptions(const OptionState &state, bool for_rtc) {
  std::vector<std::string> flags = state.flags;
  const ChipFacts *chip = nullptr;
  if (!state.npu_arch.empty()) {
    chip = ChipOfArch(state.npu_arch);
  } else if (!state.npu_soc.empty()) {
    chip = FindChip(state.npu_soc);
    if (chip == nullptr) {
      BadOption("--npu-soc=" + state.npu_soc + " is not a SoC this host toolchain emulates",
                "Pass --npu-soc=<SoC> with one of: " + KnownSocs() + " (or --npu-arch=dav-<n>)");
    }
  }
  if (chip == nullptr) return flags;
  if (for_rtc) RequireRtc(*chip);
  flags.push_back("-D__NPU_ARCH__=" + std::to_string(chip->npu_arch));
  flags.push_back("-DOPENATC_ASCENDC_UB_SIZE=" + std::to_string(chip->ub_size));
  return flags;
}

void RequireRtc(const ChipFacts &chip) {
  if (chip.has_rtc) return;
  BadOption(chip.soc_version + " (dav-" + std::to_string(chip.npu_arch) +
                ") has no runtime compilation (RTC): aclrtcCompileProg exists on Ascend 950, A3 and A2 only",
            "Compile the kernel ahead of time with bisheng, or target a chip with RTC such as Ascend910B1");
}

std::vector<std::string> TranslateOptions(int num_options, const char **options) {
  if (num_options < 0) BadOption("numOptions is negative (" + std::to_string(num_options) + ")", "Pass 0 or more options");
  if (num_options > 0 && options == nullptr) {
    BadOption("options is null but numOptions is " + std::to_string(num_options), kAcceptedOptions);
  }
  OptionState state;
  for (int i = 0; i < num_options; ++i) {
    if (options[i] == nullptr) BadOption("option " + std::to_string(i) + " is a null pointer", kAcceptedOptions);
    std::string o = options[i];
    if (!ReadCompileOption(o, state)) BadOption("option '" + o + "' is not supported by the host RTC", kAcceptedOptions);
  }
  return FinishOptions(state, true);
}

}  // namespace rtc
}  // namespace openatc
