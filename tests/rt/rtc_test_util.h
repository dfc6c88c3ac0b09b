// Helpers for the RTC tests: compile a source string with aclrtc*, kernel sources, listings.
#ifndef OPENATC_TESTS_RT_RTC_TEST_UTIL_H_
#define OPENATC_TESTS_RT_RTC_TEST_UTIL_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace rttest {

struct Compiled {
  aclError rc = -1;
  std::vector<uint8_t> binary;
  std::string log;
  std::string error;  // aclGetRecentErrMsg after a failure
};

/** Create + compile + fetch binary and log + destroy. */
Compiled Compile(const std::string &source, const std::vector<std::string> &options = {}, const std::string &name = "k");

/** An add kernel "add_custom(x, y, z, n)" over element type T (pass -DT=...). */
extern const char *const kAddKernel;
/** Triton's add_kernel layout (5 pointers + n + 3 grid ints), 4 elements per block. */
extern const char *const kTritonKernel;

/** Names in a folder (empty set when the folder does not exist). */
std::set<std::string> ListDir(const std::string &dir);

}  // namespace rttest

#endif  // OPENATC_TESTS_RT_RTC_TEST_UTIL_H_
