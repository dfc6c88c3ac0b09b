// The aclmdlDataset object: an ordered list of data buffers (not owned), in model input or
// output order. Shared by dataset.cc (the C API) and execute.cc.
#ifndef OPENATC_MDL_SRC_DATASET_H_
#define OPENATC_MDL_SRC_DATASET_H_

#include <vector>

#include "acl/acl_mdl.h"

struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
};

namespace openatc {
namespace mdl {

/** `dataset` itself after checking it is live; null or not live -> ACL_ERROR_INVALID_PARAM
 *  naming `name`. The caller must not use it concurrently with aclmdlDestroyDataset. */
aclmdlDataset *CheckDataset(const aclmdlDataset *dataset, const char *name);

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_DATASET_H_
