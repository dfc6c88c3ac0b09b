/**
 * @file add_custom_kernel.h
 * Host launcher of the add_custom kernel (add_custom_kernel.cpp), the host port of the
 * `launch_add_custom` wrapper GE's ascendc_add_custom sample builds into libcust_opapi.so.
 */
#ifndef OPENATC_EXAMPLES_ASCENDC_ADD_CUSTOM_KERNEL_H_
#define OPENATC_EXAMPLES_ASCENDC_ADD_CUSTOM_KERNEL_H_

#include <cstdint>

/**
 * z = x + y over `total_length` fp16 elements on `num_block` blocks of `stream`, in stream order
 * (OPENATC_LAUNCH, the host form of `add_custom<<<num_block, nullptr, stream>>>`).
 * Broadcast: x and y are read at `i % x_length` and `i % y_length`, which is NumPy broadcasting
 * when each input's shape, after dropping its leading 1s, equals the trailing dims of z's shape
 * (the caller checks). Lengths are element counts, not bytes. Returns an ACL error code (0 = ok).
 */
int launch_add_custom(uint8_t *x, uint8_t *y, uint8_t *z, uint32_t total_length, uint32_t num_block, void *stream,
                      uint32_t x_length = 0, uint32_t y_length = 0);

#endif  // OPENATC_EXAMPLES_ASCENDC_ADD_CUSTOM_KERNEL_H_
