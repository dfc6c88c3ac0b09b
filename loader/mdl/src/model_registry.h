// The process-wide table of loaded models behind aclmdl* model ids.
//
// Threading: every function may be called from any thread. Each model has its own run mutex:
// executions of one model are serialised (its op objects are shared by its nodes and are not
// thread-safe, runtime/model.h), different models run concurrently. Unload removes the id at
// once (later calls get ACL_ERROR_INVALID_MODEL_ID), then waits for a running execution of that
// model to finish before the model is destroyed.
#ifndef OPENATC_MDL_SRC_MODEL_REGISTRY_H_
#define OPENATC_MDL_SRC_MODEL_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "dump_state.h"
#include "openatc/runtime/model.h"

namespace openatc {
namespace mdl {

struct ModelEntry {
  uint32_t id = 0;
  std::string label;                              ///< file path, or "<memory model>"
  std::unique_ptr<runtime::LoadedModel> model;    ///< never null
  std::mutex run_mutex;                           ///< held for one whole aclmdlExecute
  std::unique_ptr<ModelDump> dump;                ///< the dump config listing it at load, or null
};

class ModelRegistry {
 public:
  /** The process-wide registry (never destroyed, so models left loaded at exit are not torn
   *  down after their deliverables' libraries). */
  static ModelRegistry &Instance();

  /** Registers a loaded model; returns its id (>= 1, not reused while the process lives).
   *  `dump`: its binding to the dump config in force (dump_state.h), or null. */
  uint32_t Add(std::unique_ptr<runtime::LoadedModel> model, const std::string &label,
               std::unique_ptr<ModelDump> dump = nullptr);
  /** The model for `id`. Unknown or unloaded id -> ACL_ERROR_INVALID_MODEL_ID naming `api`. */
  std::shared_ptr<ModelEntry> Find(uint32_t id) const;
  /** Unloads `id` (ACL_ERROR_INVALID_MODEL_ID when unknown). */
  void Remove(uint32_t id);

 private:
  mutable std::mutex mutex_;
  uint32_t next_id_ = 1;
  std::map<uint32_t, std::shared_ptr<ModelEntry>> models_;
};

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_MODEL_REGISTRY_H_
