// --op_compiler_cache_mode / --op_compiler_cache_dir as the RTC's op compile cache setting
// (openatc/rt/runtime.h KernelCacheConfig; docs/atc-deploy-flags.md). The environment
// (ASCEND_CACHE_PATH, HOME, ASCEND_MAX_OP_CACHE_SIZE, ASCEND_REMAIN_CACHE_SIZE_RATIO) and the
// cache folder's op_cache.ini are read here, once per compile, never by the RTC.
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "kernel_cache_options.h"
#include "openatc/common/log.h"

namespace openatc::atc {
namespace {

std::string Flag(const Options &o, const char *name) {
  auto it = o.other_flags.find(name);
  return it == o.other_flags.end() ? std::string() : it->second;
}

/// ATC's rule for the folder: letters, digits, '_', '-', '.', '/' and non-ASCII (Chinese) characters.
bool ValidCacheDir(const std::string &dir) {
  for (unsigned char c : dir)
    if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/' || c >= 0x80)) return false;
  return !dir.empty();
}

std::string Trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r");
  const size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// An integer in [lo, hi] (or -1 when allow_minus_one), else nullopt.
std::optional<int64_t> ParseBounded(const std::string &text, int64_t lo, int64_t hi, bool allow_minus_one) {
  const std::string t = Trim(text);
  if (t.empty() || t.size() > 12) return std::nullopt;
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(t, &used);
  } catch (const std::exception &) {
    return std::nullopt;
  }
  if (used != t.size()) return std::nullopt;
  if ((allow_minus_one && v == -1) || (v >= lo && v <= hi)) return v;
  return std::nullopt;
}

/// The [op_compiler_cache] keys of <dir>/op_cache.ini (absent file: none).
std::map<std::string, std::string> ReadOpCacheIni(const std::string &path) {
  std::map<std::string, std::string> keys;
  std::ifstream in(path);
  std::string line, section;
  while (std::getline(in, line)) {
    line = Trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      section = Trim(line.substr(1, line.size() - 2));
      continue;
    }
    const size_t eq = line.find('=');
    if (section == "op_compiler_cache" && eq != std::string::npos) keys[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return keys;
}

/// One size-control value: op_cache.ini wins over the environment variable, which wins over the default.
template <typename T>
T SizeSetting(const std::map<std::string, std::string> &ini, const std::string &ini_path, const char *key,
              const char *env, T fallback, int64_t lo, int64_t hi, bool allow_minus_one) {
  auto it = ini.find(key);
  if (it != ini.end()) {
    if (auto v = ParseBounded(it->second, lo, hi, allow_minus_one)) return static_cast<T>(*v);
    LogWarning("'" + ini_path + "': " + key + "=" + it->second + " is not an integer in " + std::to_string(lo) + ".." +
               std::to_string(hi) + (allow_minus_one ? " or -1" : "") + "; it is ignored");
  }
  const char *value = std::getenv(env);
  if (value != nullptr && *value != '\0') {
    if (auto v = ParseBounded(value, lo, hi, allow_minus_one)) return static_cast<T>(*v);
    LogWarning(std::string(env) + "=" + value + " is not an integer in " + std::to_string(lo) + ".." +
               std::to_string(hi) + (allow_minus_one ? " or -1" : "") + "; it is ignored");
  }
  return fallback;
}

}  // namespace

rt::KernelCacheConfig KernelCacheConfigFor(const Options &options) {
  using Mode = rt::KernelCacheConfig::Mode;
  rt::KernelCacheConfig config;
  const std::string mode = Flag(options, "op_compiler_cache_mode");
  config.mode = mode == "enable" ? Mode::kEnable : mode == "force" ? Mode::kForce : Mode::kDisable;
  if (config.mode == Mode::kDisable) return config;

  // Folder: the flag, else $ASCEND_CACHE_PATH, else $HOME/atc_data.
  std::string dir = Flag(options, "op_compiler_cache_dir");
  const char *source = "--op_compiler_cache_dir";
  if (dir.empty()) {
    const char *env = std::getenv("ASCEND_CACHE_PATH");
    const char *home = std::getenv("HOME");
    if (env != nullptr && *env != '\0') {
      dir = env;
      source = "ASCEND_CACHE_PATH";
    } else {
      dir = std::string(home != nullptr && *home != '\0' ? home : ".") + "/atc_data";
      source = "the default folder ($HOME/atc_data)";
    }
  }
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (!ValidCacheDir(dir)) {
    LogWarning(std::string(source) + " '" + dir + "' has characters other than letters, digits, '_', '-', '.' and '/': " +
               "no op compile cache is used. Pass --op_compiler_cache_dir with a folder named by those characters");
    config.mode = Mode::kDisable;
    return config;
  }
  config.dir = dir;

  // Debug options bypass the cache, as in ATC.
  const std::string level = Flag(options, "op_debug_level");
  if (!level.empty() && level != "0") config.bypass_reason = "--op_debug_level=" + level;
  else if (!Flag(options, "op_debug_config").empty()) config.bypass_reason = "--op_debug_config";

  const std::string ini_path = dir + "/op_cache.ini";
  const auto ini = ReadOpCacheIni(ini_path);
  config.max_size_mb = SizeSetting<int64_t>(ini, ini_path, "max_op_cache_size", "ASCEND_MAX_OP_CACHE_SIZE", 500, 1,
                                            int64_t{1} << 40, true);
  config.remain_ratio = SizeSetting<int>(ini, ini_path, "remain_cache_size_ratio", "ASCEND_REMAIN_CACHE_SIZE_RATIO", 50,
                                         1, 100, false);
  config.info = [](const std::string &line) { LogInfo(line); };
  config.warning = [](const std::string &line) { LogWarning(line); };
  return config;
}

}  // namespace openatc::atc
