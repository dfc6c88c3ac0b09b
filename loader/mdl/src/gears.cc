// The aclmdl calls of geared models (acl/acl_mdl_dynamic.h; docs/acl.md §2, Model, gears).
// Queries read the model a description was filled from; setters write the gear
// values into the ACL_DYNAMIC_TENSOR_NAME buffer of a dataset (u64 per value when the buffer
// holds 8 bytes per value, else u32), which the runtime reads when the model runs
// (loader/runtime/src/gears.cc).
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "dataset.h"
#include "desc_state.h"
#include "mdl_error.h"
#include "model_registry.h"
#include "openatc/common/error.h"
#include "openatc/rt/error_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

std::shared_ptr<ModelEntry> ModelOf(const aclmdlDesc *desc) {
  aclmdlDesc *d = Descs().Check(desc, "modelDesc");
  if (!d->filled) ThrowAcl(ACL_ERROR_INVALID_PARAM, "the model description is empty", "Fill it with aclmdlGetDesc first");
  return ModelRegistry::Instance().Find(d->model_id);
}

const om::Model &OmOf(const ModelEntry &e) { return e.model->model(); }

// The user inputs' --input_shape dims (-1 where a gear sets a value), in gear_input_order.
std::vector<std::vector<int64_t>> Templates(const om::Model &m) {
  std::vector<std::vector<int64_t>> out;
  for (const std::string &name : m.gear_input_order) {
    const int32_t idx = m.graph.FindNode(name);
    std::vector<int64_t> dims;
    if (idx >= 0) {
      const auto &attrs = m.graph.nodes[static_cast<size_t>(idx)].attrs;
      auto it = attrs.find(om::kGearOriginDimsAttr);
      if (it != attrs.end()) dims = it->second.list_i;
    }
    out.push_back(dims);
  }
  return out;
}

void CheckKind(const om::Model &m, om::GearKind kind, const char *what) {
  if (m.gear_kind != kind)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string("the model has no ") + what + " gears",
             std::string("Compile it with atc --") +
                 (kind == om::GearKind::kBatch ? "dynamic_batch_size" : kind == om::GearKind::kImageSize ? "dynamic_image_size" : "dynamic_dims"));
}

// `values` must be a gear of the model: else 145013 with the runtime's message naming the gears.
void CheckGear(const ModelEntry &e, const std::vector<int64_t> &values) {
  for (const om::GearVariant &g : OmOf(e).gears)
    if (g.values == values) return;
  try {
    std::vector<int64_t> probe = values;
    for (int64_t &v : probe) v = v == 0 ? -1 : v;  // all zeros would select the default
    e.model->FindGear(probe);
  } catch (const openatc::Error &err) {
    ThrowAcl(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, err.what(), "Pass one of the model's gears");
  }
}

void WriteGear(const ModelEntry &e, aclmdlDataset *dataset, size_t index, const std::vector<int64_t> &values) {
  aclmdlDataset &ds = *CheckDataset(dataset, "dataset");
  const auto &inputs = e.model->inputs();
  if (index + 1 != inputs.size() || inputs[index].name != om::kGearShapeInput)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is not the input '" +
                                          om::kGearShapeInput + "'",
             "Pass the index aclmdlGetInputIndexByName gives for ACL_DYNAMIC_TENSOR_NAME");
  if (index >= ds.buffers.size())
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "the dataset holds " + std::to_string(ds.buffers.size()) +
                                          " buffers; it has no buffer for input " + std::to_string(index),
             "Add a buffer of aclmdlGetInputSizeByIndex bytes for every input first");
  void *addr = aclGetDataBufferAddr(ds.buffers[index]);
  const size_t size = aclGetDataBufferSizeV2(ds.buffers[index]);
  if (addr == nullptr) ThrowAcl(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, "the buffer of the gear input has a null address");
  if (size < values.size() * sizeof(uint32_t))
    ThrowAcl(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
             "the buffer of the gear input holds " + std::to_string(size) + " bytes, less than " +
                 std::to_string(values.size() * sizeof(uint32_t)),
             "Size it with aclmdlGetInputSizeByIndex");
  auto *out = static_cast<uint8_t *>(addr);
  const bool wide = size >= values.size() * sizeof(uint64_t);
  for (size_t k = 0; k < values.size(); ++k) {
    if (wide) {
      const uint64_t v = static_cast<uint64_t>(values[k]);
      std::memcpy(out + k * sizeof v, &v, sizeof v);
    } else {
      const uint32_t v = static_cast<uint32_t>(values[k]);
      std::memcpy(out + k * sizeof v, &v, sizeof v);
    }
  }
}

void FillDims(aclmdlIODims *dims, const std::string &name, const std::vector<int64_t> &shape) {
  if (shape.size() > ACL_MAX_DIM_CNT)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "'" + name + "' has " + std::to_string(shape.size()) +
                                          " dims, more than ACL_MAX_DIM_CNT (" + std::to_string(ACL_MAX_DIM_CNT) + ")");
  std::memset(dims, 0, sizeof *dims);
  const size_t n = std::min(name.size(), static_cast<size_t>(ACL_MAX_TENSOR_NAME_LEN - 1));
  std::memcpy(dims->name, name.data(), n);
  dims->dimCount = shape.size();
  std::copy(shape.begin(), shape.end(), dims->dims);
}

// A dims gear as ACL shows it: every user input's dims concatenated, the gear values at the -1s.
std::vector<int64_t> Concatenated(const om::Model &m, const std::vector<int64_t> &values) {
  std::vector<int64_t> out;
  size_t next = 0;
  for (const auto &t : Templates(m))
    for (int64_t d : t) out.push_back(d == -1 && next < values.size() ? values[next++] : d);
  return out;
}

