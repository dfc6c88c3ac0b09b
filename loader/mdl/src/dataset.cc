// aclmdlCreateDataset / AddDatasetBuffer / GetDatasetNumBuffers / GetDatasetBuffer /
// DestroyDataset (GE acl_mdl.h; docs/acl.md §2 "Model"). A dataset does not own its buffers:
// destroying it leaves them to aclDestroyDataBuffer, as in GE's model_exec sample.
#include "dataset.h"

#include <memory>

#include "handles.h"
#include "mdl_error.h"
#include "openatc/rt/error_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

LiveSet<aclmdlDataset> &Datasets() {
  static auto *set = new LiveSet<aclmdlDataset>("dataset", "aclmdlCreateDataset");
  return *set;
}

}  // namespace

aclmdlDataset *CheckDataset(const aclmdlDataset *dataset, const char *name) { return Datasets().Check(dataset, name); }

}  // namespace mdl
}  // namespace openatc

using namespace openatc::mdl;

extern "C" {

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void) {
  aclmdlDataset *d = nullptr;
  Guard("aclmdlCreateDataset", [&] {
    auto owned = std::make_unique<aclmdlDataset>();
    Datasets().Insert(owned.get());
    d = owned.release();
  });
  return d;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  return Guard("aclmdlDestroyDataset", [&] {
    CheckNotNull(dataset, "dataset");
    Datasets().Erase(dataset);
    delete dataset;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer) {
  return Guard("aclmdlAddDatasetBuffer", [&] {
    aclmdlDataset *d = CheckDataset(dataset, "dataset");
    CheckNotNull(dataBuffer, "dataBuffer");
    d->buffers.push_back(dataBuffer);
  });
}

ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  size_t n = 0;
  Guard("aclmdlGetDatasetNumBuffers", [&] { n = CheckDataset(dataset, "dataset")->buffers.size(); });
  return n;
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index) {
  aclDataBuffer *b = nullptr;
  Guard("aclmdlGetDatasetBuffer", [&] {
    aclmdlDataset *d = CheckDataset(dataset, "dataset");
    if (index >= d->buffers.size()) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "buffer index " + std::to_string(index) + " is out of range: the dataset holds " +
                                            std::to_string(d->buffers.size()) + " buffers");
    }
    b = d->buffers[index];
  });
  return b;
}

}  // extern "C"
