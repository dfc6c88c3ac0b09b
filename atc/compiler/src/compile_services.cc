// Options and platform facts for Compile callbacks.
#include "compile_services.h"

#include "openatc/register/platform.h"

namespace openatc::compiler {
namespace {
// The NPU architecture code of an Ascend SoC family (RTC option --npu-arch=dav-<code>), for the
// families whose code is known here; "" otherwise.
std::string NpuArchOf(const std::string &soc) {
  if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return "2201";
  if (soc.rfind("Ascend310P", 0) == 0) return "2002";
  return "";
}
}  // namespace

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
    desc.npu_arch = NpuArchOf(target_.soc_version);  // "" when unknown: the op then fails clearly
  }
  reg::FillPlatformInfos(desc, platform, optional);
  return ge::GRAPH_SUCCESS;
}

}  // namespace openatc::compiler
