// CompileServices: what OpCompileContext / AnnotatedArgsContext delegate to during `atc`.
#ifndef OPENATC_COMPILER_COMPILE_SERVICES_H_
#define OPENATC_COMPILER_COMPILE_SERVICES_H_

#include <map>
#include <string>

#include "openatc/common/target.h"
#include "openatc/gert/frame.h"

namespace openatc::compiler {

class CompileServices : public gert_impl::Services {
 public:
  CompileServices(const Target &target, const std::map<std::string, std::string> &ge_options);
  bool GetOption(const std::string &key, std::string *value) override;
  ge::graphStatus GetPlatformInfos(fe::PlatFormInfos &platform, fe::OptionalInfos &optional) override;

 private:
  Target target_;
  const std::map<std::string, std::string> &options_;
};

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_COMPILE_SERVICES_H_
