// `bisheng`: the host stand-in for the Ascend C compiler driver (device/rtc/bisheng/bisheng_driver.h).
// Errors follow the project's one-line template on stderr; exit 1 on failure (2 for usage).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bisheng_driver.h"
#include "openatc/common/error.h"

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    openatc::bisheng::Job job = openatc::bisheng::ParseCommandLine(args);
    if (job.help) {
      std::fputs(openatc::bisheng::Usage().c_str(), stdout);
      return 0;
    }
    if (job.version) {
      std::puts("bisheng (OpenATC host driver: Ascend C compiled for this CPU)");
      return 0;
    }
    openatc::bisheng::Run(job);
    return 0;
  } catch (const openatc::Error &e) {
    std::fprintf(stderr, "%s\n", e.Format("bisheng").c_str());
    return e.category() == openatc::ErrorCategory::kUsage ? 2 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bisheng: error: E19999: internal error: %s.\n", e.what());
    return 1;
  }
}
