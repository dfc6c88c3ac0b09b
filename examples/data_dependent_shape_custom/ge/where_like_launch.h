// The host entry of WhereLikeCustom's Ascend C kernel (where_like_kernel.asc): launches it with
// <<<1, nullptr, stream>>> on `stream` and returns the launch's result (0 = queued; wait with
// aclrtSynchronizeStream). x: n bool bytes; dims: rank int64 extents of x; y: room for n * rank
// int64; record: 3 uint64 ({2, count, rank} once the kernel ran). All pointers are device memory.
#ifndef OPENATC_EXAMPLES_WHERE_LIKE_LAUNCH_H_
#define OPENATC_EXAMPLES_WHERE_LIKE_LAUNCH_H_

#include <cstdint>

int LaunchWhereLike(const void *x, const void *dims, void *y, void *record, uint64_t n, uint64_t rank, void *stream);

#endif  // OPENATC_EXAMPLES_WHERE_LIKE_LAUNCH_H_
