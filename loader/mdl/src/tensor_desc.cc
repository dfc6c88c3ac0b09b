// aclCreateTensorDesc & co (acl/acl_tensor_desc.h; docs/acl.md §7): a plain description object.
#include <new>

#include "acl/acl_tensor_desc.h"
#include "op_types.h"
#include "openatc/common/dtype.h"
#include "openatc/rt/error_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {

const aclTensorDesc &CheckTensorDesc(const aclTensorDesc *desc, const std::string &what) {
  if (desc == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, what + " is a null pointer", "Pass a description from aclCreateTensorDesc");
  return *desc;
}

namespace {
bool SetDims(aclTensorDesc &d, int numDims, const int64_t *dims) {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) return false;
  d.dims.assign(dims, dims + numDims);
  d.ranges.clear();
  return true;
}
bool Unknown(const aclTensorDesc &d) {
  for (int64_t x : d.dims)
    if (x < 0) return true;
  return false;
}
}  // namespace

}  // namespace mdl
}  // namespace openatc

using openatc::mdl::CheckTensorDesc;

extern "C" {

ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format) {
  aclTensorDesc *d = new (std::nothrow) aclTensorDesc;
  if (d == nullptr) return nullptr;
  d->dtype = dataType;
  d->format = format;
  if (!openatc::mdl::SetDims(*d, numDims, dims)) {
    delete d;
    return nullptr;
  }
  return d;
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc) { delete desc; }

ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                                    int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  return Guard("aclSetTensorShapeRange", [&] {
    CheckTensorDesc(desc, "desc");
    if (dimsCount > 0 && dimsRange == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "dimsRange is a null pointer");
    desc->ranges.clear();
    for (size_t i = 0; i < dimsCount; ++i) desc->ranges.push_back({dimsRange[i][0], dimsRange[i][1]});
  });
}

ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc) {
  return desc == nullptr ? ACL_DT_UNDEFINED : desc->dtype;
}

ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) {
  return desc == nullptr ? ACL_FORMAT_UNDEFINED : desc->format;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) {
  if (desc == nullptr || openatc::mdl::Unknown(*desc)) return 0;
  const int64_t n = openatc::ShapeElementCount(desc->dims);
  return n < 0 ? 0 : static_cast<size_t>(n);
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  if (desc == nullptr || openatc::mdl::Unknown(*desc)) return 0;
  const auto bytes = openatc::TensorByteSize(static_cast<ge::DataType>(desc->dtype), desc->dims);
  return bytes ? static_cast<size_t>(*bytes) : 0;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
  if (desc == nullptr) return 0;
  if (desc->dims.size() == 1 && desc->dims[0] == -2) return static_cast<size_t>(ACL_UNKNOWN_RANK);
  return desc->dims.size();
}

ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index) {
  return desc == nullptr || index >= desc->dims.size() ? -1 : desc->dims[index];
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) {
  return Guard("aclGetTensorDescDimV2", [&] {
    CheckTensorDesc(desc, "desc");
    if (dimSize == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "dimSize is a null pointer");
    if (index >= desc->dims.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is out of range: the description has " +
                                            std::to_string(desc->dims.size()) + " dims");
    *dimSize = desc->dims[index];
  });
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum,
                                                      int64_t *dimRange) {
  return Guard("aclGetTensorDescDimRange", [&] {
    CheckTensorDesc(desc, "desc");
    if (dimRange == nullptr || dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "dimRange must hold " + std::to_string(ACL_TENSOR_SHAPE_RANGE_NUM) + " values");
    if (index >= desc->ranges.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is out of range: the description has " +
                                            std::to_string(desc->ranges.size()) + " ranges");
    dimRange[0] = desc->ranges[index].first;
    dimRange[1] = desc->ranges[index].second;
  });
}

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc, const char *name) {
  if (desc != nullptr) desc->name = name == nullptr ? "" : name;
}

ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc) {
  return desc == nullptr ? "" : desc->name.c_str();
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
  return Guard("aclSetTensorShape", [&] {
    CheckTensorDesc(desc, "desc");
    if (!openatc::mdl::SetDims(*desc, numDims, dims))
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "numDims " + std::to_string(numDims) + " with dims " +
                                            (dims == nullptr ? "null" : "given") + " is not a shape");
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format) {
  return Guard("aclSetTensorFormat", [&] {
    CheckTensorDesc(desc, "desc");
    desc->format = format;
  });
}

}  // extern "C"
