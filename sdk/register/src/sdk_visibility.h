// Private to libregister: include FIRST in every source. The public headers graph/ascend_string.h
// and graph/types.h carry no export attribute, so they are included here with default visibility
// (the library builds with -fvisibility=hidden); OpenATC-owned SDK headers use OPENATC_SDK_API.
#ifndef OPENATC_REGISTER_SRC_SDK_VISIBILITY_H_
#define OPENATC_REGISTER_SRC_SDK_VISIBILITY_H_

#pragma GCC visibility push(default)
#include "graph/ascend_string.h"
#include "graph/types.h"
#pragma GCC visibility pop

#include <string>

namespace openatc::reg {
/// Logs `message` as an error and makes it the calling thread's LastSdkError().
void SetSdkError(const std::string &message);
}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_SRC_SDK_VISIBILITY_H_
