// aclmdlLoadFromFile / aclmdlLoadFromMem / aclmdlUnload (GE acl_mdl.h; acl-subset.md §2
// "Model"). Loading reads and verifies the OM, loads its embedded deliverables and calls
// Deserialize (runtime::LoadedModel::Load).
//
// Targets: an OM built for host runs on the host runtime; LoadedModel::Load refuses one built for
// another CPU architecture, naming both targets. An OM built for an Ascend soc_version selects
// the CANN backend of libascendcl (device/rt/src/cann_runtime.h): its deliverables still run on
// this CPU (as GE runs a custom op's Execute on the host), and every aclrt* they, the executor
// and the application make goes to CANN's libascendcl.so. Without CANN the load fails naming the
// target and every path searched.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl_mdl.h"
#include "mdl_error.h"
#include "model_registry.h"
#include "openatc/common/target.h"
#include "openatc/om/model.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/rt/acl_internal.h"
#include "openatc/rt/error_state.h"
#include "openatc/runtime/model.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

constexpr char kMemoryLabel[] = "<memory model>";

bool IsAscend(const std::string &soc_version) { return soc_version.rfind("Ascend", 0) == 0; }

/** Selects the runtime backend for the OM's target, then loads it. */
std::unique_ptr<runtime::LoadedModel> LoadForTarget(om::Model model, const std::string &label) {
  const std::string soc = model.target.soc_version;
  if (IsAscend(soc) || target::IsHostTarget(soc)) {
    try {
      rt::SelectBackendOrThrow(soc);
    } catch (const openatc::Error &e) {
      std::string text = e.message();
      if (!e.hint().empty()) text += ". " + e.hint();
      ThrowAcl(std::atoi(e.code().c_str() + 3), "cannot load the model: '" + label + "': " + text);
    }
  }
  if (IsAscend(soc)) {
    // The embedded deliverables are built for this CPU; their launches go to CANN.
    model.target.soc_version = "host";
    model.target.arch = opp::HostArch();
  }
  try {
    return runtime::LoadedModel::Load(std::move(model), label);
  } catch (openatc::Error &e) {
    e.WithFile(label);
    ThrowLoadFailure(e);
  }
}

uint32_t Register(std::unique_ptr<runtime::LoadedModel> model, const std::string &label) {
  return ModelRegistry::Instance().Add(std::move(model), label);
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  return Guard("aclmdlLoadFromFile", [&] {
    openatc::mdl::CheckNotNull(modelPath, "modelPath");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    if (*modelPath == '\0') ThrowAcl(ACL_ERROR_INVALID_PARAM, "modelPath is empty", "Pass the path of an .om file");
    openatc::om::Model m;
    try {
      m = openatc::om::ReadFile(modelPath);
    } catch (openatc::Error &e) {
      e.WithFile(modelPath);
      openatc::mdl::ThrowLoadFailure(e);
    }
    auto model = openatc::mdl::LoadForTarget(std::move(m), modelPath);
    *modelId = openatc::mdl::Register(std::move(model), modelPath);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId) {
  return Guard("aclmdlLoadFromMem", [&] {
    openatc::mdl::CheckNotNull(model, "model");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    if (modelSize == 0) {
      ThrowAcl(ACL_ERROR_MODEL_SIZE_INVALID, "modelSize is 0", "Pass the byte size of the OM image");
    }
    // The caller may free its bytes after the call: the model keeps its own copy.
    const auto *bytes = static_cast<const uint8_t *>(model);
    auto copy = std::make_shared<std::vector<uint8_t>>(bytes, bytes + modelSize);
    openatc::om::Model m;
    try {
      m = openatc::om::ReadBytes(copy->data(), copy->size(), copy);
    } catch (openatc::Error &e) {
      e.WithFile(openatc::mdl::kMemoryLabel);
      openatc::mdl::ThrowLoadFailure(e);
    }
    auto loaded = openatc::mdl::LoadForTarget(std::move(m), openatc::mdl::kMemoryLabel);
    *modelId = openatc::mdl::Register(std::move(loaded), openatc::mdl::kMemoryLabel);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId) {
  return Guard("aclmdlUnload", [&] { openatc::mdl::ModelRegistry::Instance().Remove(modelId); });
}

}  // extern "C"
