// Our own Ascend C kernels for the tests of include/ascendc (test_kernels.cc), written the way
// Ascend C kernels are: entries called once per block after openatc_host_kernel_set_block.
#ifndef OPENATC_TESTS_ASCENDC_TEST_KERNELS_H_
#define OPENATC_TESTS_ASCENDC_TEST_KERNELS_H_

#include "kernel_operator.h"

/** z = x + y over `total` floats split evenly over the blocks, 256-float tiles, TQue depth 2. */
extern "C" __global__ __aicore__ void tk_add_double_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total);
/** Row b (block b) of `cols` floats: out[8b..8b+8) = sum of the row, summed in 200-float tiles
 *  with TBuf scratch, ReduceSum and Duplicate. */
extern "C" __global__ __aicore__ void tk_row_sum(GM_ADDR x, GM_ADDR out, uint32_t cols);
/** 8 floats per block: y = x * 0.5; out_round/out_rint/out_floor = Cast to int32 with
 *  CAST_ROUND / CAST_RINT / CAST_FLOOR. */
extern "C" __global__ __aicore__ void tk_cast_muls(GM_ADDR x, GM_ADDR out_round, GM_ADDR out_rint, GM_ADDR out_floor);
/** DataCopy of `count` floats GM -> UB -> GM through a TQue. */
extern "C" __global__ __aicore__ void tk_copy(GM_ADDR x, GM_ADDR z, uint32_t count);
/** `repeats` times: SetAtomicAdd, then DataCopy of 8 floats of (block + 1) onto acc. */
extern "C" __global__ __aicore__ void tk_atomic_add(GM_ADDR acc, uint32_t repeats);

#endif  // OPENATC_TESTS_ASCENDC_TEST_KERNELS_H_
