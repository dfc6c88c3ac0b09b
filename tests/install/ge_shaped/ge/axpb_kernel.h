// The host side of AxpbCustom's Ascend C kernel (axpb_kernel.asc): the op's Execute calls this,
// and it launches the kernel with <<<>>> on the op's stream, as GE's Ascend C samples do.
#ifndef GE_SHAPED_AXPB_KERNEL_H_
#define GE_SHAPED_AXPB_KERNEL_H_
#include <cstdint>

#include "acl/acl_base.h"

/** z[i] = 2 * x[i] + y[i] for i < n (float32), split over num_blocks blocks. Returns the launch's
 *  ACL error code (0 = success). */
int launch_axpb_kernel(uint8_t *x, uint8_t *y, uint8_t *z, uint32_t n, uint32_t num_blocks, aclrtStream stream);
#endif  // GE_SHAPED_AXPB_KERNEL_H_
