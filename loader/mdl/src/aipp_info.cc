// aclmdlGetFirstAippInfo (acl/acl_mdl_aipp.h): the static AIPP of a model input, read back from
// the attributes of the Aipp node atc placed behind it (atc/driver/src/aipp_insert.cc).
#include <cstring>
#include <string>

#include "acl/acl_mdl.h"
#include "model_registry.h"
#include "openatc/rt/error_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

const ir::AttrValue *Find(const ir::Node &n, const char *key) {
  auto it = n.attrs.find(key);
  return it == n.attrs.end() ? nullptr : &it->second;
}
int64_t Int(const ir::Node &n, const char *key) {
  const ir::AttrValue *v = Find(n, key);
  return v == nullptr ? 0 : v->i;
}
int64_t IntAt(const ir::Node &n, const char *key, size_t i) {
  const ir::AttrValue *v = Find(n, key);
  return v == nullptr || i >= v->list_i.size() ? 0 : v->list_i[i];
}
float FloatAt(const ir::Node &n, const char *key, size_t i, float def) {
  const ir::AttrValue *v = Find(n, key);
  return v == nullptr || i >= v->list_f.size() ? def : static_cast<float>(static_cast<_Float16>(v->list_f[i]));
}

void FillDims(aclmdlIODims *d, const std::string &name, const std::vector<int64_t> &dims) {
  std::memset(d, 0, sizeof(*d));
  std::strncpy(d->name, name.c_str(), sizeof(d->name) - 1);
  d->dimCount = dims.size();
  for (size_t i = 0; i < dims.size() && i < ACL_MAX_DIM_CNT; ++i) d->dims[i] = dims[i];
}

size_t Bytes(const ir::TensorDesc &t) {
  size_t n = t.dtype == ge::DT_FLOAT ? 4 : (t.dtype == ge::DT_FLOAT16 ? 2 : 1);
  for (int64_t d : t.shape) n *= d > 0 ? static_cast<size_t>(d) : 0;
  return n;
}

void Fill(const ir::Node &a, aclAippInfo *info) {
  std::memset(info, 0, sizeof(*info));
  const ir::TensorDesc &in = a.input_descs[0], &out = a.output_descs[0];
  info->inputFormat = static_cast<aclAippInputFormat>(Int(a, "input_format"));
  const bool yuv = info->inputFormat == ACL_YUV420SP_U8;
  info->srcImageSizeW = static_cast<int32_t>(in.shape[2]);
  info->srcImageSizeH = static_cast<int32_t>(yuv ? in.shape[1] * 2 / 3 : in.shape[1]);
  const ir::AttrValue *crop = Find(a, "crop");
  info->cropSwitch = crop != nullptr && crop->list_i.size() == 4 &&
                     (crop->list_i[0] != 0 || crop->list_i[1] != 0 || crop->list_i[2] != info->srcImageSizeW ||
                      crop->list_i[3] != info->srcImageSizeH);
  if (info->cropSwitch) {
    info->loadStartPosW = static_cast<int32_t>(crop->list_i[0]), info->loadStartPosH = static_cast<int32_t>(crop->list_i[1]);
    info->cropSizeW = static_cast<int32_t>(crop->list_i[2]), info->cropSizeH = static_cast<int32_t>(crop->list_i[3]);
  }
  const ir::AttrValue *pad = Find(a, "padding");
  info->paddingSwitch = pad != nullptr && pad->list_i.size() == 4;
  if (info->paddingSwitch) {
    info->topPaddingSize = static_cast<int32_t>(pad->list_i[0]), info->bottomPaddingSize = static_cast<int32_t>(pad->list_i[1]);
    info->leftPaddingSize = static_cast<int32_t>(pad->list_i[2]), info->rightPaddingSize = static_cast<int32_t>(pad->list_i[3]);
  }
  info->cscSwitch = static_cast<int8_t>(Int(a, "csc_switch"));
  info->rbuvSwapSwitch = static_cast<int8_t>(Int(a, "rbuv_swap_switch"));
  info->axSwapSwitch = static_cast<int8_t>(Int(a, "ax_swap_switch"));
  int32_t *m[9] = {&info->matrixR0C0, &info->matrixR0C1, &info->matrixR0C2, &info->matrixR1C0, &info->matrixR1C1,
                   &info->matrixR1C2, &info->matrixR2C0, &info->matrixR2C1, &info->matrixR2C2};
  for (size_t i = 0; i < 9; ++i) *m[i] = static_cast<int32_t>(IntAt(a, "matrix", i));
  int32_t *ob[3] = {&info->outputBias0, &info->outputBias1, &info->outputBias2};
  int32_t *ib[3] = {&info->inputBias0, &info->inputBias1, &info->inputBias2};
  for (size_t i = 0; i < 3; ++i) *ob[i] = static_cast<int32_t>(IntAt(a, "output_bias", i)), *ib[i] = static_cast<int32_t>(IntAt(a, "input_bias", i));
  int32_t *mean[4] = {&info->meanChn0, &info->meanChn1, &info->meanChn2, &info->meanChn3};
  float *mn[4] = {&info->minChn0, &info->minChn1, &info->minChn2, &info->minChn3};
  float *vr[4] = {&info->varReciChn0, &info->varReciChn1, &info->varReciChn2, &info->varReciChn3};
  for (size_t c = 0; c < 4; ++c) {
    *mean[c] = static_cast<int32_t>(IntAt(a, "mean_chn", c));
    *mn[c] = FloatAt(a, "min_chn", c, 0.0f);
    *vr[c] = FloatAt(a, "var_reci_chn", c, 1.0f);
  }
  const ir::AttrValue *layout = Find(a, "output_format");
  info->srcFormat = layout != nullptr && layout->s == "NHWC" ? ACL_FORMAT_NHWC : ACL_FORMAT_NCHW;
  info->srcDatatype = static_cast<aclDataType>(out.dtype);
  info->srcDimNum = out.shape.size();
  info->shapeCount = 1;
  FillDims(&info->outDims[0].srcDims, a.name, out.shape);
  info->outDims[0].srcSize = Bytes(out);
  FillDims(&info->outDims[0].aippOutdims, a.name, out.shape);
  info->outDims[0].aippOutSize = Bytes(out);
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

extern "C" ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo) {
  using namespace openatc;
  return Guard("aclmdlGetFirstAippInfo", [&] {
    if (aippInfo == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "aippInfo is a null pointer");
    std::shared_ptr<mdl::ModelEntry> entry = mdl::ModelRegistry::Instance().Find(modelId);
    const ir::Graph &g = entry->model->model().graph;
    if (index >= g.inputs.size())
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "input index " + std::to_string(index) + " is out of range: the model has " +
                                            std::to_string(g.inputs.size()) + " inputs");
    const int32_t data = g.inputs[index];
    for (const ir::Node &n : g.nodes) {
      if (n.type != "Aipp" || n.inputs.size() != 1 || n.inputs[0].node != data || n.input_descs.empty() ||
          n.output_descs.empty() || n.input_descs[0].shape.size() != 4)
        continue;
      mdl::Fill(n, aippInfo);
      return;
    }
    ThrowAcl(145015, "input " + std::to_string(index) + " has no static AIPP",
             "Ask aclmdlGetAippType which inputs have AIPP");
  });
}
