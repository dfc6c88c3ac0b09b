// The aclmdlDesc object: a snapshot of a loaded model's inputs and outputs, and the id of the
// model it describes (the gear queries of gears.cc look the model up). Shared by desc.cc and
// gears.cc.
#ifndef OPENATC_MDL_SRC_DESC_STATE_H_
#define OPENATC_MDL_SRC_DESC_STATE_H_

#include <cstdint>
#include <vector>

#include "acl/acl_mdl.h"
#include "handles.h"
#include "openatc/runtime/model.h"

struct aclmdlDesc {
  bool filled = false;
  uint32_t model_id = 0;
  std::vector<openatc::runtime::IoDesc> inputs, outputs;
};

namespace openatc {
namespace mdl {

/** The live descriptions (desc.cc). */
LiveSet<aclmdlDesc> &Descs();

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_DESC_STATE_H_
