// atc's op compile cache flags as the RTC's setting (kernel_cache_options.cc).
#ifndef OPENATC_ATC_DRIVER_SRC_KERNEL_CACHE_OPTIONS_H_
#define OPENATC_ATC_DRIVER_SRC_KERNEL_CACHE_OPTIONS_H_

#include "openatc/atc/options.h"
#include "openatc/rt/runtime.h"

namespace openatc::atc {

/// --op_compiler_cache_mode (default disable) and --op_compiler_cache_dir (flag >
/// $ASCEND_CACHE_PATH > $HOME/atc_data; a folder with characters outside ATC's set is warned
/// about and no cache is used); --op_debug_level other than 0 or --op_debug_config set the
/// bypass; size control from <dir>/op_cache.ini [op_compiler_cache] max_op_cache_size /
/// remain_cache_size_ratio, else ASCEND_MAX_OP_CACHE_SIZE / ASCEND_REMAIN_CACHE_SIZE_RATIO, else
/// 500 MB / 50 % (a bad value is warned about and skipped). Lines go to LogInfo / LogWarning.
rt::KernelCacheConfig KernelCacheConfigFor(const Options &options);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_SRC_KERNEL_CACHE_OPTIONS_H_
