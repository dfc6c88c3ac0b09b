/**
 * @file error_codes/ge_error_codes.h
 * The ACL_ERROR_GE_* constants returned by model loading and execution (values of GE's
 * inc/external/ge/ge_error_codes.h; docs/acl.md §4). static const uint32_t.
 */
#ifndef OPENATC_ERROR_CODES_GE_ERROR_CODES_H_
#define OPENATC_ERROR_CODES_GE_ERROR_CODES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static const uint32_t ACL_ERROR_GE_PARAM_INVALID = 145000U;
static const uint32_t ACL_ERROR_GE_EXEC_NOT_INIT = 145001U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID = 145002U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_ID_INVALID = 145003U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID = 145006U;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID = 145007U;
static const uint32_t ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED = 145009U;
static const uint32_t ACL_ERROR_GE_MEMORY_ALLOCATION = 245000U;
static const uint32_t ACL_ERROR_GE_INTERNAL_ERROR = 545000U;
static const uint32_t ACL_ERROR_GE_LOAD_MODEL = 545001U;

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ERROR_CODES_GE_ERROR_CODES_H_ */
