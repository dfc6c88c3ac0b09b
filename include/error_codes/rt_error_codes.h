/**
 * @file error_codes/rt_error_codes.h
 * Runtime error constants of CANN's rt_error_codes.h that the host SDK ships (a minimal subset;
 * the host runtime reports ACL_ERROR_* codes from acl_base_rt.h).
 */
#ifndef OPENATC_ERROR_CODES_RT_ERROR_CODES_H_
#define OPENATC_ERROR_CODES_RT_ERROR_CODES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static const int32_t ACL_RT_SUCCESS = 0;
static const int32_t ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int32_t ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int32_t ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;
static const int32_t ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int32_t ACL_ERROR_RT_INTERNAL_ERROR = 507000;

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ERROR_CODES_RT_ERROR_CODES_H_ */
