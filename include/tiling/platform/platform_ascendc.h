/**
 * @file tiling/platform/platform_ascendc.h
 * Present so that GE custom-op sources written for Ascend C compile unchanged on the host target
 * (GE's ascendc_add_custom includes it; docs/custom-op-lifecycle.md §1). Ascend C tiling is a
 * device-side concern: the host reference target declares nothing here, and a source that uses
 * tiling types must keep that code under its own device-only build.
 */
#ifndef OPENATC_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define OPENATC_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#endif  // OPENATC_TILING_PLATFORM_PLATFORM_ASCENDC_H_
