// Compile options of the host RTC and of the host `bisheng` driver: the bisheng options GE's
// samples and the devkit's RTC documentation pass, turned into host compiler flags
// (docs/architecture.md "Host RTC").
#ifndef OPENATC_RTC_SRC_OPTIONS_H_
#define OPENATC_RTC_SRC_OPTIONS_H_

#include <string>
#include <vector>

namespace openatc {
struct ChipFacts;
namespace rtc {

/** Options as they are read, before the chip is resolved. */
struct OptionState {
  std::vector<std::string> flags;  ///< -D, -I, -O*, -g, -std flags for the compiler, in order
  std::string npu_arch;            ///< value of the last --npu-arch= ("dav-2201"), empty if none
  std::string npu_soc;             ///< value of the last --npu-soc= ("Ascend910B1"), empty if none
};

/** Consumes `option` when it is one of the shared compile options (-D<x>, -I<dir>,
 *  -O<0|1|2|3|s|z>, -g, -std=<std>, --npu-arch=<arch>, --npu-soc=<soc>); false otherwise. */
bool ReadCompileOption(const std::string &option, OptionState &state);

/** The flags of `state` plus the chip's: --npu-arch=dav-<n> must name a row of the chip table
 *  (openatc/common/chip_facts.h), `dav-0` and `dav-host` name the host reference (no chip: what
 *  the host device reports); --npu-soc=<soc> names a row by SoC version; --npu-arch wins over
 *  --npu-soc. A chip adds -D__NPU_ARCH__=<n> and -DOPENATC_ASCENDC_UB_SIZE=<ub bytes>.
 *  `for_rtc`: a chip without RTC is refused, as aclrtcCompileProg is there. Errors throw
 *  openatc::Error with code "ACL176002" (ACL_ERROR_RTC_INVALID_OPTION). */
std::vector<std::string> FinishOptions(const OptionState &state, bool for_rtc);

/** aclrtcCompileProg's options: ReadCompileOption for each, then FinishOptions(for_rtc=true);
 *  anything else throws openatc::Error "ACL176002" naming the option. */
std::vector<std::string> TranslateOptions(int num_options, const char **options);

/** The one rule for chips without runtime compilation (ChipFacts::has_rtc false, as on
 *  Ascend310P/310B/910): throws openatc::Error "ACL176002" naming the chip; returns for a chip
 *  with RTC. FinishOptions (--npu-arch/--npu-soc of such a chip) and aclrtcCreateProg (the
 *  emulated target is such a chip, rtc_dispatch.cc) both apply it. */
void RequireRtc(const ChipFacts &chip);

/** What the shared options are, for error hints. */
extern const char kAcceptedOptions[];

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_OPTIONS_H_
