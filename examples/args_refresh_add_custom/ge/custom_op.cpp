// Host port of GE's args_refresh_add_custom sample (C++ variant): two op types in one .so.
//  - AddRefreshOp   EagerExecuteOp + ArgsUpdater + ShapeInferOp: its args block is registered with
//    MallocReadOnlyDevArgs and launched with aclrtLaunchKernelV2; when a static model is replayed
//    on new input/output buffers, UpdateHostArgs rewrites the three addresses in the host copy.
//  - AddNoRefreshOp EagerExecuteOp + ShapeInferOp: allocates and fills its own args block
//    (aclrtMalloc + H2D, never freed, as the sample does), so its addresses are fixed and the
//    runtime must copy model inputs/outputs through fixed buffers.
// Both kernels are the same host add kernel, compiled by the RTC on first use (the sample's
// loader does the same, guarded by a mutex), 1024 elements per block.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "add_refresh_custom.h"
#include "graph/custom_op.h"

namespace {
constexpr int64_t kBlockLength = 1024;

const char *kKernelSource = R"(
#include "openatc/host_kernel.h"
OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z, int64_t n) {
  const float *a = reinterpret_cast<const float *>(x);
  const float *b = reinterpret_cast<const float *>(y);
  float *c = reinterpret_cast<float *>(z);
  const int64_t begin = GetBlockIdx() * 1024;
  const int64_t end = begin + 1024 < n ? begin + 1024 : n;
  for (int64_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}
)";

#pragma pack(push, 1)
struct AddArgs {
  const void *x;
  const void *y;
  void *z;
  int64_t n;
};
#pragma pack(pop)

// The process-wide kernel loader (compiled once, like the sample's global loader).
aclrtFuncHandle Kernel() {
  static std::mutex mu;
  static aclrtFuncHandle func = nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (func != nullptr) return func;
  aclrtcProg prog = nullptr;
  if (aclrtcCreateProg(&prog, kKernelSource, "add_custom", 0, nullptr, nullptr) != ACL_SUCCESS) return nullptr;
  const char *options[] = {"-O2"};
  size_t size = 0;
  bool ok = aclrtcCompileProg(prog, 1, options) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
  static std::vector<uint8_t> binary;
  binary.resize(size);
  ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(binary.data())) == ACL_SUCCESS;
  aclrtcDestroyProg(&prog);
  aclrtBinHandle bin = nullptr;
  if (!ok || aclrtBinaryLoadFromData(binary.data(), binary.size(), nullptr, &bin) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(bin, "add_custom", &func) != ACL_SUCCESS) {
    std::fprintf(stderr, "[ERROR] add_custom kernel: %s\n", aclGetRecentErrMsg());
    func = nullptr;
  }
  return func;
}

uint32_t Blocks(int64_t n) { return static_cast<uint32_t>((n + kBlockLength - 1) / kBlockLength); }

ge::graphStatus SameShape(gert::InferShapeContext *ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus SameType(gert::InferDataTypeContext *ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}
gert::Tensor *Output(gert::EagerOpExecutionContext *ctx) {
  const gert::Tensor *x = ctx->GetInputTensor(0);
  return ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
}
}  // namespace

class AddRefreshOp : public ge::EagerExecuteOp, public ge::ArgsUpdater, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return SameShape(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameType(ctx); }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    gert::Tensor *z = Output(ctx);
    aclrtFuncHandle func = Kernel();
    if (z == nullptr || func == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = ctx->GetInputTensor(0)->GetShapeSize();
    AddArgs args{ctx->GetInputTensor(0)->GetAddr(), ctx->GetInputTensor(1)->GetAddr(), z->GetAddr(), n};
    const gert::KernelArgs *dev = ctx->MallocReadOnlyDevArgs(&args, sizeof(args));
    if (dev == nullptr || Blocks(n) > 65535) return ge::GRAPH_FAILED;
    return aclrtLaunchKernelV2(func, Blocks(n), dev->args_data, dev->args_size, nullptr, ctx->GetStream()) ==
                   ACL_SUCCESS
               ? ge::GRAPH_SUCCESS
               : ge::GRAPH_FAILED;
  }

  ge::graphStatus UpdateHostArgs(gert::UpdateArgsContext *ctx) override {
    const gert::KernelArgs *host = ctx->GetKernelArgs(gert::Placement::kPlacementHost, 0);
    if (host == nullptr || host->args_size != sizeof(AddArgs)) return ge::GRAPH_FAILED;
    auto *args = static_cast<AddArgs *>(host->args_data);
    args->x = ctx->GetInputTensor(0)->GetAddr();
    args->y = ctx->GetInputTensor(1)->GetAddr();
    args->z = const_cast<void *>(ctx->GetOutputTensor(0)->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};

class AddNoRefreshOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ~AddNoRefreshOp() override {
    for (void *p : owned_args_) aclrtFree(p);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return SameShape(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameType(ctx); }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    gert::Tensor *z = Output(ctx);
    aclrtFuncHandle func = Kernel();
    if (z == nullptr || func == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = ctx->GetInputTensor(0)->GetShapeSize();
    AddArgs args{ctx->GetInputTensor(0)->GetAddr(), ctx->GetInputTensor(1)->GetAddr(), z->GetAddr(), n};
    void *dev = nullptr;  // owned by the op object (the sample never frees it; we free on destruction)
    if (aclrtMalloc(&dev, sizeof(args), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return ge::GRAPH_FAILED;
    owned_args_.push_back(dev);
    if (aclrtMemcpy(dev, sizeof(args), &args, sizeof(args), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      return ge::GRAPH_FAILED;
    }
    return aclrtLaunchKernelV2(func, Blocks(n), dev, sizeof(args), nullptr, ctx->GetStream()) == ACL_SUCCESS
               ? ge::GRAPH_SUCCESS
               : ge::GRAPH_FAILED;
  }

 private:
  std::vector<void *> owned_args_;
};

REG_AUTO_MAPPING_OP(AddRefreshOp);
REG_AUTO_MAPPING_OP(AddNoRefreshOp);
