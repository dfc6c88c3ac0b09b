// aclrtLaunchKernelWithHostArgs / aclrtLaunchKernelV2: run a kernel once per block on the
// thread pool, setting the kernel's block index/count before each block; notify the stream's
// launch observer first. Launches are synchronous (a valid in-order stream). Each block runs in a
// GmBlockScope, so global-memory checks name kernel and block; a block stopped by a violation
// fails the launch with the checker's message (gm_checker.cc).
#include <exception>
#include <vector>

#include "acl/acl_rt.h"
#include "binary.h"
#include "gm_launch.h"
#include "openatc/rt/error_state.h"
#include "stream.h"
#include "thread_pool.h"

namespace openatc {
namespace rt {
namespace {

constexpr uint32_t kMaxBlocks = 65535;

void Launch(aclrtFuncHandle func, uint32_t num_blocks, aclrtStream stream_handle, const void *args, size_t args_size,
            bool copy_args) {
  FunctionView fn = ResolveFunction(func);
  Stream *stream = ResolveStream(stream_handle);
  CheckGmMode();
  if (num_blocks == 0 || num_blocks > kMaxBlocks) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             "numBlocks " + std::to_string(num_blocks) + " for kernel '" + fn.name + "' is outside 1.." +
                 std::to_string(kMaxBlocks),
             "Launch between 1 and 65535 blocks");
  }
  if (args == nullptr && args_size > 0) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "the args pointer is null but argsSize is " + std::to_string(args_size));
  }
  if (fn.has_args_size && args_size < fn.args_size) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             "kernel '" + fn.name + "' reads " + std::to_string(fn.args_size) + " bytes of packed arguments, but the launch passes " +
                 std::to_string(args_size),
             "Pass an args block holding every kernel parameter (each at its natural alignment)");
  }
  std::vector<uint8_t> copy;
  if (copy_args && args_size > 0) {
    const auto *p = static_cast<const uint8_t *>(args);
    copy.assign(p, p + args_size);
  }
  const void *block_args = copy_args ? static_cast<const void *>(copy.data()) : args;

  if (LaunchObserver observer = ObserverOf(stream)) {
    LaunchRecord record;
    record.func = func;
    record.kernel_name = fn.name;
    record.block_dim = num_blocks;
    record.host_args_copied = copy_args;
    if (copy_args) record.host_args = copy;
    record.args_ptr = copy_args ? nullptr : args;
    record.args_size = args_size;
    observer(record);
  }

  KernelEntry entry = fn.entry;
  BlockSetter set_block = fn.set_block;
  try {
    ThreadPool::Instance().ParallelFor(num_blocks, [&](uint32_t block) {
      GmBlockScope scope(fn.name, block, num_blocks);  // what the GM checker names (gm_checker.cc)
      set_block(block, num_blocks);
      try {
        entry(block_args, args_size);
      } catch (...) {
        if (!BlockViolation().empty()) throw GmViolationError(BlockViolation());
        throw;
      }
      if (!BlockViolation().empty()) throw GmViolationError(BlockViolation());  // a kernel that did not stop
    });
  } catch (const GmViolationError &e) {
    RecordLaunchViolation(e.what());
    ThrowAcl(ACL_ERROR_RT_FAILURE, std::string("global-memory violation (OPENATC_GM_CHECK=fail): ") + e.what(),
             "Fix the kernel's access or the sizes it is launched with; OPENATC_GM_CHECK=warn reports each such "
             "access once and continues");
  } catch (const std::exception &e) {
    ThrowAcl(ACL_ERROR_RT_FAILURE, "kernel '" + fn.name + "' threw an exception: " + e.what());
  } catch (...) {
    ThrowAcl(ACL_ERROR_RT_FAILURE, "kernel '" + fn.name + "' threw an exception");
  }
}

}  // namespace
}  // namespace rt
}  // namespace openatc

using namespace openatc::rt;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                           size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum) {
  (void)cfg;
  (void)placeHolderArray;
  return Guard("aclrtLaunchKernelWithHostArgs", [&] {
    if (placeHolderNum != 0) {
      ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
               "placeholders (placeHolderNum " + std::to_string(placeHolderNum) + ") are not supported by the host runtime",
               "Put final addresses in the args block and pass nullptr, 0");
    }
    Launch(funcHandle, numBlocks, stream, hostArgs, argsSize, true);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
  (void)cfg;
  return Guard("aclrtLaunchKernelV2", [&] { Launch(funcHandle, numBlocks, stream, argsData, argsSize, false); });
}

}  // extern "C"
