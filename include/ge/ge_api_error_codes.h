/**
 * @file ge/ge_api_error_codes.h
 * The generic ge::Status values of GE's external API (GE `inc/external/ge/ge_api_error_codes.h`:
 * SUCCESS is 0; FAILED is the code with every field of GE's error-number layout set, 0xFFFFFFFF).
 * The detail of a failure is in GEGetErrorMsg() / GEGetErrorMsgV2() (ge/ge_api.h).
 */
#ifndef OPENATC_GE_GE_API_ERROR_CODES_H_
#define OPENATC_GE_GE_API_ERROR_CODES_H_

#include "ge/ge_api_types.h"

namespace ge {
constexpr Status SUCCESS = 0U;
constexpr Status FAILED = 0xFFFFFFFFU;
/// GE is not initialized (or was finalized): GE's client error 11 (ge/ge_ir_build.h).
constexpr Status GE_CLI_GE_NOT_INITIALIZED = 1343229963U;
}  // namespace ge

#endif  // OPENATC_GE_GE_API_ERROR_CODES_H_
