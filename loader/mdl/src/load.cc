// aclmdlLoadFromFile / aclmdlLoadFromMem / aclmdlUnload (GE acl_mdl.h; docs/acl.md §2
// "Model"). Loading reads and verifies the OM, loads its embedded deliverables and calls
// Deserialize (runtime::LoadedModel::Load).
//
// Targets: LoadedModel::Load checks the OM's target, the one check omrun passes through too
// (loader/runtime/src/model_loader.cc). An OM built for host runs on the host runtime; one built
// for another CPU architecture is refused (ACL_ERROR_INVALID_FILE), naming both targets. An OM
// built for an Ascend soc_version selects the CANN backend of libascendcl
// (device/rt/src/cann_runtime.h): its deliverables still run on this CPU (as GE runs a custom op's
// Execute on the host), and every aclrt* they, the executor and the application make goes to
// CANN's libascendcl.so. Without CANN the load fails (ACL_ERROR_FEATURE_UNSUPPORTED) naming the
// target and every path searched.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "acl/acl_mdl.h"
#include "dump_state.h"
#include "load.h"
#include "mdl_error.h"
#include "model_registry.h"
#include "openatc/om/model.h"
#include "openatc/rt/error_state.h"
#include "openatc/runtime/model.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

constexpr char kMemoryLabel[] = "<memory model>";

/** Loads a read model; the target check is LoadedModel::Load's (loader/runtime). */
std::unique_ptr<runtime::LoadedModel> LoadModel(om::Model model, const std::string &label) {
  try {
    return runtime::LoadedModel::Load(std::move(model), label);
  } catch (openatc::Error &e) {
    e.WithFile(label);
    ThrowLoadFailure(e);
  }
}

// `model_name` is what a dump config's dump_list names it by (dump_state.h).
uint32_t Register(std::unique_ptr<runtime::LoadedModel> model, const std::string &label, const std::string &model_name) {
  return ModelRegistry::Instance().Add(std::move(model), label, BindDump(model_name));
}

// GE's dump model name of a file: its name without the folder and without ".om".
std::string FileModelName(const std::string &path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".om") == 0) name.resize(name.size() - 3);
  return name;
}

}  // namespace

uint32_t LoadOmFile(const char *modelPath, const om::ReadOptions &options) {
  if (*modelPath == '\0') ThrowAcl(ACL_ERROR_INVALID_PARAM, "modelPath is empty", "Pass the path of an .om file");
  om::Model m;
  try {
    m = om::ReadFile(modelPath, options);
  } catch (Error &e) {
    e.WithFile(modelPath);
    ThrowLoadFailure(e);
  }
  auto model = LoadModel(std::move(m), modelPath);
  return Register(std::move(model), modelPath, FileModelName(modelPath));
}

uint32_t LoadOmBytes(const void *model, size_t modelSize, const om::ReadOptions &options) {
  if (modelSize == 0) ThrowAcl(ACL_ERROR_MODEL_SIZE_INVALID, "modelSize is 0", "Pass the byte size of the OM image");
  // The caller may free its bytes after the call: the model keeps its own copy.
  const auto *bytes = static_cast<const uint8_t *>(model);
  auto copy = std::make_shared<std::vector<uint8_t>>(bytes, bytes + modelSize);
  om::Model m;
  try {
    m = om::ReadBytes(copy->data(), copy->size(), copy, options);
  } catch (Error &e) {
    e.WithFile(kMemoryLabel);
    ThrowLoadFailure(e);
  }
  const std::string graph_name = m.graph.name;  // GE's dump model name of a model from memory
  auto loaded = LoadModel(std::move(m), kMemoryLabel);
  return Register(std::move(loaded), kMemoryLabel, graph_name);
}

}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  return Guard("aclmdlLoadFromFile", [&] {
    openatc::mdl::CheckNotNull(modelPath, "modelPath");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    *modelId = openatc::mdl::LoadOmFile(modelPath, {});
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId) {
  return Guard("aclmdlLoadFromMem", [&] {
    openatc::mdl::CheckNotNull(model, "model");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    *modelId = openatc::mdl::LoadOmBytes(model, modelSize, {});
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId) {
  return Guard("aclmdlUnload", [&] { openatc::mdl::ModelRegistry::Instance().Remove(modelId); });
}

}  // extern "C"
