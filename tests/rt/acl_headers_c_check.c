/* Checks that the public ACL headers compile as C (C linkage, static const error names). */
#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"

int openatc_acl_headers_c_check(void) {
  aclrtBinaryLoadOption option;
  aclrtBinaryLoadOptions options;
  aclmdlIODims dims;
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  options.options = &option;
  options.numOpt = 1;
  dims.dimCount = 0;
  (void)dims;
  return (options.numOpt == 1 && ACL_SUCCESS == 0 && ACL_ERROR_KERNEL_NOT_FOUND == 100029 &&
          ACL_ERROR_RTC_INVALID_OPTION == 176002 && ACL_ERROR_GE_PARAM_INVALID == 145000U &&
          aclGetDataBufferSizeV2(0) == 0)
             ? 1
             : 0;
}