void CheckAllIndex(size_t index) {
  if (index != static_cast<size_t>(-1))
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "index must be (size_t)-1 (the dims gears cover all inputs), not " +
                                          std::to_string(index));
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

using namespace openatc;
using namespace openatc::mdl;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  return Guard("aclmdlGetInputIndexByName", [&] {
    aclmdlDesc *d = Descs().Check(modelDesc, "modelDesc");
    CheckNotNull(name, "name");
    CheckNotNull(index, "index");
    for (size_t k = 0; k < d->inputs.size(); ++k)
      if (d->inputs[k].name == name) {
        *index = k;
        return;
      }
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string("the model has no input named '") + name + "'",
             "Use a name aclmdlGetInputNameByIndex lists");
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch) {
  return Guard("aclmdlGetDynamicBatch", [&] {
    auto e = ModelOf(modelDesc);
    CheckNotNull(batch, "batch");
    std::memset(batch, 0, sizeof *batch);
    const om::Model &m = OmOf(*e);
    if (m.gear_kind != om::GearKind::kBatch) return;
    for (const auto &g : m.gears)
      if (batch->batchCount < ACL_MAX_BATCH_NUM) batch->batch[batch->batchCount++] = static_cast<uint64_t>(g.values[0]);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw) {
  (void)index;  // ignored, as in GE: the gears hold for every input
  return Guard("aclmdlGetDynamicHW", [&] {
    auto e = ModelOf(modelDesc);
    CheckNotNull(hw, "hw");
    std::memset(hw, 0, sizeof *hw);
    const om::Model &m = OmOf(*e);
    if (m.gear_kind != om::GearKind::kImageSize) return;
    for (const auto &g : m.gears) {
      if (hw->hwCount >= ACL_MAX_HW_NUM) break;
      hw->hw[hw->hwCount][0] = static_cast<uint64_t>(g.values[0]);
      hw->hw[hw->hwCount][1] = static_cast<uint64_t>(g.values[1]);
      ++hw->hwCount;
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount) {
  return Guard("aclmdlGetInputDynamicGearCount", [&] {
    CheckAllIndex(index);
    auto e = ModelOf(modelDesc);
    CheckNotNull(gearCount, "gearCount");
    const om::Model &m = OmOf(*e);
    *gearCount = m.gear_kind == om::GearKind::kDims ? m.gears.size() : 0;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount) {
  return Guard("aclmdlGetInputDynamicDims", [&] {
    CheckAllIndex(index);
    auto e = ModelOf(modelDesc);
    CheckNotNull(dims, "dims");
    const om::Model &m = OmOf(*e);
    CheckKind(m, om::GearKind::kDims, "dims");
    if (gearCount != m.gears.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "gearCount is " + std::to_string(gearCount) + " but the model has " +
                                            std::to_string(m.gears.size()) + " dims gears",
               "Pass the count aclmdlGetInputDynamicGearCount gives");
    for (size_t g = 0; g < m.gears.size(); ++g) FillDims(&dims[g], "", Concatenated(m, m.gears[g].values));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  return Guard("aclmdlGetCurOutputDims", [&] {
    auto e = ModelOf(modelDesc);
    CheckNotNull(dims, "dims");
    const runtime::LoadedModel &lm = *e->model;
    const auto &outs = lm.gear_count() > 0 ? lm.gear_outputs(lm.current_gear()) : lm.outputs();
    if (index >= outs.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "output index " + std::to_string(index) + " is out of range: the model has " +
                                            std::to_string(outs.size()) + " outputs");
    FillDims(dims, lm.outputs()[index].name, outs[index].shape);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize) {
  return Guard("aclmdlSetDynamicBatchSize", [&] {
    auto e = ModelRegistry::Instance().Find(modelId);
    CheckKind(OmOf(*e), om::GearKind::kBatch, "batch");
    const std::vector<int64_t> values = {static_cast<int64_t>(batchSize)};
    CheckGear(*e, values);
    WriteGear(*e, dataset, index, values);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width) {
  return Guard("aclmdlSetDynamicHWSize", [&] {
    auto e = ModelRegistry::Instance().Find(modelId);
    CheckKind(OmOf(*e), om::GearKind::kImageSize, "image-size");
    const std::vector<int64_t> values = {static_cast<int64_t>(height), static_cast<int64_t>(width)};
    CheckGear(*e, values);
    WriteGear(*e, dataset, index, values);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims) {
  return Guard("aclmdlSetInputDynamicDims", [&] {
    auto e = ModelRegistry::Instance().Find(modelId);
    const om::Model &m = OmOf(*e);
    CheckKind(m, om::GearKind::kDims, "dims");
    CheckNotNull(dims, "dims");
    std::vector<int64_t> all;
    for (const auto &t : Templates(m)) all.insert(all.end(), t.begin(), t.end());
    if (dims->dimCount != all.size())
      ThrowAcl(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
               "dims holds " + std::to_string(dims->dimCount) + " values; the model's inputs have " +
                   std::to_string(all.size()) + " dims together",
               "Give every dim of every input, in input order");
    std::vector<int64_t> values;
    for (size_t k = 0; k < all.size(); ++k) {
      if (all[k] == -1) {
        values.push_back(dims->dims[k]);
      } else if (dims->dims[k] != all[k]) {
        ThrowAcl(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                 "dim " + std::to_string(k) + " is " + std::to_string(dims->dims[k]) + " but the model fixes it at " +
                     std::to_string(all[k]),
                 "Change only the dims the model compiled as -1");
      }
    }
    CheckGear(*e, values);
    WriteGear(*e, dataset, index, values);
  });
}

}  // extern "C"
