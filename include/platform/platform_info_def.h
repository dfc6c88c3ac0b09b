/**
 * @file platform/platform_info_def.h
 * Companion of platform/platform_infos_def.h (hicann/runtime includes it from there). GE's
 * version declares plain platform-description structs that custom ops do not use; OpenATC keeps
 * the file so the include spelling resolves and defines nothing else.
 */
#ifndef OPENATC_PLATFORM_PLATFORM_INFO_DEF_H_
#define OPENATC_PLATFORM_PLATFORM_INFO_DEF_H_

#include <cstdint>

namespace fe {
/// Default core type name used by GetCoreNumByType.
constexpr const char *kOpenAtcAiCoreType = "AiCore";
}  // namespace fe

#endif  // OPENATC_PLATFORM_PLATFORM_INFO_DEF_H_
