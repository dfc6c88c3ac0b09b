/**
 * @file kernel_operator.h
 * The Ascend C API on the host (docs/architecture.md, "Host RTC"): what an Ascend C kernel
 * includes, implemented for the CPU so that unmodified Ascend C kernels compile with clang and
 * run on the host, one call per block. Installed as asc/include/kernel_operator.h.
 *
 * The API is split by area into the headers beside this one (README.md, "Ascend C on the host",
 * lists what is supported):
 *   kernel_operator_base.h    UB size, KernelError, enums, bfloat16_t, per-block core state
 *   kernel_operator_gm.h      GM checker hook (openatc/gm_check.h), GlobalTensor, atomic modes
 *   kernel_operator_tensor.h  the per-block UB arena, LocalTensor
 *   kernel_operator_pipe.h    TPipe, TQue/TQueBind, TBuf
 *   kernel_operator_alloc.h   LocalMemAllocator (UB bump allocation)
 *   kernel_operator_copy.h    DataCopy, DataCopyPad (kernel_operator_copy_pad.h)
 *   kernel_operator_vec.h     elementwise vector math, Duplicate, vector masks
 *   kernel_operator_cast.h    Cast with RoundMode (count and repeat forms)
 *   kernel_operator_reduce.h  ReduceSum/Max/Min, Compare, Select
 *   kernel_operator_reduce_repeat.h  ReduceRepeat / WholeReduceSum/Max/Min (one result per repeat)
 *   kernel_operator_sync.h    PipeBarrier, SetFlag/WaitFlag
 *   kernel_operator_block_sync.h  SyncAll, the barrier over all blocks (openatc/block_sync.h)
 * Every misuse throws openatc::ascendc::KernelError ("block <i>: <call>: <problem>"); the
 * process is never aborted. The toolchain passes -D__NPU_ARCH__=<n> and
 * -DOPENATC_ASCENDC_UB_SIZE=<bytes>.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_H_

#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"

#include "kernel_operator_alloc.h"
#include "kernel_operator_base.h"
#include "kernel_operator_block_sync.h"
#include "kernel_operator_cast.h"
#include "kernel_operator_copy.h"
#include "kernel_operator_gm.h"
#include "kernel_operator_pipe.h"
#include "kernel_operator_reduce.h"
#include "kernel_operator_reduce_repeat.h"
#include "kernel_operator_sync.h"
#include "kernel_operator_tensor.h"
#include "kernel_operator_vec.h"

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
