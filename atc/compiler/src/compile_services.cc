// Options and platform facts for Compile callbacks.
#include "compile_services.h"

#include "openatc/compiler/target_facts.h"
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
  const reg::PlatformDescription desc = PlatformDescriptionFor(target_);  // the chip's facts when emulated
  reg::FillPlatformInfos(desc, platform, optional);
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc::compiler
