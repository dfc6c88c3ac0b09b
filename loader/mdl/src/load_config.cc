// aclmdlCreateConfigHandle / aclmdlSetConfigOpt / aclmdlSetExternalWeightAddress /
// aclmdlLoadWithConfig / aclmdlDestroyConfigHandle and aclmdlLoadFromFileWithMem /
// aclmdlLoadFromMemWithMem (GE acl_mdl.h; include/acl/acl_mdl_config.h). A configuration
// records the load type, the model's path or bytes and where external weights are
// (ACL_MDL_WEIGHT_PATH_PTR, caller buffers); loading ends in load.cc.
//
// The host runtime keeps its own arena and maps the weights, so the work/weight memory options
// are checked (pointer and size come together) and then not used; options that need a device
// feature this runtime lacks (queues, kernel/task images, FIFO) are refused, never ignored.
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "acl/acl_mdl.h"
#include "handles.h"
#include "load.h"
#include "mdl_error.h"
#include "openatc/om/model.h"
#include "openatc/rt/error_state.h"

struct aclmdlConfigHandle {
  std::optional<size_t> load_type;
  std::optional<std::string> path;         // ACL_MDL_PATH_PTR (copied)
  std::optional<const void *> mem;         // ACL_MDL_MEM_ADDR_PTR (not copied)
  std::optional<size_t> mem_size;          // ACL_MDL_MEM_SIZET
  std::optional<std::string> weight_path;  // ACL_MDL_WEIGHT_PATH_PTR (copied)
  std::map<std::string, openatc::ir::Bytes> weight_buffers;  // aclmdlSetExternalWeightAddress
  const void *work_ptr = nullptr, *weight_ptr = nullptr;      // checked, not used (file comment)
  size_t work_size = 0, weight_size = 0;
};

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

LiveSet<aclmdlConfigHandle> &Configs() {
  static LiveSet<aclmdlConfigHandle> set("model config handle", "aclmdlCreateConfigHandle");
  return set;
}

template <typename T>
T ValueOf(const void *value, size_t size, const char *attr) {
  CheckNotNull(value, "attrValue");
  if (size != sizeof(T))
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             std::string("valueSize of ") + attr + " is " + std::to_string(size) + ", not " + std::to_string(sizeof(T)),
             "Pass the size of the option's type");
  T v;
  std::memcpy(&v, value, sizeof(T));
  return v;
}

std::string PathOf(const void *value, size_t size, const char *attr) {
  const char *p = ValueOf<const char *>(value, size, attr);
  if (p == nullptr || *p == '\0')
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(attr) + " points at a null or empty path",
             "Pass the address of a pointer to a NUL-terminated path");
  return p;
}

// A caller memory pair: a pointer needs a non-zero size and a size needs a pointer.
void CheckMemPair(const void *ptr, size_t size, const char *ptr_name, const char *size_name) {
  if ((ptr == nullptr) != (size == 0))
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(ptr_name) + " and " + size_name + " disagree (one is null or 0)",
             "Pass both (caller memory) or neither");
}

void SetOpt(aclmdlConfigHandle &h, aclmdlConfigAttr attr, const void *value, size_t size) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32: {
      const auto prio = ValueOf<int32_t>(value, size, "ACL_MDL_PRIORITY_INT32");
      if (prio < 0 || prio > 7)
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "ACL_MDL_PRIORITY_INT32 is " + std::to_string(prio) + ", outside 0..7",
                 "Pass a priority from 0 (highest) to 7");
      return;  // one host stream: every priority runs the same
    }
    case ACL_MDL_LOAD_TYPE_SIZET: {
      const auto type = ValueOf<size_t>(value, size, "ACL_MDL_LOAD_TYPE_SIZET");
      if (type == ACL_MDL_LOAD_FROM_FILE_WITH_Q || type == ACL_MDL_LOAD_FROM_MEM_WITH_Q)
        ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED, "loading with queues (ACL_MDL_LOAD_FROM_*_WITH_Q) needs a device",
                 "Use ACL_MDL_LOAD_FROM_FILE or ACL_MDL_LOAD_FROM_MEM");
      if (type < ACL_MDL_LOAD_FROM_FILE || type > ACL_MDL_LOAD_FROM_MEM_WITH_MEM)
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "ACL_MDL_LOAD_TYPE_SIZET is " + std::to_string(type) + ", not a load type",
                 "Pass ACL_MDL_LOAD_FROM_FILE (1) .. ACL_MDL_LOAD_FROM_MEM_WITH_MEM (4)");
      h.load_type = type;
      return;
    }
    case ACL_MDL_PATH_PTR: h.path = PathOf(value, size, "ACL_MDL_PATH_PTR"); return;
    case ACL_MDL_MEM_ADDR_PTR: h.mem = ValueOf<const void *>(value, size, "ACL_MDL_MEM_ADDR_PTR"); return;
    case ACL_MDL_MEM_SIZET: h.mem_size = ValueOf<size_t>(value, size, "ACL_MDL_MEM_SIZET"); return;
    case ACL_MDL_WEIGHT_ADDR_PTR: h.weight_ptr = ValueOf<const void *>(value, size, "ACL_MDL_WEIGHT_ADDR_PTR"); return;
    case ACL_MDL_WEIGHT_SIZET: h.weight_size = ValueOf<size_t>(value, size, "ACL_MDL_WEIGHT_SIZET"); return;
    case ACL_MDL_WORKSPACE_ADDR_PTR: h.work_ptr = ValueOf<const void *>(value, size, "ACL_MDL_WORKSPACE_ADDR_PTR"); return;
    case ACL_MDL_WORKSPACE_SIZET: h.work_size = ValueOf<size_t>(value, size, "ACL_MDL_WORKSPACE_SIZET"); return;
    case ACL_MDL_WEIGHT_PATH_PTR: h.weight_path = PathOf(value, size, "ACL_MDL_WEIGHT_PATH_PTR"); return;
    default: break;
  }
  ThrowAcl(ACL_ERROR_FEATURE_UNSUPPORTED,
           "model config option " + std::to_string(static_cast<int>(attr)) +
               " (queues, model description, kernel or task images, FIFO, memory policy, without-graph) needs a device",
           "Configure the load type, path or memory, and weight options only");
}

