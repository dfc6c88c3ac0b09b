/**
 * @file kernel_operator.h
 * The Ascend C API on the host (docs/architecture.md, "Host RTC"): what an Ascend C kernel
 * includes, implemented for the CPU so that unmodified Ascend C kernels compile with clang and
 * run on the host, one call per block. Installed as asc/include/kernel_operator.h.
 *
 * This is the starting skeleton: qualifiers, GM_ADDR, the kernel-type macro and the block
 * index. The rest of the API (GlobalTensor, TPipe, TQue, TBuf, LocalTensor, DataCopy, vector
 * arithmetic, with the chip's rules and checked global memory through openatc/gm_check.h)
 * is added here and in the headers beside it.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_H_

#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"

/* Execution-space and address-space qualifiers that mean nothing on the host. */
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(...)
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __host__
#define __host__
#endif

/** Kernel types (KERNEL_TASK_TYPE_DEFAULT); values in Ascend C's order. */
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY = 0,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};

/* Statement-position kernel-type declarations: read by the toolchain, nothing at run time. */
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))

namespace AscendC {

/** Index of the running block, 0..GetBlockNum()-1. */
inline int64_t GetBlockIdx() { return ::GetBlockIdx(); }
/** Number of blocks of the running launch. */
inline int64_t GetBlockNum() { return ::GetBlockNum(); }

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_H_
