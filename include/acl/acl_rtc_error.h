/**
 * @file acl/acl_rtc_error.h
 * Error codes of the RTC library (libacl_rtc), values of CANN's RTC implementation
 * (docs/acl.md §4). Separate from acl_rt_compile.h, which, as in CANN,
 * declares only the functions.
 */
#ifndef OPENATC_ACL_ACL_RTC_ERROR_H_
#define OPENATC_ACL_ACL_RTC_ERROR_H_

#ifdef __cplusplus
extern "C" {
#endif

static const int ACL_ERROR_RTC_INVALID_PROG = 176000;
static const int ACL_ERROR_RTC_INVALID_INPUT = 176001;
static const int ACL_ERROR_RTC_INVALID_OPTION = 176002;
static const int ACL_ERROR_RTC_COMPILATION = 176003;
static const int ACL_ERROR_RTC_LINKING = 176004;
static const int ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION = 176005;
static const int ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION = 176006;
static const int ACL_ERROR_RTC_NAME_EXPR_NOT_VALID = 176007;
static const int ACL_ERROR_RTC_PROG_CREATION_FAILURE = 276000;
static const int ACL_ERROR_RTC_OUT_OF_MEMORY = 276001;
static const int ACL_ERROR_RTC_FAILURE = 576000;

#ifdef __cplusplus
}
#endif

#endif /* OPENATC_ACL_ACL_RTC_ERROR_H_ */
