// Test deliverable: ExecuteCountOp, y = x + k where k is the number of times Execute has been
// called on this op object (float32). Execute bakes k into the launch's args, so a replayed
// recording keeps the k of the recording run: sink replay and eager execution give observably
// different results (replay: always x + 1; eager: x + 1, x + 2, ...).
#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "graph/custom_op.h"

namespace {
const char *kSource = R"(
#include "openatc/host_kernel.h"
OPENATC_HOST_KERNEL(add_k, GM_ADDR x, GM_ADDR y, int64_t n, float k) {
  const float *a = reinterpret_cast<const float *>(x);
  float *b = reinterpret_cast<float *>(y);
  for (int64_t i = 0; i < n; ++i) b[i] = a[i] + k;
}
)";
}  // namespace

class ExecuteCountOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    if (func_ == nullptr && !Build()) return ge::GRAPH_FAILED;
    const gert::Tensor *x = ctx->GetInputTensor(0);
    gert::Tensor *y = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    ++calls_;
#pragma pack(push, 1)
    struct {
      const void *x;
      void *y;
      int64_t n;
      float k;
    } args{x->GetAddr(), y->GetAddr(), x->GetShapeSize(), static_cast<float>(calls_)};
#pragma pack(pop)
    return aclrtLaunchKernelWithHostArgs(func_, 1, ctx->GetStream(), nullptr, &args, sizeof(args), nullptr, 0) ==
                   ACL_SUCCESS
               ? ge::GRAPH_SUCCESS
               : ge::GRAPH_FAILED;
  }

 private:
  bool Build() {
    aclrtcProg prog = nullptr;
    if (aclrtcCreateProg(&prog, kSource, "add_k", 0, nullptr, nullptr) != ACL_SUCCESS) return false;
    size_t size = 0;
    bool ok = aclrtcCompileProg(prog, 0, nullptr) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
    bin_.resize(size);
    ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(bin_.data())) == ACL_SUCCESS;
    aclrtcDestroyProg(&prog);
    aclrtBinHandle handle = nullptr;
    return ok && aclrtBinaryLoadFromData(bin_.data(), bin_.size(), nullptr, &handle) == ACL_SUCCESS &&
           aclrtBinaryGetFunction(handle, "add_k", &func_) == ACL_SUCCESS;
  }
  int calls_ = 0;
  std::vector<uint8_t> bin_;
  aclrtFuncHandle func_ = nullptr;
};

REG_AUTO_MAPPING_OP(ExecuteCountOp);
