// The dynamic AIPP calls of acl/acl_mdl_aipp.h: a parameter set is the byte image of a model's
// ascend_dynamic_aipp_data input (docs/atc-deploy-flags.md §2, "Dynamic AIPP"), written field by
// field at GE's offsets and copied into the dataset by aclmdlSetInputAIPP.
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "dataset.h"
#include "handles.h"
#include "model_registry.h"
#include "openatc/rt/error_state.h"

struct aclmdlAIPP {
  uint64_t batch = 0;
  std::vector<uint8_t> bytes;  ///< 64 + 96 * batch
};

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

LiveSet<aclmdlAIPP> &Sets() {
  static auto *set = new LiveSet<aclmdlAIPP>("AIPP parameter set", "aclmdlCreateAIPP");
  return *set;
}

template <typename T>
void Put(aclmdlAIPP *s, size_t off, T v) {
  std::memcpy(s->bytes.data() + off, &v, sizeof(T));
}

uint16_t HalfBits(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

void InRange(int64_t v, int64_t lo, int64_t hi, const char *what) {
  if (v < lo || v > hi)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(what) + " " + std::to_string(v) + " is outside [" +
                                          std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

// The record of image `batch_index`; ACL_ERROR_INVALID_PARAM past the set's batch size.
size_t Record(const aclmdlAIPP *s, uint64_t batch_index) {
  if (batch_index >= s->batch)
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "batchIndex " + std::to_string(batch_index) + " is not below the set's batch size " +
                                          std::to_string(s->batch),
             "Create the set with aclmdlCreateAIPP(batch size of the model)");
  return 64 + 96 * static_cast<size_t>(batch_index);
}

std::string Attr(const ir::Node &n, const char *key) {
  auto it = n.attrs.find(key);
  return it == n.attrs.end() ? std::string() : it->second.s;
}

// The Data node of model input `index`; ACL_ERROR_INVALID_PARAM when out of range.
const ir::Node &InputNode(const runtime::LoadedModel &m, size_t index) {
  const ir::Graph &g = m.model().graph;
  if (index >= g.inputs.size())
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "input index " + std::to_string(index) + " is out of range: the model has " +
                                          std::to_string(g.inputs.size()) + " inputs");
  return g.nodes[static_cast<size_t>(g.inputs[index])];
}

