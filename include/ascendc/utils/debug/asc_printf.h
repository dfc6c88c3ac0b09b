/**
 * @file utils/debug/asc_printf.h
 * The debug-print header Ascend C kernels include when they use only `printf` (no
 * kernel_operator.h): on the host a kernel's printf is the C library's, written to stdout by the
 * block's thread (one call, one uninterrupted write), and `AscendC::printf` / `PRINTF` are the
 * same (kernel_operator_base.h). It also brings the kernel qualifiers (__global__, __vector__,
 * __aicore__, __gm__) so such a file compiles alone. See README.md "Ascend C on the host".
 */
#ifndef OPENATC_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H_
#define OPENATC_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H_

#include "kernel_operator_base.h"

#endif  // OPENATC_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H_
