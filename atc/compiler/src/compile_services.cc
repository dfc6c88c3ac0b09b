// Options and platform facts for Compile callbacks.
#include "compile_services.h"

#include "openatc/register/platform.h"

namespace openatc::compiler {

CompileServices::CompileServices(const Target &target, const std::map<std::string, std::string> &ge_options)
    : target_(target), options_(ge_options) {}

bool CompileServices::GetOption(const std::string &key, std::string *value) {
  auto it = options_.find(key);
  if (it == options_.end()) return false;
  *value = it->second;
  return true;
}

ge::graphStatus CompileServices::GetPlatformInfos(fe::PlatFormInfos &platform, fe::OptionalInfos &optional) {
  reg::PlatformDescription desc = reg::HostPlatformDescription();
  if (!target_.is_host()) {
    desc.soc_version = target_.soc_version;
  }
  reg::FillPlatformInfos(desc, platform, optional);
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc::compiler
