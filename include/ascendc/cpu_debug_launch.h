/**
 * @file cpu_debug_launch.h
 * What Ascend C samples include in CANN's CPU-debug mode (`#ifdef ASCENDC_CPU_DEBUG`, defined by
 * the ASC language for CMAKE_ASC_RUN_MODE=cpu, cmake/asc/CMakeASCInformation.cmake). On OpenATC
 * every mode runs kernels on the host CPU, and `<<<>>>` launches go through
 * openatc/ascendc_launch.h whatever the mode, so this header only brings that launch path.
 */
#ifndef OPENATC_ASCENDC_CPU_DEBUG_LAUNCH_H_
#define OPENATC_ASCENDC_CPU_DEBUG_LAUNCH_H_

#include "openatc/ascendc_launch.h"

#endif  // OPENATC_ASCENDC_CPU_DEBUG_LAUNCH_H_
