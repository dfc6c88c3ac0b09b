// Cooperative launches (openatc/block_sync.h): the blocks of a kernel whose object calls SyncAll
// run as fibers on the thread pool, so every block can wait in the barrier at once.
#ifndef OPENATC_RT_SRC_COOP_LAUNCH_H_
#define OPENATC_RT_SRC_COOP_LAUNCH_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "binary.h"

namespace openatc {
namespace rt {

/** A barrier that could not complete, or a fiber stack that overflowed; the message names
 *  kernel, block and "SyncAll reached by k of N blocks". */
class BarrierError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Runs blocks 0..num_blocks-1 of `fn` as fibers on the thread pool and returns when all ended.
 *  A block's exception is rethrown (the lowest failing block's; GmViolationError kept as is);
 *  a barrier that cannot complete throws BarrierError. */
void RunCooperative(const FunctionView &fn, uint32_t num_blocks, const void *args, size_t args_size);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_COOP_LAUNCH_H_
