// aclmdlCreateDesc/GetDesc/DestroyDesc and the description queries (GE acl_mdl.h;
// docs/acl.md §2 "Model"). A description is a snapshot of a loaded model's inputs and outputs:
// names, aclDataType (ge::DataType numbers, undefined = -1), aclFormat (ge::Format numbers),
// dims (-1 = dynamic) and byte sizes (0 when the shape is not static). Functions that return a
// value rather than an aclError report misuse through aclGetRecentErrMsg and return 0 / "" /
// ACL_DT_UNDEFINED / ACL_FORMAT_UNDEFINED.
#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/acl_mdl.h"
#include "handles.h"
#include "mdl_error.h"
#include "model_registry.h"
#include "openatc/rt/error_state.h"

#include "desc_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {

LiveSet<aclmdlDesc> &Descs() {
  static auto *set = new LiveSet<aclmdlDesc>("model description", "aclmdlCreateDesc");
  return *set;
}

namespace {

enum class Side { kInput, kOutput };

const char *SideName(Side s) { return s == Side::kInput ? "input" : "output"; }

/** The I/O entry `index` of a live, filled description; throws ACL_ERROR_INVALID_PARAM. */
const runtime::IoDesc &Entry(const aclmdlDesc *desc, Side side, size_t index) {
  aclmdlDesc *d = Descs().Check(desc, "modelDesc");
  if (!d->filled) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "the model description is empty", "Fill it with aclmdlGetDesc first");
  }
  const auto &list = side == Side::kInput ? d->inputs : d->outputs;
  if (index >= list.size()) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             std::string(SideName(side)) + " index " + std::to_string(index) + " is out of range: the model has " +
                 std::to_string(list.size()) + " " + SideName(side) + "s",
             "Pass an index below aclmdlGetNum" + std::string(side == Side::kInput ? "Inputs" : "Outputs"));
  }
  return list[index];
}

size_t Count(const aclmdlDesc *desc, Side side, const char *api) {
  size_t n = 0;
  Guard(api, [&] {
    aclmdlDesc *d = Descs().Check(desc, "modelDesc");
    n = side == Side::kInput ? d->inputs.size() : d->outputs.size();
  });
  return n;
}

size_t Size(const aclmdlDesc *desc, Side side, size_t index, const char *api) {
  size_t n = 0;
  Guard(api, [&] { n = Entry(desc, side, index).bytes; });
  return n;
}

aclError Dims(const aclmdlDesc *desc, Side side, size_t index, aclmdlIODims *dims, const char *api) {
  return Guard(api, [&] {
    const runtime::IoDesc &io = Entry(desc, side, index);
    CheckNotNull(dims, "dims");
    if (io.shape.size() > ACL_MAX_DIM_CNT) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(SideName(side)) + " '" + io.name + "' has rank " +
                                            std::to_string(io.shape.size()) + ", more than ACL_MAX_DIM_CNT (64)");
    }
    std::memset(dims, 0, sizeof *dims);
    // The name is truncated to ACL_MAX_TENSOR_NAME_LEN - 1 bytes and always NUL-terminated.
    size_t n = std::min(io.name.size(), static_cast<size_t>(ACL_MAX_TENSOR_NAME_LEN - 1));
    std::memcpy(dims->name, io.name.data(), n);
    dims->dimCount = io.shape.size();
    std::copy(io.shape.begin(), io.shape.end(), dims->dims);
  });
}

const char *Name(const aclmdlDesc *desc, Side side, size_t index, const char *api) {
  const char *name = "";
  Guard(api, [&] { name = Entry(desc, side, index).name.c_str(); });
  return name;
}

aclDataType DataType(const aclmdlDesc *desc, Side side, size_t index, const char *api) {
  aclDataType t = ACL_DT_UNDEFINED;
  Guard(api, [&] {
    ge::DataType dt = Entry(desc, side, index).dtype;
    t = dt == ge::DT_UNDEFINED ? ACL_DT_UNDEFINED : static_cast<aclDataType>(static_cast<int>(dt));
  });
  return t;
}

aclFormat Format(const aclmdlDesc *desc, Side side, size_t index, const char *api) {
  aclFormat f = ACL_FORMAT_UNDEFINED;
  Guard(api, [&] { f = static_cast<aclFormat>(static_cast<int>(Entry(desc, side, index).format)); });
  return f;
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

using namespace openatc::mdl;

extern "C" {

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void) {
  aclmdlDesc *d = nullptr;
  Guard("aclmdlCreateDesc", [&] {
    auto owned = std::make_unique<aclmdlDesc>();
    Descs().Insert(owned.get());
    d = owned.release();
  });
  return d;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  return Guard("aclmdlDestroyDesc", [&] {
    CheckNotNull(modelDesc, "modelDesc");
    Descs().Erase(modelDesc);
    delete modelDesc;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) {
  return Guard("aclmdlGetDesc", [&] {
    aclmdlDesc *d = Descs().Check(modelDesc, "modelDesc");
    auto entry = ModelRegistry::Instance().Find(modelId);
    d->inputs = entry->model->inputs();
    d->outputs = entry->model->outputs();
    d->model_id = modelId;
    d->filled = true;
  });
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc) {
  return Count(modelDesc, Side::kInput, "aclmdlGetNumInputs");
}
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc) {
  return Count(modelDesc, Side::kOutput, "aclmdlGetNumOutputs");
}
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  return Size(modelDesc, Side::kInput, index, "aclmdlGetInputSizeByIndex");
}
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  return Size(modelDesc, Side::kOutput, index, "aclmdlGetOutputSizeByIndex");
}
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  return Dims(modelDesc, Side::kInput, index, dims, "aclmdlGetInputDims");
}
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  return Dims(modelDesc, Side::kOutput, index, dims, "aclmdlGetOutputDims");
}
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  return Name(modelDesc, Side::kInput, index, "aclmdlGetInputNameByIndex");
}
ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  return Name(modelDesc, Side::kOutput, index, "aclmdlGetOutputNameByIndex");
}
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index) {
  return DataType(modelDesc, Side::kInput, index, "aclmdlGetInputDataType");
}
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index) {
  return DataType(modelDesc, Side::kOutput, index, "aclmdlGetOutputDataType");
}
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index) {
  return Format(modelDesc, Side::kInput, index, "aclmdlGetInputFormat");
}
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index) {
  return Format(modelDesc, Side::kOutput, index, "aclmdlGetOutputFormat");
}

}  // extern "C"
