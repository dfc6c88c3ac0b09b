// The host `bisheng` driver (device/rtc/bisheng/CMakeLists.txt): command line and compile steps.
#ifndef OPENATC_BISHENG_BISHENG_DRIVER_H_
#define OPENATC_BISHENG_BISHENG_DRIVER_H_

#include <string>
#include <vector>

#include "options.h"

namespace openatc {
namespace bisheng {

struct Job {
  enum class Mode { kObject, kShared };
  Mode mode = Mode::kObject;
  bool mode_given = false;
  std::string input;                  ///< the one source file (.asc, or C++ written as Ascend C)
  std::string output;                 ///< -o; for -c defaults to the input's stem + ".o"
  rtc::OptionState options;           ///< -D -I -O -g -std --npu-arch --npu-soc
  std::vector<std::string> passthrough;  ///< -W*, -w, -U*, -isystem <dir>, -fPIC (host compiler flags)
  bool help = false;
  bool version = false;
};

/** Parses argv[1..]; throws openatc::Error (OA3101) for an unknown or incomplete option. */
Job ParseCommandLine(const std::vector<std::string> &args);

/** Runs the job: prepares the source (device/rtc/src/source_prep.h), builds the kernel shared
 *  object, then the host object (-c) or shared object (-shared) carrying it in the allocated
 *  section `.aicore_binary`. Compiler messages go to stderr. Throws openatc::Error: OA3102
 *  unreadable input, OA3103 compile failure, OA3104 output not written, ACL176002 bad chip. */
void Run(const Job &job);

/** The text of `bisheng --help`. */
std::string Usage();

}  // namespace bisheng
}  // namespace openatc

#endif  // OPENATC_BISHENG_BISHENG_DRIVER_H_
