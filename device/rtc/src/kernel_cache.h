// The op compile cache of the host RTC (atc --op_compiler_cache_mode; README.md "atc"): compiled
// kernels stored on disk, shared by processes, reused when every input of the compile is the same.
//
// Key: XXH3-128 over the prepared source, the program name, the in-memory headers, the translated
// options in order, the output kind (shared object or object), the compiler's identity (resolved
// path, `--version` output, size and mtime of the binary), the compile target (kind, soc_version,
// CPU arch), the kernel ABI versions of our headers (host kernel, GM check, block sync), the
// content of the SDK and Ascend C header folders and their paths, and the fixed flags the RTC adds.
// Not in the key: $OPENATC_RTC_LAUNCHER (a launcher does not change the output) and the private
// temporary folder of in-memory headers (remapped to "." by -ffile-prefix-map). Headers reached
// through a user's -I folder are not read: after changing them, compile once with `force`.
//
// Entries (openatc/common/op_cache.h, shared with atc's pre-packed weights): <dir>/kernel_cache/
// <soc_version>/<key>.bin (the ELF) + <key>.json (the key's fields and the binary's size and
// XXH3-128, checked on every reuse: a mismatch is a miss, warned about, and the entry is
// replaced) + <key>.lock (flock'ed while the entry is looked up, compiled and stored, so two
// processes never compile one key twice); temp file + rename, the .json last.
//
// Size control (op_cache.ini / ASCEND_MAX_OP_CACHE_SIZE, resolved by atc): after a store, when a
// <soc_version>'s kernel_cache and prepacked_weights folders hold more than max_size_mb together,
// entries not used for 30 minutes are deleted, least recently used first, until they hold at
// most remain_ratio % of it. A hit refreshes the entry's time, unless max_size_mb is -1.
#ifndef OPENATC_RTC_SRC_KERNEL_CACHE_H_
#define OPENATC_RTC_SRC_KERNEL_CACHE_H_

#include <functional>
#include <string>

#include "compiler.h"

namespace openatc {
namespace rtc {

/** The cache entry name of a compile: "<program name>_<32 hex digits>" (the name reduced to
 *  letters, digits and '_'). Exposed for tests. */
std::string KernelCacheKey(const CompileRequest &request, const std::string &program_name);

/** Compiles `request` through the cache that openatc::rt::KernelCache() describes: disabled,
 *  bypassed (a debug option, or -g among the options) -> `compile()`; otherwise a valid entry is
 *  returned without calling `compile` (a hit runs neither the compiler nor a launcher), else
 *  `compile()` runs and a successful result is stored. Reports one info line per outcome and a
 *  warning when the folder cannot be used (the compile then goes on uncached). Never throws for a
 *  cache problem; rethrows what `compile` throws. */
CompileResult CompileThroughCache(const CompileRequest &request, const std::string &program_name,
                                  const std::function<CompileResult()> &compile);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_KERNEL_CACHE_H_
