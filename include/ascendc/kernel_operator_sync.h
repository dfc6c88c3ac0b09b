/**
 * @file kernel_operator_sync.h
 * Synchronisation in the Ascend C host library. A block runs sequentially on one host thread, so
 * PipeBarrier orders nothing; SetFlag/WaitFlag keep the pairing rule the device enforces: each
 * WaitFlag<e>(id) needs an earlier SetFlag<e>(id) of this block that no other wait consumed
 * (on the device an unmatched wait never returns; here it throws KernelError). Counts are per
 * block (reset by the TPipe constructor). SyncAll, the barrier between blocks, is in
 * kernel_operator_block_sync.h.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_SYNC_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_SYNC_H_

#include "kernel_operator_base.h"

namespace openatc {
namespace ascendc {

inline uint32_t &FlagCount(const char *api, AscendC::HardEvent evt, int32_t id) {
  if (id < 0 || id >= kEventIds) Fail(api, "event id " + Num(id) + " is outside 0..7");
  return Core().flags[static_cast<int>(evt)][id];
}

}  // namespace ascendc
}  // namespace openatc

/** Legacy intrinsic spelling of PipeBarrier. */
inline void pipe_barrier(pipe_t) {}

namespace AscendC {

template <pipe_t pipe>
inline void PipeBarrier() {}

template <HardEvent evt>
inline void SetFlag(int32_t id) {
  ++openatc::ascendc::FlagCount("SetFlag", evt, id);
}

template <HardEvent evt>
inline void WaitFlag(int32_t id) {
  uint32_t &count = openatc::ascendc::FlagCount("WaitFlag", evt, id);
  if (count == 0) {
    openatc::ascendc::Fail("WaitFlag", "event " + openatc::ascendc::Num(static_cast<int>(evt)) + " id " +
                                           openatc::ascendc::Num(id) +
                                           " was not set by SetFlag; on the device this wait never returns");
  }
  --count;
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_SYNC_H_