// The CCE code the parameter buffer holds for an ACL input format (0: not supported).
uint8_t CceCode(int format) {
  switch (format) {
    case ACL_YUV420SP_U8: return 1;
    case ACL_XRGB8888_U8: return 2;
    case ACL_RGB888_U8: return 5;
    case ACL_YUV400_U8: return 10;
    default: return 0;
  }
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

using namespace openatc;
using namespace openatc::mdl;

extern "C" {

ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize) {
  aclmdlAIPP *s = nullptr;
  Guard("aclmdlCreateAIPP", [&] {
    if (batchSize == 0 || batchSize > 127)  // the buffer holds the batch count as an int8
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "batchSize " + std::to_string(batchSize) + " is outside [1, 127]",
               "Pass the model's batch size");
    auto owned = std::make_unique<aclmdlAIPP>();
    owned->batch = batchSize;
    owned->bytes.assign(64 + 96 * batchSize, 0);
    owned->bytes[4] = static_cast<uint8_t>(batchSize);
    for (uint64_t b = 0; b < batchSize; ++b)
      for (size_t c = 0; c < 4; ++c) Put<uint16_t>(owned.get(), 64 + 96 * b + 72 + 2 * c, HalfBits(1.0f));
    Sets().Insert(owned.get());
    s = owned.release();
  });
  return s;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet) {
  return Guard("aclmdlDestroyAIPP", [&] {
    Sets().Erase(Sets().Check(aippParmsSet, "aippParmsSet"));
    delete aippParmsSet;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size) {
  return Guard("aclmdlGetAippDataSize", [&] {
    if (size == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "size is a null pointer");
    if (batchSize == 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, "batchSize is 0");
    *size = 64 + 96 * static_cast<size_t>(batchSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat) {
  return Guard("aclmdlSetAIPPInputFormat", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const uint8_t code = CceCode(inputFormat);
    if (code == 0)
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "input format " + std::to_string(inputFormat) + " is not supported by dynamic AIPP",
               "Use ACL_YUV420SP_U8, ACL_XRGB8888_U8, ACL_RGB888_U8 or ACL_YUV400_U8");
    s->bytes[0] = code;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t r0c0,
                                                    int16_t r0c1, int16_t r0c2, int16_t r1c0, int16_t r1c1,
                                                    int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2,
                                                    uint8_t ob0, uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1,
                                                    uint8_t ib2) {
  return Guard("aclmdlSetAIPPCscParams", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    InRange(cscSwitch, 0, 1, "cscSwitch");
    s->bytes[1] = static_cast<uint8_t>(cscSwitch);
    if (cscSwitch == 0) return;  // the rest is ignored
    const int16_t m[9] = {r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2};
    for (size_t i = 0; i < 9; ++i) Put<int16_t>(s, 16 + 2 * i, m[i]);
    const uint8_t b[6] = {ob0, ob1, ob2, ib0, ib1, ib2};
    std::memcpy(s->bytes.data() + 40, b, 6);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch) {
  return Guard("aclmdlSetAIPPRbuvSwapSwitch", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    InRange(rbuvSwapSwitch, 0, 1, "rbuvSwapSwitch");
    s->bytes[2] = static_cast<uint8_t>(rbuvSwapSwitch);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch) {
  return Guard("aclmdlSetAIPPAxSwapSwitch", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    InRange(axSwapSwitch, 0, 1, "axSwapSwitch");
    s->bytes[3] = static_cast<uint8_t>(axSwapSwitch);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH) {
  return Guard("aclmdlSetAIPPSrcImageSize", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    InRange(srcImageSizeW, 2, 4096, "srcImageSizeW");
    InRange(srcImageSizeH, 1, 4096, "srcImageSizeH");
    Put<int32_t>(s, 8, srcImageSizeW);
    Put<int32_t>(s, 12, srcImageSizeH);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch, int32_t, int32_t,
                                                    int32_t, int32_t, uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPScfParams", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    Record(s, batchIndex);
    if (scfSwitch != 0)
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "AIPP resize (scfSwitch 1) is reserved and not supported", "Pass scfSwitch 0");
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
                                                     int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH,
                                                     uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPCropParams", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const size_t r = Record(s, batchIndex);
    InRange(cropSwitch, 0, 1, "cropSwitch");
    s->bytes[r] = static_cast<uint8_t>(cropSwitch);
    if (cropSwitch == 0) return;
    InRange(cropStartPosW, 0, 4095, "cropStartPosW");
    InRange(cropStartPosH, 0, 4095, "cropStartPosH");
    InRange(cropSizeW, 1, 4096, "cropSizeW");
    InRange(cropSizeH, 1, 4096, "cropSizeH");
    const int32_t v[4] = {cropStartPosW, cropStartPosH, cropSizeW, cropSizeH};
    for (size_t i = 0; i < 4; ++i) Put<int32_t>(s, r + 8 + 4 * i, v[i]);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch, int32_t top,
                                                        int32_t bottom, int32_t left, int32_t right, uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPPaddingParams", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const size_t r = Record(s, batchIndex);
    InRange(paddingSwitch, 0, 1, "paddingSwitch");
    s->bytes[r + 2] = static_cast<uint8_t>(paddingSwitch);
    if (paddingSwitch == 0) return;
    const int32_t v[4] = {top, bottom, left, right};
    for (size_t i = 0; i < 4; ++i) {
      InRange(v[i], 0, 32, "padding size");
      Put<int32_t>(s, r + 40 + 4 * i, v[i]);
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t m0, int16_t m1, int16_t m2,
                                                       int16_t m3, uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPDtcPixelMean", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const size_t r = Record(s, batchIndex);
    const int16_t v[4] = {m0, m1, m2, m3};
    for (size_t i = 0; i < 4; ++i) {
      InRange(v[i], 0, 255, "dtcPixelMean");
      Put<int16_t>(s, r + 56 + 2 * i, v[i]);
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float m0, float m1, float m2, float m3,
                                                      uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPDtcPixelMin", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const size_t r = Record(s, batchIndex);
    const float v[4] = {m0, m1, m2, m3};
    for (size_t i = 0; i < 4; ++i) {
      if (!(v[i] >= 0.0f && v[i] <= 255.0f))
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "dtcPixelMin " + std::to_string(v[i]) + " is outside [0, 255]");
      Put<uint16_t>(s, r + 64 + 2 * i, HalfBits(v[i]));
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float v0, float v1, float v2, float v3,
                                                       uint64_t batchIndex) {
  return Guard("aclmdlSetAIPPPixelVarReci", [&] {
    aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    const size_t r = Record(s, batchIndex);
    const float v[4] = {v0, v1, v2, v3};
    for (size_t i = 0; i < 4; ++i) {
      if (!(v[i] >= -65504.0f && v[i] <= 65504.0f))
        ThrowAcl(ACL_ERROR_INVALID_PARAM, "dtcPixelVarReci " + std::to_string(v[i]) + " is outside [-65504, 65504]");
      Put<uint16_t>(s, r + 72 + 2 * i, HalfBits(v[i]));
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                const aclmdlAIPP *aippParmsSet) {
  return Guard("aclmdlSetInputAIPP", [&] {
    const aclmdlAIPP *s = Sets().Check(aippParmsSet, "aippParmsSet");
    std::shared_ptr<ModelEntry> entry = ModelRegistry::Instance().Find(modelId);
    const ir::Node &node = InputNode(*entry->model, index);
    if (Attr(node, "_data_related_aipp_mode") != "dynamic_aipp_conf")
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "input " + std::to_string(index) + " ('" + node.name +
                                            "') is not a dynamic AIPP parameter input",
               "Pass the index of the input named " ACL_DYNAMIC_AIPP_NAME " (aclmdlGetAippType tells it)");
    if (s->bytes[0] == 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, "the set has no input format", "Call aclmdlSetAIPPInputFormat");
    const size_t want = entry->model->inputs()[index].bytes;
    if (want != s->bytes.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "the set is for a batch of " + std::to_string(s->batch) + " (" +
                                            std::to_string(s->bytes.size()) + " bytes), the model input takes " +
                                            std::to_string(want) + " bytes",
               "Create the set with aclmdlCreateAIPP(the model's batch size)");
    aclmdlDataset *d = CheckDataset(dataset, "dataset");
    if (index >= d->buffers.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "the dataset holds no buffer " + std::to_string(index),
               "Add a buffer of aclmdlGetInputSizeByIndex bytes for every input first");
    void *addr = aclGetDataBufferAddr(d->buffers[index]);
    if (addr == nullptr) ThrowAcl(145011, "the dataset buffer of input " + std::to_string(index) + " has no memory");
    if (aclGetDataBufferSizeV2(d->buffers[index]) < s->bytes.size())
      ThrowAcl(145012, "the dataset buffer of input " + std::to_string(index) + " is smaller than " +
                           std::to_string(s->bytes.size()) + " bytes");
    std::memcpy(addr, s->bytes.data(), s->bytes.size());
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex) {
  return Guard("aclmdlGetAippType", [&] {
    if (type == nullptr || dynamicAttachedDataIndex == nullptr)
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "type or dynamicAttachedDataIndex is a null pointer");
    std::shared_ptr<ModelEntry> entry = ModelRegistry::Instance().Find(modelId);
    const ir::Node &node = InputNode(*entry->model, index);
    const std::string mode = Attr(node, "_data_related_aipp_mode");
    *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
    *type = mode == "static_aipp"         ? ACL_DATA_WITH_STATIC_AIPP
            : mode == "dynamic_aipp"      ? ACL_DATA_WITH_DYNAMIC_AIPP
            : mode == "dynamic_aipp_conf" ? ACL_DYNAMIC_AIPP_NODE
                                          : ACL_DATA_WITHOUT_AIPP;
    if (*type != ACL_DATA_WITH_DYNAMIC_AIPP) return;
    const std::string conf = Attr(node, "_data_aipp_data_name_map");
    const ir::Graph &g = entry->model->model().graph;
    for (size_t i = 0; i < g.inputs.size(); ++i)
      if (g.nodes[static_cast<size_t>(g.inputs[i])].name == conf) *dynamicAttachedDataIndex = i;
  });
}

}  // extern "C"