uint32_t LoadWith(const aclmdlConfigHandle &h) {
  if (!h.load_type)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "the config has no ACL_MDL_LOAD_TYPE_SIZET",
             "Set ACL_MDL_LOAD_TYPE_SIZET with aclmdlSetConfigOpt first");
  CheckMemPair(h.work_ptr, h.work_size, "ACL_MDL_WORKSPACE_ADDR_PTR", "ACL_MDL_WORKSPACE_SIZET");
  CheckMemPair(h.weight_ptr, h.weight_size, "ACL_MDL_WEIGHT_ADDR_PTR", "ACL_MDL_WEIGHT_SIZET");
  om::ReadOptions options;
  if (h.weight_path) options.weight_dir = *h.weight_path;
  options.weight_buffers = h.weight_buffers;
  const size_t type = *h.load_type;
  if (type == ACL_MDL_LOAD_FROM_FILE || type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM) {
    if (!h.path)
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "a file load without ACL_MDL_PATH_PTR", "Set ACL_MDL_PATH_PTR to the .om file");
    return LoadOmFile(h.path->c_str(), options);
  }
  if (!h.mem || *h.mem == nullptr || !h.mem_size)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "a memory load without ACL_MDL_MEM_ADDR_PTR and ACL_MDL_MEM_SIZET",
             "Set both to the OM image in memory");
  return LoadOmBytes(*h.mem, *h.mem_size, options);
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void) {
  aclmdlConfigHandle *h = nullptr;
  (void)Guard("aclmdlCreateConfigHandle", [&] {
    auto owned = std::make_unique<aclmdlConfigHandle>();
    openatc::mdl::Configs().Insert(owned.get());
    h = owned.release();
  });
  return h;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle) {
  return Guard("aclmdlDestroyConfigHandle", [&] {
    openatc::mdl::Configs().Check(handle, "handle");
    openatc::mdl::Configs().Erase(handle);
    delete handle;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize) {
  return Guard("aclmdlSetConfigOpt", [&] {
    openatc::mdl::SetOpt(*openatc::mdl::Configs().Check(handle, "handle"), attr, attrValue, valueSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle *handle, const char *weightFileName,
                                                            void *devPtr, size_t size) {
  return Guard("aclmdlSetExternalWeightAddress", [&] {
    aclmdlConfigHandle *h = openatc::mdl::Configs().Check(handle, "handle");
    openatc::mdl::CheckNotNull(weightFileName, "weightFileName");
    openatc::mdl::CheckNotNull(devPtr, "devPtr");
    const std::string name = weightFileName;
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "weightFileName '" + name + "' is not a bare file name",
               "Pass the weight file's name without its folder, e.g. weight_<hash>");
    if (size == 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, "size is 0", "Pass the byte size of the buffer");
    openatc::ir::Bytes view;  // the caller keeps it alive (acl_mdl_config.h)
    view.data = static_cast<const uint8_t *>(devPtr);
    view.size = size;
    h->weight_buffers[name] = view;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId) {
  return Guard("aclmdlLoadWithConfig", [&] {
    const aclmdlConfigHandle *h = openatc::mdl::Configs().Check(handle, "handle");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    *modelId = openatc::mdl::LoadWith(*h);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize) {
  return Guard("aclmdlLoadFromFileWithMem", [&] {
    openatc::mdl::CheckNotNull(modelPath, "modelPath");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    openatc::mdl::CheckMemPair(workPtr, workSize, "workPtr", "workSize");
    openatc::mdl::CheckMemPair(weightPtr, weightSize, "weightPtr", "weightSize");
    *modelId = openatc::mdl::LoadOmFile(modelPath, {});
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize) {
  return Guard("aclmdlLoadFromMemWithMem", [&] {
    openatc::mdl::CheckNotNull(model, "model");
    openatc::mdl::CheckNotNull(modelId, "modelId");
    openatc::mdl::CheckMemPair(workPtr, workSize, "workPtr", "workSize");
    openatc::mdl::CheckMemPair(weightPtr, weightSize, "weightPtr", "weightSize");
    *modelId = openatc::mdl::LoadOmBytes(model, modelSize, {});
  });
}

}  // extern "C"
