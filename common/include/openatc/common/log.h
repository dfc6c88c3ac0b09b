/**
 * @file openatc/common/log.h
 * Process-wide leveled logging to stderr, shared by atc, omrun and the runtime libraries.
 * Levels follow ATC's --log values: debug, info, warning, error (default), null.
 * Warnings use the error template with "warning:" and each distinct text is printed once.
 */
#ifndef OPENATC_COMMON_LOG_H_
#define OPENATC_COMMON_LOG_H_

#include <string>

namespace openatc {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };

/// Parses "debug|info|warning|error|null" (case-insensitive); false if unknown.
bool ParseLogLevel(const std::string &text, LogLevel *level);
void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
/// Name printed before ": warning:" / ": info:" lines ("atc", "omrun"). Default "openatc".
void SetLogTool(const std::string &tool);

void LogDebug(const std::string &message);
void LogInfo(const std::string &message);
/// Printed once per distinct message, as "<tool>: warning: <message>".
void LogWarning(const std::string &message);
void LogError(const std::string &message);

}  // namespace openatc

#endif  // OPENATC_COMMON_LOG_H_
