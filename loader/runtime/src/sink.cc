// Replay of recorded launches.
#include "sink.h"

#include "acl/acl_rt.h"
#include "openatc/common/error.h"

namespace openatc::runtime {

void ReplayLaunches(const SinkRecord &record, void *stream) {
  for (const auto &l : record.launches) {
    aclError ret = l.host_args_copied
                       ? aclrtLaunchKernelWithHostArgs(l.func, l.block_dim, stream, nullptr,
                                                       const_cast<uint8_t *>(l.host_args.data()), l.host_args.size(),
                                                       nullptr, 0)
                       : aclrtLaunchKernelV2(l.func, l.block_dim, l.args_ptr, l.args_size, nullptr, stream);
    if (ret != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCustomOp, "OA2205",
                  "replaying kernel '" + l.kernel_name + "' failed: " + aclGetRecentErrMsg());
    }
  }
}

}  // namespace openatc::runtime
