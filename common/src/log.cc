// Leveled stderr logging with once-only warnings.
#include "openatc/common/log.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <mutex>
#include <set>

namespace openatc {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kError)};
std::mutex g_mu;
std::string &Tool() {
  static std::string tool = "openatc";
  return tool;
}
void Emit(LogLevel level, const char *tag, const std::string &message) {
  if (static_cast<int>(level) < g_level.load()) return;
  std::lock_guard<std::mutex> lock(g_mu);
  std::fprintf(stderr, "%s: %s: %s\n", Tool().c_str(), tag, message.c_str());
}
}  // namespace

bool ParseLogLevel(const std::string &text, LogLevel *level) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t == "debug") *level = LogLevel::kDebug;
  else if (t == "info") *level = LogLevel::kInfo;
  else if (t == "warning") *level = LogLevel::kWarning;
  else if (t == "error") *level = LogLevel::kError;
  else if (t == "null") *level = LogLevel::kNull;
  else return false;
  return true;
}

void SetLogLevel(LogLevel level) { g_level = static_cast<int>(level); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load()); }
void SetLogTool(const std::string &tool) {
  std::lock_guard<std::mutex> lock(g_mu);
  Tool() = tool;
}

void LogDebug(const std::string &message) { Emit(LogLevel::kDebug, "debug", message); }
void LogInfo(const std::string &message) { Emit(LogLevel::kInfo, "info", message); }
void LogError(const std::string &message) { Emit(LogLevel::kError, "error", message); }

void LogWarning(const std::string &message) {
  // Warnings are shown unless logging is off entirely; each distinct text once.
  if (GetLogLevel() == LogLevel::kNull) return;
  {
    static std::set<std::string> seen;
    std::lock_guard<std::mutex> lock(g_mu);
    if (!seen.insert(message).second) return;
    std::fprintf(stderr, "%s: warning: %s\n", Tool().c_str(), message.c_str());
  }
}

}  // namespace openatc
