// Loaded kernel binaries and their functions, as seen by the launcher.
#ifndef OPENATC_RT_SRC_BINARY_H_
#define OPENATC_RT_SRC_BINARY_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"

namespace openatc {
namespace rt {

using KernelEntry = void (*)(const void *args, size_t args_size);
using BlockSetter = void (*)(uint32_t idx, uint32_t num);

/** What a launch needs from a function handle, copied out under the registry lock. */
struct FunctionView {
  KernelEntry entry = nullptr;
  BlockSetter set_block = nullptr;
  std::string name;
  bool has_args_size = false;  ///< the kernel exports openatc_host_kernel_args_size_<name>
  size_t args_size = 0;        ///< bytes of packed arguments the kernel reads
  const size_t *params = nullptr;  ///< Ascend C kernels: {offset, size} per parameter, else null
  size_t param_count = 0;
  bool cooperative = false;  ///< the kernel's object calls SyncAll: blocks run as fibers (coop_launch.h)
};

/** Validates `func`; unknown handle -> ACL_ERROR_INVALID_PARAM. */
FunctionView ResolveFunction(aclrtFuncHandle func);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_BINARY_H_
