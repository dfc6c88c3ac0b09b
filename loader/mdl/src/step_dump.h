// Private: one aclmdlExecute of a model bound to a dump config (dump_state.h) that selects this
// step: the omrun dump layout (openatc/dump/node_dump.h) written under GE's tree
// <dump_path>/<YYYYMMDDhhmmss>/<device_id>/<model_name>/<model_id>/<step>/. Made and used under
// the model's run mutex.
#ifndef OPENATC_MDL_SRC_STEP_DUMP_H_
#define OPENATC_MDL_SRC_STEP_DUMP_H_

#include <memory>

#include "model_registry.h"
#include "openatc/dump/node_dump.h"

namespace openatc {
namespace mdl {

class StepDump {
 public:
  /// Counts the step; when the binding's config is in force and dump_step selects it, watches the
  /// run (a folder that cannot be made: ACL_ERROR_WRITE_FILE).
  explicit StepDump(ModelEntry &entry);
  ~StepDump();  ///< stops watching; a dump not committed leaves nothing behind
  StepDump(const StepDump &) = delete;
  StepDump &operator=(const StepDump &) = delete;
  /// After a successful run: puts the step folder in place (ACL_ERROR_WRITE_FILE when it cannot).
  void Commit();

 private:
  ModelEntry &entry_;
  std::unique_ptr<dump::NodeDump> dump_;
};

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_STEP_DUMP_H_
