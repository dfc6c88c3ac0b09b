/**
 * @file kernel_operator_block_sync.h
 * SyncAll in the Ascend C host library: the barrier over every block of a launch, through the
 * runtime's table of openatc/block_sync.h. Using SyncAll anywhere in a shared object makes the
 * runtime run that object's launches cooperatively (each block on a fiber), so all blocks can
 * wait at once, however many there are.
 *
 * While a block waits, other blocks run on its thread; the block's thread-local state (block
 * index of host_kernel.h, core state, live TPipe, Unified Buffer) is kept on the block's own
 * stack and put back when it continues (SavedBlock). A barrier that cannot complete (a block
 * returned without reaching it, or failed) ends the waiting blocks with KernelError; the launch
 * fails naming the cause.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_BLOCK_SYNC_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_BLOCK_SYNC_H_

#include "kernel_operator_base.h"
#include "kernel_operator_gm.h"
#include "kernel_operator_pipe.h"
#include "kernel_operator_tensor.h"
#include "openatc/block_sync.h"
#include "openatc/host_kernel.h"

extern "C" const openatc_block_sync *openatc_rt_block_sync(void) __attribute__((weak));

namespace openatc {
namespace ascendc {

struct BlockSyncSlot {
  const openatc_block_sync *sync = nullptr;
  bool set = false;
};

/** The table handed to this shared object (hidden: one per .so). */
__attribute__((visibility("hidden"))) inline BlockSyncSlot &SyncSlot() {
  static BlockSyncSlot slot;
  return slot;
}

inline const openatc_block_sync *CurrentBlockSync() {
  BlockSyncSlot &slot = SyncSlot();
  if (__atomic_load_n(&slot.set, __ATOMIC_ACQUIRE)) return slot.sync;
  if (&openatc_rt_block_sync != nullptr) return openatc_rt_block_sync();
  return nullptr;
}

/** A waiting block's thread-local state, on its own stack. Save and Restore are out of line so
 *  the thread-local addresses are computed afresh on each side of the wait. */
struct SavedBlock {
  openatc_host_kernel_detail::BlockState block;
  CoreState core;
  AscendC::TPipe *pipe;
  unsigned char *ub;
};

__attribute__((noinline)) inline void SaveBlock(SavedBlock &s) {
  s.block = openatc_host_kernel_detail::State();
  s.core = Core();
  s.pipe = AscendC::TPipe::Current();
  s.ub = Ub().Detach();
}

__attribute__((noinline)) inline void RestoreBlock(SavedBlock &s) {
  openatc_host_kernel_detail::State() = s.block;
  Core() = s.core;
  AscendC::TPipe::Current() = s.pipe;
  Ub().Attach(s.ub);
}

inline void SyncAllBlocks(const char *api) {
  (void)*static_cast<const volatile bool *>(&openatc_block_sync_detail::SyncAllMark<0>::on);
  const openatc_block_sync *sync = CurrentBlockSync();
  if (sync == nullptr || sync->sync_all == nullptr) {
    Fail(api, "no runtime offers a barrier over the launch's blocks; launch the kernel through libascendcl "
              "(aclrtLaunchKernel* or <<<>>>)");
  }
  if (sync->abi_version != OPENATC_BLOCK_SYNC_ABI_VERSION) {
    Fail(api, "the runtime's block synchronisation has ABI version " + Num(sync->abi_version) +
                  ", this kernel was built for " + Num(OPENATC_BLOCK_SYNC_ABI_VERSION) + "; rebuild the kernel");
  }
  SavedBlock saved;
  SaveBlock(saved);
  const int rc = sync->sync_all();
  RestoreBlock(saved);
  if (rc == OPENATC_BLOCK_SYNC_ABANDONED) {
    Fail(api, "the launch was abandoned while this block waited (another block returned without reaching "
              "SyncAll, or failed; the launch's error names it)");
  }
  if (rc != OPENATC_BLOCK_SYNC_OK) {
    Fail(api, "this launch does not run its blocks cooperatively (OPENATC_LAUNCH of openatc/host_kernel.h has "
              "no barrier); launch the kernel with aclrtLaunchKernel* or <<<>>>");
  }
}

}  // namespace ascendc
}  // namespace openatc

/** Called by the runtime once after loading this kernel .so. */
extern "C" __attribute__((weak, used, visibility("default"))) void openatc_host_kernel_set_block_sync(
    const openatc_block_sync *sync) {
  openatc::ascendc::BlockSyncSlot &slot = openatc::ascendc::SyncSlot();
  slot.sync = sync;
  __atomic_store_n(&slot.set, true, __ATOMIC_RELEASE);
}

/** 1 when this object calls SyncAll (its launches then run cooperatively). */
extern "C" __attribute__((weak, used, visibility("default"))) uint32_t openatc_host_kernel_block_sync_used(void) {
  return openatc_block_sync_detail::Used() ? 1u : 0u;
}

namespace AscendC {

/** The barrier over every block of the launch (the hard form). isAIVOnly has no effect on the
 *  host: every block is a vector block. */
template <bool isAIVOnly = true>
inline void SyncAll() {
  openatc::ascendc::SyncAllBlocks("SyncAll");
}

/** The soft form: on the device it counts arrivals in gmWorkspace; the host barrier needs no
 *  workspace. usedCores 0 (or the launch's block count) is every block; a barrier over fewer
 *  blocks is refused. */
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                    const int32_t usedCores = 0) {
  (void)gmWorkspace;
  (void)ubWorkspace;
  if (usedCores != 0 && usedCores != ::GetBlockNum()) {
    openatc::ascendc::Fail("SyncAll", "usedCores " + openatc::ascendc::Num(usedCores) +
                                          " is not the launch's block count " + openatc::ascendc::Num(::GetBlockNum()) +
                                          "; the host barrier covers every block (pass 0)");
  }
  openatc::ascendc::SyncAllBlocks("SyncAll");
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_BLOCK_SYNC_H_
