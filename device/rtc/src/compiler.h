// Runs the host C++ compiler as a child process: source on stdin, shared object to a memfd.
#ifndef OPENATC_RTC_SRC_COMPILER_H_
#define OPENATC_RTC_SRC_COMPILER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace openatc {
namespace rtc {

struct CompileRequest {
  std::string source;                                         ///< C++ source text
  std::vector<std::string> user_flags;                        ///< validated -D/-I/-O/-std flags
  std::vector<std::pair<std::string, std::string>> headers;   ///< in-memory headers (name, text)
  bool object = false;  ///< a relocatable -fPIC object (-c) instead of a shared object
};

struct CompileResult {
  bool ok = false;             ///< compiler exited with status 0 and produced bytes
  std::vector<uint8_t> binary; ///< the ELF shared object
  std::string log;             ///< everything the compiler printed (stdout + stderr)
};

/** The compiler: $OPENATC_HOST_CXX, else the configure-time clang++-19, else "clang++". */
std::string CompilerPath();
/** The SDK include folder holding openatc/host_kernel.h (install tree first, then source tree). */
std::string SdkIncludeDir();

/** The Ascend C include folder holding kernel_operator.h: <lib>/../asc/include when installed,
 *  else the SDK include folder's ascendc/. */
std::string AscendCIncludeDir();

/** The flags the RTC adds to every compile of this kind (base flags, SDK and Ascend C include
 *  folders, the link flags of a shared object), in order: part of the compile cache's key. */
std::vector<std::string> FixedCompileArgs(bool object);

/** Compiles. Returns ok=false with the compiler's output for compile errors; throws
 *  openatc::Error (code "ACL<n>") when the compiler cannot be run at all. */
CompileResult Compile(const CompileRequest &request);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_COMPILER_H_
