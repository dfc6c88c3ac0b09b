// aclInit's configuration file (openatc/rt/init_config.h).
#include "openatc/rt/init_config.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "acl/acl_base.h"
#include "init_config.h"
#include "openatc/common/log.h"
#include "openatc/rt/error_state.h"

namespace openatc {
namespace rt {
namespace {

struct Section {
  InitSectionApply apply = nullptr;
  InitSectionClear clear = nullptr;
};

std::mutex &RegistryMutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, Section> &Registry() {
  static auto *sections = new std::map<std::string, Section>();  // never destroyed: used at exit
  return *sections;
}

std::atomic<bool> g_acl_initialized{false};

std::map<std::string, Section> Snapshot() {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  return Registry();
}

}  // namespace

void RegisterInitSection(const char *key, InitSectionApply apply, InitSectionClear clear) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Registry()[key] = {apply, clear};
}

bool AclInitialized() { return g_acl_initialized.load(); }
void SetAclInitialized(bool on) { g_acl_initialized.store(on); }

nlohmann::json ReadConfigFile(const std::string &file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    ThrowAcl(ACL_ERROR_INVALID_FILE, "the config file '" + file + "' is a folder",
             "Pass the path of an existing, readable JSON file");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    ThrowAcl(ACL_ERROR_INVALID_FILE, "cannot read the config file '" + file + "': " + std::strerror(errno),
             "Pass the path of an existing, readable JSON file");
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  if (bytes.empty()) return nullptr;  // GE: an empty file is no config
  nlohmann::json config;
  try {
    config = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::exception &e) {
    // nlohmann's text names the position ("at line 3, column 5").
    ThrowAcl(ACL_ERROR_PARSE_FILE, "the config file '" + file + "' is not JSON: " + e.what(),
             "Fix the JSON at that position");
  }
  if (!config.is_object()) {
    ThrowAcl(ACL_ERROR_PARSE_FILE,
             "the config file '" + file + "' holds " + std::string(config.type_name()) + ", not a JSON object",
             "Write an object such as {\"dump\": {...}}");
  }
  return config;
}

void ApplyInitConfig(const char *path) {
  const std::string file(path);
  const nlohmann::json config = ReadConfigFile(file);
  if (config.is_null()) return;
  const std::map<std::string, Section> sections = Snapshot();
  std::string known;
  for (const auto &[key, section] : sections) known += (known.empty() ? "\"" : ", \"") + key + "\"";
  std::vector<InitSectionClear> applied;
  try {
    for (const auto &[key, value] : config.items()) {
      auto it = sections.find(key);
      if (it == sections.end()) {
        LogWarning("aclInit: '" + file + "': \"" + key + "\" is not acted on by OpenATC (it reads " + known +
                   "): ignored");
        continue;
      }
      it->second.apply(value, file);
      applied.push_back(it->second.clear);
    }
  } catch (...) {
    for (InitSectionClear clear : applied) clear();
    throw;
  }
}

void ClearInitConfig() {
  for (const auto &[key, section] : Snapshot()) section.clear();
}

}  // namespace rt
}  // namespace openatc
