// Compiles through the op compile cache (kernel_cache.h): the kernel's entry fields and the
// cache's setting; the entries themselves are common's (openatc/common/op_cache.h).
#include "kernel_cache.h"

#include <algorithm>

#include "kernel_cache_internal.h"
#include "openatc/block_sync.h"
#include "openatc/common/op_cache.h"
#include "openatc/common/target.h"
#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"
#include "openatc/rt/runtime.h"

namespace openatc {
namespace rtc {
namespace {

using Mode = rt::KernelCacheConfig::Mode;

/** The key's fields an entry's .json records (for a reader; the key is the hash of them). */
nlohmann::json EntryFields(const std::string &program_name, const CompileRequest &request) {
  const Target target = rt::CompileTarget();
  const CompilerIdentity &cxx = IdentifyCompiler(CompilerPath());
  return {
      {"kernel", program_name},
      {"soc_version", target.soc_version},
      {"arch", target.kind == TargetKind::kAscendCann ? target.arch : HostCpuArch()},
      {"compiler", cxx.path},
      {"compiler_version", cxx.version.substr(0, cxx.version.find('\n'))},
      {"compiler_stamp", cxx.stamp},
      {"options", request.user_flags},
      {"output", request.object ? "object" : "shared object"},
      {"abi",
       {{"host_kernel", OPENATC_HOST_KERNEL_ABI_VERSION},
        {"gm_check", OPENATC_GM_CHECK_ABI_VERSION},
        {"block_sync", OPENATC_BLOCK_SYNC_ABI_VERSION}}},
  };
}

}  // namespace

CompileResult CompileThroughCache(const CompileRequest &request, const std::string &program_name,
                                  const std::function<CompileResult()> &compile) {
  const rt::KernelCacheConfig config = rt::KernelCache();
  if (config.mode == Mode::kDisable) return compile();
  std::string bypass = config.bypass_reason;
  if (bypass.empty() && std::find(request.user_flags.begin(), request.user_flags.end(), "-g") != request.user_flags.end())
    bypass = "the option -g";
  if (!bypass.empty()) {
    if (config.info) config.info("kernel '" + program_name + "': compile cache bypassed (" + bypass + ")");
    return compile();
  }
  opcache::Use use;
  try {
    use.key = KernelCacheKey(request, program_name);
  } catch (const std::exception &) {
    return compile();  // the compiler cannot run: its own error comes from compile()
  }
  const std::string soc = rt::CompileTarget().soc_version;
  use.folder = opcache::KernelFolder(config.dir, soc);
  use.format = kKernelCacheFormat;
  use.label = "compile cache";
  use.what = "kernel '" + program_name + "'";
  use.built = "is compiled";
  use.force = config.mode == Mode::kForce;
  use.max_size_mb = config.max_size_mb;
  use.remain_ratio = config.remain_ratio;
  use.aging_folders = opcache::AgingFolders(config.dir, soc);
  use.info = config.info;
  use.warning = config.warning;
  CompileResult r;
  opcache::Entry entry;
  const opcache::Outcome outcome = opcache::Through(
      use,
      [&](opcache::Entry &e) {
        r = compile();
        if (!r.ok) return false;
        e.fields = EntryFields(program_name, request);
        e.bytes = std::move(r.binary);
        return true;
      },
      entry);
  if (outcome == opcache::Outcome::kFailed) return r;
  if (outcome == opcache::Outcome::kHit) {
    r = CompileResult();
    r.ok = true;
  }
  r.binary = std::move(entry.bytes);
  return r;
}

}  // namespace rtc
}  // namespace openatc
