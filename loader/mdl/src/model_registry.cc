// The table of loaded models (see model_registry.h).
#include "model_registry.h"

#include "openatc/rt/error_state.h"

namespace openatc {
namespace mdl {
namespace {

[[noreturn]] void ThrowUnknown(uint32_t id) {
  rt::ThrowAcl(ACL_ERROR_INVALID_MODEL_ID, "model id " + std::to_string(id) + " is not a loaded model",
               "Pass an id written by aclmdlLoadFromFile or aclmdlLoadFromMem that was not unloaded");
}

}  // namespace

ModelRegistry &ModelRegistry::Instance() {
  static auto *registry = new ModelRegistry();
  return *registry;
}

uint32_t ModelRegistry::Add(std::unique_ptr<runtime::LoadedModel> model, const std::string &label,
                           std::unique_ptr<ModelDump> dump) {
  auto entry = std::make_shared<ModelEntry>();
  entry->label = label;
  entry->model = std::move(model);
  entry->dump = std::move(dump);
  std::lock_guard<std::mutex> lock(mutex_);
  while (next_id_ == 0 || models_.count(next_id_) != 0) ++next_id_;
  entry->id = next_id_++;
  models_[entry->id] = entry;
  return entry->id;
}

std::shared_ptr<ModelEntry> ModelRegistry::Find(uint32_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(id);
  if (it == models_.end()) ThrowUnknown(id);
  return it->second;
}

void ModelRegistry::Remove(uint32_t id) {
  std::shared_ptr<ModelEntry> entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = models_.find(id);
    if (it == models_.end()) ThrowUnknown(id);
    entry = std::move(it->second);
    models_.erase(it);
  }
  // Wait for an execution in progress; later ones cannot find the id any more.
  std::lock_guard<std::mutex> wait(entry->run_mutex);
}

}  // namespace mdl
}  // namespace openatc
