// RunAtc: ATC's stdout lines, option parsing, mode dispatch and error printing.
#include "openatc/atc/driver.h"

#include <cstdio>
#include <exception>
#include <iostream>

#include "openatc/atc/flag_effects.h"
#include "openatc/common/cann_lookup.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/target.h"
#include "modes.h"

namespace openatc::atc {
namespace {
constexpr const char *kStart = "ATC start working now, please wait for a moment.";
constexpr const char *kSuccess = "ATC run success, welcome to the next use.";
constexpr const char *kFailure =
    "ATC run failed, Please check the detail log, Try 'atc --help' for more information";

void WarnFlagsWithoutEffect(const Options &options) {
  for (const std::string &line : FlagEffectWarnings(options, nullptr)) LogWarning(line);
}

void RunMode(const Options &options) {
  if (options.other_flags.count("singleop")) {
    // Flags validated by ParseAtcOptions (docs/atc-deploy-flags.md §5).
    for (const std::string &path : BuildSingleOps(options)) std::cout << "OM written to: " << path << std::endl;
    return;
  }
  switch (options.mode) {
    case 0: {
      const std::string path = CompileModel(options);
      // Before ATC's success line, which scripts grep: the one line that says where the OM is.
      std::cout << "OM written to: " << path << std::endl;
      return;
    }
    case 3:
      PreCheckModel(options);
      return;
    case 1:
      WarnFlagsWithoutEffect(options);
      ConvertToJson(options);
      return;
    case 5:
      WarnFlagsWithoutEffect(options);
      ConvertTextDumpToJson(options);
      return;
    case 6:
      WarnFlagsWithoutEffect(options);
      DisplayModel(options);
      return;
    default:
      throw Error(ErrorCategory::kUsage, "E10001",
                  "--mode " + std::to_string(options.mode) + " is not available in this OpenATC version",
                  "Use --mode 0 to compile a model");
  }
}
}  // namespace

int RunAtc(int argc, const char *const *argv) {
  SetLogTool("atc");
  std::cout << kStart << std::endl;
  try {
    Options options = ParseAtcOptions(argc, argv);
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);
    if (options.help) {
      std::cout << AtcHelpText();
      return 0;
    }
    LogLevel level = LogLevel::kError;
    if (ParseLogLevel(options.log, &level)) SetLogLevel(level);
    options.emulation = EmulationFromEnv();  // read once, here; passed explicitly from now on
    if (options.emulation.on()) LogWarning(EmulationWarning(options.emulation, cann::CannRoots()));
    RunMode(options);
    std::cout << kSuccess << std::endl;
    return 0;
  } catch (const Error &e) {
    std::cerr << e.Format("atc") << std::endl;
  } catch (const std::bad_alloc &) {
    std::cerr << Error(ErrorCategory::kInternal, "E19999", "out of memory").Format("atc") << std::endl;
  } catch (const std::exception &e) {
    std::cerr << Error(ErrorCategory::kInternal, "E19999", std::string("internal error: ") + e.what(),
                       "Please report this with the command line")
                     .Format("atc")
              << std::endl;
  }
  std::cout << kFailure << std::endl;
  return 255;
}

}  // namespace openatc::atc
