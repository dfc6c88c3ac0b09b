// Shared by the two halves of the op compile cache: its key (kernel_cache_key.cc) and its entries
// (kernel_cache.cc). See kernel_cache.h.
#ifndef OPENATC_RTC_SRC_KERNEL_CACHE_INTERNAL_H_
#define OPENATC_RTC_SRC_KERNEL_CACHE_INTERNAL_H_

#include <string>

namespace openatc {
namespace rtc {

/** The format of an entry's .json, also hashed into every key: a new format gives new keys. */
constexpr const char kKernelCacheFormat[] = "openatc-kernel-cache-1";

/** What identifies the compiler: its resolved path, its `--version` output, size and mtime. */
struct CompilerIdentity {
  std::string path;
  std::string version;
  std::string stamp;
};
/** The identity of `program` (as CompilerPath() names it), found once per process. Throws
 *  openatc::Error when the compiler cannot be run. */
const CompilerIdentity &IdentifyCompiler(const std::string &program);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_KERNEL_CACHE_INTERNAL_H_
