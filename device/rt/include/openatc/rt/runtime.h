/**
 * @file openatc/rt/runtime.h
 * Internal C++ interface of the host ACL runtime (libascendcl) for the rest of OpenATC's
 * runtime (executor, omrun, RTC). Not part of the public SDK.
 *
 * Thread pool: kernel launches run their blocks on one process-wide pool.
 * Launch observers: a component (the "sink" executor that records an op's launches during its
 * one Execute at model load) can watch every launch made on one stream. The launch still runs.
 */
#ifndef OPENATC_RT_RUNTIME_H_
#define OPENATC_RT_RUNTIME_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "openatc/common/target.h"

#define OPENATC_RT_EXPORT __attribute__((visibility("default")))

namespace openatc {
namespace rt {

/** Sets the number of threads that run kernel blocks (the calling thread counts as one).
 *  0 restores the default, std::thread::hardware_concurrency(). Must not be called from inside
 *  a kernel. Takes effect for later launches. */
OPENATC_RT_EXPORT void SetThreadCount(unsigned threads);
/** The current number of block threads (>= 1). */
OPENATC_RT_EXPORT unsigned GetThreadCount();

/** Caps the fiber stacks that cooperative (SyncAll) launches hold at once; 0 (the default) means
 *  no cap beyond memory. A block that gets no stack fails its launch, naming the block. For tests
 *  of that path, which otherwise needs a process out of memory or memory mappings. */
OPENATC_RT_EXPORT void SetFiberStackLimit(size_t max_stacks);

/** One kernel launch as seen on a stream. */
struct LaunchRecord {
  aclrtFuncHandle func = nullptr;  ///< from aclrtBinaryGetFunction; valid while its binary is loaded
  std::string kernel_name;         ///< the kernel's exported name
  uint32_t block_dim = 0;          ///< numBlocks, 1..65535
  bool host_args_copied = false;   ///< true: aclrtLaunchKernelWithHostArgs (bytes in host_args)
  std::vector<uint8_t> host_args;  ///< WithHostArgs: a copy of the args block
  const void *args_ptr = nullptr;  ///< V2: the caller-owned args block (not copied)
  size_t args_size = 0;            ///< bytes of the args block (both forms)
};

/** Called on the launching thread before the launch's blocks run. Must not throw. */
using LaunchObserver = std::function<void(const LaunchRecord &)>;

/** Installs `observer` for launches on `stream` (nullptr = the default stream), replacing any
 *  previous one. Returns ACL_ERROR_INVALID_PARAM for an unknown stream handle. */
OPENATC_RT_EXPORT aclError SetLaunchObserver(aclrtStream stream, LaunchObserver observer);
/** Removes the observer of `stream` (no-op when none). */
OPENATC_RT_EXPORT aclError ClearLaunchObserver(aclrtStream stream);

/** Routes this process's aclrt* calls for models of `target` (openatc/common/target.h): kHost
 *  keeps the host runtime; kAscendCann opens CANN's libascendcl.so (searched as
 *  openatc/common/cann_lookup.h says: $ASCEND_HOME_PATH, /usr/local/Ascend/ascend-toolkit/latest,
 *  /usr/local/Ascend/cann). A process runs one backend: switching is refused. Returns ACL_SUCCESS,
 *  or an ACL error with aclGetRecentErrMsg() naming the target and every path searched when CANN
 *  is absent; `why` (optional) then receives the same text without the "SelectBackend: " prefix.
 *  kAscendEmulated is refused (ACL_ERROR_FEATURE_UNSUPPORTED): the model loader runs emulated OMs
 *  on the host backend (SelectBackend(HostTarget())), never through CANN. */
OPENATC_RT_EXPORT aclError SelectBackend(const openatc::Target &target, std::string *why = nullptr);
/** "host", or the Ascend soc_version whose CANN backend is active. */
OPENATC_RT_EXPORT std::string ActiveBackend();

/** The compile target of this process: what aclrtcCreateProg (libacl_rtc.so, device/rtc) creates
 *  programs for. kHost (the default: HostTarget()) and kAscendEmulated compile with the host RTC
 *  (an emulated chip without RTC, e.g. Ascend310P3, refuses aclrtcCreateProg as CANN does there); kAscendCann
 *  forwards each program created from then on to CANN's libacl_rtc.so. Set by the compiler before
 *  any op's Compile runs (atc/compiler CompileGraph, from CompileOptions::target). A program keeps
 *  the RTC it was created with. Both are thread-safe; one process compiles for one target at a
 *  time (a later SetCompileTarget changes it for programs created after it). */
OPENATC_RT_EXPORT void SetCompileTarget(const openatc::Target &target);
OPENATC_RT_EXPORT openatc::Target CompileTarget();

/** The op compile cache of the host RTC (atc --op_compiler_cache_mode / --op_compiler_cache_dir;
 *  device/rtc/src/kernel_cache.h). Set by the compiler with the compile target (CompileGraph,
 *  from CompileOptions::kernel_cache) and read by every later aclrtcCompileProg of a host-RTC
 *  program; never read from the environment by the RTC. */
struct KernelCacheConfig {
  enum class Mode { kDisable, kEnable, kForce };
  Mode mode = Mode::kDisable;  ///< ATC's default: disable
  /// The cache folder, resolved (flag > $ASCEND_CACHE_PATH > $HOME/atc_data); entries live in
  /// <dir>/kernel_cache/<soc_version>/.
  std::string dir;
  /// Non-empty when debug options are on (--op_debug_level other than 0, --op_debug_config):
  /// every compile bypasses the cache, as in ATC; the text says why ("--op_debug_level=2").
  std::string bypass_reason;
  /// max_op_cache_size (MB, 1 MB = 2^20 bytes) of one <soc_version> folder; -1 = no aging.
  int64_t max_size_mb = 500;
  /// remain_cache_size_ratio (1..100): aging deletes down to this share of max_size_mb.
  int remain_ratio = 50;
  /// Receives one line per kernel compile ("compile cache hit <key>", "... miss <key>",
  /// "... stored <key>"); may be empty. Called from the compiling thread.
  std::function<void(const std::string &)> info;
  /// Receives a problem of the cache folder (the compile goes on without the cache); may be empty.
  std::function<void(const std::string &)> warning;
};
/** Replaces the process's op compile cache setting (thread-safe; later compiles use it). */
OPENATC_RT_EXPORT void SetKernelCache(const KernelCacheConfig &config);
/** The current setting (a copy); Mode::kDisable until SetKernelCache is called. */
OPENATC_RT_EXPORT KernelCacheConfig KernelCache();

/** The kernel name of a function handle ("" for an unknown handle). */
OPENATC_RT_EXPORT std::string FunctionName(aclrtFuncHandle func);
/** The binary a function handle belongs to (nullptr for an unknown handle). */
OPENATC_RT_EXPORT aclrtBinHandle FunctionBinary(aclrtFuncHandle func);
/** The exact bytes a binary was loaded from (empty for an unknown handle). */
OPENATC_RT_EXPORT std::vector<uint8_t> BinaryBytes(aclrtBinHandle binary);

/** Records `text` as the calling thread's most recent ACL error (what aclGetRecentErrMsg
 *  returns). Used by the other SDK libraries (RTC) so one call reports every failure. */
OPENATC_RT_EXPORT void SetRecentError(const char *text);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_RUNTIME_H_
