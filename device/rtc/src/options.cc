// aclrtcCompileProg option handling for the host compiler (docs/architecture.md "Host RTC").
#include "options.h"

#include "acl/acl_rtc_error.h"
#include "openatc/common/error.h"

namespace openatc {
namespace rtc {
namespace {

[[noreturn]] void BadOption(const std::string &what, const std::string &hint) {
  throw openatc::Error(ErrorCategory::kUsage, "ACL" + std::to_string(ACL_ERROR_RTC_INVALID_OPTION), what, hint);
}

bool StartsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::vector<std::string> TranslateOptions(int num_options, const char **options) {
  const char *accepted = "The host RTC accepts -D<name>[=value], -I<dir>, -O<0|1|2|3|s|z>, -std=<standard> and --npu-arch=<arch> (ignored)";
  if (num_options < 0) BadOption("numOptions is negative (" + std::to_string(num_options) + ")", "Pass 0 or more options");
  if (num_options > 0 && options == nullptr) BadOption("options is null but numOptions is " + std::to_string(num_options), accepted);
  std::vector<std::string> flags;
  for (int i = 0; i < num_options; ++i) {
    if (options[i] == nullptr) BadOption("option " + std::to_string(i) + " is a null pointer", accepted);
    std::string o = options[i];
    if (StartsWith(o, "--npu-arch=")) continue;
    if ((StartsWith(o, "-D") || StartsWith(o, "-I")) && o.size() > 2) {
      flags.push_back(o);
      continue;
    }
    if (o == "-O0" || o == "-O1" || o == "-O2" || o == "-O3" || o == "-Os" || o == "-Oz") {
      flags.push_back(o);
      continue;
    }
    if (StartsWith(o, "-std=") && o.size() > 5) {
      flags.push_back(o);
      continue;
    }
    BadOption("option '" + o + "' is not supported by the host RTC", accepted);
  }
  return flags;
}

}  // namespace rtc
}  // namespace openatc
