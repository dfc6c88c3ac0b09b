// Kernel launches: aclrtLaunchKernelWithHostArgs / V2 / WithConfig (with the aclrtKernelArgs*
// args handles) / WithArgsArray and the in-process launches of `<<<>>>` (openatc_rt_launch_host_kernel, used by
// openatc/ascendc_launch.h). All of them go through RunBlocks: notify the stream's launch
// observer, then run the kernel once per block on the thread pool, setting the kernel's block
// index/count before each block. Launches are synchronous (a valid in-order stream). Each block
// runs in a GmBlockScope, so global-memory checks name kernel and block; a block stopped by a
// violation fails the launch with the checker's message (gm_checker.cc). A kernel whose object
// calls SyncAll runs its blocks as fibers instead (coop_launch.cc), so they can all wait in it.
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "acl/acl_rt.h"
#include "binary.h"
#include "coop_launch.h"
#include "gm_launch.h"
#include "openatc/rt/error_state.h"
#include "stream.h"
#include "thread_pool.h"

namespace openatc {
namespace rt {
namespace {

constexpr uint32_t kMaxBlocks = 65535;

/** The one launch path. `func` is the handle (nullptr for in-process launches, which launch
 *  observers do not see: a recorded launch must be replayable from its handle). */
void RunBlocks(const FunctionView &fn, aclrtFuncHandle func, uint32_t num_blocks, aclrtStream stream_handle,
               const void *args, size_t args_size, bool copy_args) {
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

  LaunchObserver observer = func != nullptr ? ObserverOf(stream) : LaunchObserver();
  if (observer) {
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
    if (fn.cooperative) {
      RunCooperative(fn, num_blocks, block_args, args_size);
      return;
    }
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
  } catch (const BarrierError &e) {
    ThrowAcl(ACL_ERROR_RT_FAILURE, e.what(),
             "Every block of a launch must reach each SyncAll; check the kernel's branches and the block count");
  } catch (const std::exception &e) {
    ThrowAcl(ACL_ERROR_RT_FAILURE, "kernel '" + fn.name + "' threw an exception: " + e.what());
  } catch (...) {
    ThrowAcl(ACL_ERROR_RT_FAILURE, "kernel '" + fn.name + "' threw an exception");
  }
}

void Launch(aclrtFuncHandle func, uint32_t num_blocks, aclrtStream stream, const void *args, size_t args_size,
            bool copy_args) {
  RunBlocks(ResolveFunction(func), func, num_blocks, stream, args, args_size, copy_args);
}

/** An args block built with aclrtKernelArgsInit/Append/Finalize. */
struct ArgsBlock {
  aclrtFuncHandle func = nullptr;
  std::vector<uint8_t> bytes;
  std::vector<std::unique_ptr<size_t>> params;  // offsets; their addresses are the param handles
  bool finalized = false;
};

class ArgsRegistry {
 public:
  ArgsBlock *Create(aclrtFuncHandle func) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.push_back(std::make_unique<ArgsBlock>());
    blocks_.back()->func = func;
    live_.insert(blocks_.back().get());
    return blocks_.back().get();
  }
  /** The block of `handle` under the registry lock, passed to `body`. */
  template <typename F>
  void With(aclrtArgsHandle handle, F &&body) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto *b = static_cast<ArgsBlock *>(handle);
    if (b == nullptr || live_.count(b) == 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "argsHandle is not an args handle (null, or not from aclrtKernelArgsInit)",
               "Pass a handle from aclrtKernelArgsInit");
    }
    body(*b);
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<ArgsBlock>> blocks_;
  std::unordered_set<ArgsBlock *> live_;
};

ArgsRegistry &Args() {
  static ArgsRegistry *r = new ArgsRegistry();
  return *r;
}

size_t NaturalAlignment(size_t size) {
  size_t a = 1;
  while (a < 8 && size % (a * 2) == 0) a *= 2;
  return a;
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

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle) {
  return Guard("aclrtKernelArgsInit", [&] {
    if (argsHandle == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "argsHandle is a null pointer");
    ResolveFunction(funcHandle);
    *argsHandle = Args().Create(funcHandle);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle) {
  return Guard("aclrtKernelArgsAppend", [&] {
    if (param == nullptr || paramSize == 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, param == nullptr ? "param is a null pointer" : "paramSize is 0",
               "Pass the address and byte size of the parameter's value");
    }
    Args().With(argsHandle, [&](ArgsBlock &b) {
      if (b.finalized) {
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "the args handle is finalized; no parameter can be appended",
                 "Append every parameter before aclrtKernelArgsFinalize");
      }
      const size_t align = NaturalAlignment(paramSize);
      const size_t at = (b.bytes.size() + align - 1) / align * align;
      b.bytes.resize(at + paramSize, 0);
      std::memcpy(b.bytes.data() + at, param, paramSize);
      b.params.push_back(std::make_unique<size_t>(at));
      if (paramHandle != nullptr) *paramHandle = b.params.back().get();
    });
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  return Guard("aclrtKernelArgsFinalize", [&] { Args().With(argsHandle, [](ArgsBlock &b) { b.finalized = true; }); });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                                         aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle,
                                                         void *reserve) {
  (void)cfg;
  return Guard("aclrtLaunchKernelWithConfig", [&] {
    if (reserve != nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "reserve is not a null pointer", "Pass nullptr");
    std::vector<uint8_t> bytes;
    Args().With(argsHandle, [&](ArgsBlock &b) {
      if (!b.finalized) {
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "the args handle is not finalized", "Call aclrtKernelArgsFinalize before launching");
      }
      if (b.func != funcHandle) {
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "the args handle was made for another kernel",
                 "Pass the funcHandle given to aclrtKernelArgsInit");
      }
      bytes = b.bytes;
    });
    Launch(funcHandle, numBlocks, stream, bytes.data(), bytes.size(), true);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args) {
  (void)cfg;
  return Guard("aclrtLaunchKernelWithArgsArray", [&] {
    FunctionView fn = ResolveFunction(funcHandle);
    if (fn.params == nullptr) {
      ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
               "kernel '" + fn.name + "' is a host-ABI kernel, whose parameter layout the runtime does not know",
               "Launch it with aclrtLaunchKernelWithHostArgs and a packed args block");
    }
    if (args == nullptr && fn.param_count > 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "args is a null pointer, but kernel '" + fn.name + "' has " +
                                            std::to_string(fn.param_count) + " parameters");
    }
    std::vector<uint8_t> block(fn.args_size, 0);
    for (size_t i = 0; i < fn.param_count; ++i) {
      if (args[i] == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "args[" + std::to_string(i) + "] is a null pointer");
      std::memcpy(block.data() + fn.params[2 * i], args[i], fn.params[2 * i + 1]);
    }
    Launch(funcHandle, numBlocks, stream, block.data(), block.size(), true);
  });
}

namespace {
int LaunchInProcess(const char *name, void (*entry)(const void *, size_t), void (*set_block)(uint32_t, uint32_t),
                    uint32_t num_blocks, uint64_t dyn_ubuf_size, void *stream, const void *args, size_t args_size,
                    bool cooperative) {
  return Guard("<<<>>> launch", [&] {
    const std::string kernel = name != nullptr ? name : "?";
    if (entry == nullptr || set_block == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "kernel '" + kernel + "' has no entry");
    if (dyn_ubuf_size != 0) {
      ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
               "the launch of kernel '" + kernel + "' asks for " + std::to_string(dyn_ubuf_size) +
                   " bytes of dynamic UB, which the host runtime does not provide",
               "Pass nullptr or 0 as the second launch parameter");
    }
    FunctionView fn;
    fn.entry = entry;
    fn.set_block = set_block;
    fn.name = kernel;
    fn.cooperative = cooperative;
    RunBlocks(fn, nullptr, num_blocks, stream, args, args_size, true);
  });
}
}  // namespace

/** The in-process launch of openatc/ascendc_launch.h (`<<<>>>`). Exported from libascendcl. */
__attribute__((visibility("default"))) int openatc_rt_launch_host_kernel(const char *name,
                                                                        void (*entry)(const void *, size_t),
                                                                        void (*set_block)(uint32_t, uint32_t),
                                                                        uint32_t num_blocks, uint64_t dyn_ubuf_size,
                                                                        void *stream, const void *args, size_t args_size) {
  return LaunchInProcess(name, entry, set_block, num_blocks, dyn_ubuf_size, stream, args, args_size, false);
}

/** The same for an object that calls SyncAll (openatc/block_sync.h): blocks run as fibers. */
__attribute__((visibility("default"))) int openatc_rt_launch_cooperative_host_kernel(
    const char *name, void (*entry)(const void *, size_t), void (*set_block)(uint32_t, uint32_t), uint32_t num_blocks,
    uint64_t dyn_ubuf_size, void *stream, const void *args, size_t args_size) {
  return LaunchInProcess(name, entry, set_block, num_blocks, dyn_ubuf_size, stream, args, args_size, true);
}

}  // extern "C"
