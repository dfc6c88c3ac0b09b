/**
 * @file openatc/block_sync.h
 * Blocks that synchronise (Ascend C's SyncAll): the C ABI between a kernel's shared object (built
 * with kernel_operator.h) and the runtime that launches it (docs/architecture.md, "Host RTC";
 * README.md, "Ascend C on the host").
 *
 * A launch whose kernel object uses SyncAll runs its blocks cooperatively: each block on a fiber
 * of its own, scheduled on the runtime's threads, so every block of the launch can be waiting in
 * a barrier at once, however many there are. Kernel code calls, for each SyncAll,
 *
 *   int rc = sync->sync_all();
 *
 * which returns once every block of the running launch has called it:
 *   0  all blocks arrived; continue;
 *   1  the launch is abandoned (a block returned without reaching this barrier, or failed): the
 *      caller must end the block by throwing (any type); the launch fails naming the cause;
 *   2  the calling block is not part of a cooperative launch (the caller must throw).
 * While it waits, the calling block's fiber is suspended and other blocks run on the same thread
 * (a fiber stays on the thread it started on), so the kernel's thread-local block state (block
 * index, core state, UB, TPipe) must be saved before the call and restored after it.
 *
 * A kernel shared object exports, with default visibility:
 *   void openatc_host_kernel_set_block_sync(const openatc_block_sync *sync);  (the runtime calls
 *        it once after loading the object, as openatc_host_kernel_set_gm_checker)
 *   uint32_t openatc_host_kernel_block_sync_used(void);  (1 when the object calls SyncAll: its
 *        launches run cooperatively; 0 or absent: blocks run as plain calls on the thread pool)
 * Code linked into a program with libascendcl.so (in-process `<<<>>>` launches) gets the same
 * table from libascendcl's export `const openatc_block_sync *openatc_rt_block_sync(void)` and
 * launches through `openatc_rt_launch_cooperative_host_kernel` (openatc/ascendc_launch.h).
 */
#ifndef OPENATC_BLOCK_SYNC_H_
#define OPENATC_BLOCK_SYNC_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of struct openatc_block_sync; a runtime fills abi_version with it. */
#define OPENATC_BLOCK_SYNC_ABI_VERSION 1u

/** sync_all results (see the file comment). */
#define OPENATC_BLOCK_SYNC_OK 0
#define OPENATC_BLOCK_SYNC_ABANDONED 1
#define OPENATC_BLOCK_SYNC_NOT_COOPERATIVE 2

typedef struct openatc_block_sync {
  uint32_t abi_version; /**< OPENATC_BLOCK_SYNC_ABI_VERSION */
  uint32_t reserved;
  /** The barrier over every block of the running launch; see the file comment. */
  int (*sync_all)(void);
} openatc_block_sync;

#ifdef __cplusplus
}

namespace openatc_block_sync_detail {

/** Whether this shared object (or program) calls SyncAll anywhere: set while it is loaded, by
 *  the initialiser of SyncAllMark (instantiated only where SyncAll is used). Hidden: one per
 *  object, so a launch asks the object that holds the kernel. */
__attribute__((visibility("hidden"))) inline bool &Used() {
  static bool used = false;
  return used;
}

template <int OpenatcN_>
struct SyncAllMark {
  static const bool on;
};
template <int OpenatcN_>
const bool SyncAllMark<OpenatcN_>::on = (Used() = true);

}  // namespace openatc_block_sync_detail
#endif

#endif  // OPENATC_BLOCK_SYNC_H_
