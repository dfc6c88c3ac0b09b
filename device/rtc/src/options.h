// Validation of aclrtcCompileProg options for the host compiler.
#ifndef OPENATC_RTC_SRC_OPTIONS_H_
#define OPENATC_RTC_SRC_OPTIONS_H_

#include <string>
#include <vector>

namespace openatc {
namespace rtc {

/** Turns RTC options into compiler flags: -D..., -I..., -O<0|1|2|3|s|z>, -std=... pass through;
 *  --npu-arch=... is dropped. Anything else throws openatc::Error with code
 *  "ACL176002" (ACL_ERROR_RTC_INVALID_OPTION) naming the option. */
std::vector<std::string> TranslateOptions(int num_options, const char **options);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_OPTIONS_H_
