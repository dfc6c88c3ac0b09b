// Test deliverable "platform_probe" (tests/e2e/e2e_emulation_test.cc): PlatformProbe(x) -> y, a
// float32 [8] tensor reporting what the op saw. Compile records the platform facts and options it
// is given; Serialize carries them into the OM, Deserialize restores them; Execute writes
//   y = {NpuArch at compile, ai_core_cnt, vector_core_cnt, ub_size / 1024, ge.jit_compile,
//        aclrtGetDeviceInfo(ACL_DEV_ATTR_NPU_ARCH) at run, precision code, length of SoC_version}
// where the precision code is 1 for force_fp16, 2 for must_keep_origin_dtype, 0 otherwise, and a
// fact that is missing or not a number reads as -1. x is ignored beyond its shape.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "graph/custom_op.h"
#include "graph/operator_reg.h"

namespace ge {
REG_OP(PlatformProbe)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PlatformProbe);
}  // namespace ge

namespace {
float Number(const std::string &text) {
  if (text.empty()) return -1.0f;
  char *end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return *end == '\0' ? static_cast<float>(v) : -1.0f;
}
}  // namespace

class PlatformProbe : public ge::CompilableOp, public ge::PortableOp, public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    fe::PlatFormInfos platform;
    fe::OptionalInfos optional;
    if (ctx->GetPlatformInfos(platform, optional) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    std::string v;
    facts_.assign(8, -1.0f);
    if (platform.GetPlatformResWithLock("version", "NpuArch", v)) facts_[0] = Number(v);
    if (platform.GetPlatformResWithLock("SoCInfo", "ai_core_cnt", v)) facts_[1] = Number(v);
    if (platform.GetPlatformResWithLock("SoCInfo", "vector_core_cnt", v)) facts_[2] = Number(v);
    if (platform.GetPlatformResWithLock("AICoreSpec", "ub_size", v)) facts_[3] = Number(v) / 1024.0f;
    ge::AscendString option;
    if (ctx->GetOption("ge.jit_compile", option) == ge::GRAPH_SUCCESS) facts_[4] = Number(option.GetString());
    facts_[6] = 0.0f;
    if (ctx->GetOption("ge.exec.precision_mode", option) == ge::GRAPH_SUCCESS) {
      if (std::strcmp(option.GetString(), "force_fp16") == 0) facts_[6] = 1.0f;
      if (std::strcmp(option.GetString(), "must_keep_origin_dtype") == 0) facts_[6] = 2.0f;
    }
    if (platform.GetPlatformResWithLock("version", "SoC_version", v)) facts_[7] = static_cast<float>(v.size());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    buffer.resize(facts_.size() * sizeof(float));
    std::memcpy(buffer.data(), facts_.data(), buffer.size());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    if (buffer.size() != 8 * sizeof(float)) return ge::GRAPH_FAILED;
    facts_.resize(8);
    std::memcpy(facts_.data(), buffer.data(), buffer.size());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr || x->GetShapeSize() != 8 || facts_.size() != 8) return ge::GRAPH_FAILED;
    gert::Tensor *y = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<float> out = facts_;
    int64_t arch = -1;
    if (aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &arch) == ACL_SUCCESS) out[5] = static_cast<float>(arch);
    std::memcpy(y->GetData<float>(), out.data(), out.size() * sizeof(float));
    return ge::GRAPH_SUCCESS;
  }

 private:
  std::vector<float> facts_;
};

REG_AUTO_MAPPING_OP(PlatformProbe);
