// Host port of GE's args_refresh_add_custom sample (C++ variant): two op types in one .so.
//  - AddRefreshOp   EagerExecuteOp + ArgsUpdater + ShapeInferOp: its args block is registered with
//    MallocReadOnlyDevArgs and launched with aclrtLaunchKernelV2; when a static model is replayed
//    on new input/output buffers, UpdateHostArgs rewrites the three addresses in the host copy.
//  - AddNoRefreshOp EagerExecuteOp + ShapeInferOp: allocates and fills its own args block
//    (aclrtMalloc + H2D, never freed, as the sample does), so its addresses are fixed and the
//    runtime must copy model inputs/outputs through fixed buffers.
// Both launch the same Ascend C add kernel (kKernelSource), compiled by the RTC on first use with
// --npu-arch=dav-<NpuArch of the current device> (the sample's loader does the same, guarded by a
// mutex), 1024 elements per block.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "add_refresh_custom.h"
#include "graph/custom_op.h"

namespace {
constexpr int64_t kBlockLength = 1024;

const char *kKernelSource = R"(
// add_custom in Ascend C: z = x + y over n float elements, 1024 per block; the last block stops
// at n (byte-exact DataCopyPad), so no element count overruns its tensors. One TBuf scratch holds
// x, y and z of the block; barriers order copy-in, add and copy-out.
#include "kernel_operator.h"
constexpr int64_t kBlockLength = 1024;
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, int64_t n) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  const int64_t begin = AscendC::GetBlockIdx() * kBlockLength;
  if (begin >= n) return;
  const uint32_t count = static_cast<uint32_t>(n - begin < kBlockLength ? n - begin : kBlockLength);
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float *)x + begin, count);
  yGm.SetGlobalBuffer((__gm__ float *)y + begin, count);
  zGm.SetGlobalBuffer((__gm__ float *)z + begin, count);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
  pipe.InitBuffer(scratch, 3 * kBlockLength * sizeof(float));
  AscendC::LocalTensor<float> a = scratch.Get<float>();
  AscendC::LocalTensor<float> b = a[kBlockLength];
  AscendC::LocalTensor<float> c = a[2 * kBlockLength];
  const AscendC::DataCopyExtParams bytes(1, count * sizeof(float), 0, 0);
  const AscendC::DataCopyPadExtParams<float> noPad(false, 0, 0, 0.0f);
  AscendC::DataCopyPad(a, xGm, bytes, noPad);
  AscendC::DataCopyPad(b, yGm, bytes, noPad);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Add(c, a, b, count);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopyPad(zGm, c, bytes);
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

// --npu-arch=dav-<NpuArch> of the current device (dav-0 on the host device: the host reference;
// dav-2201 on an emulated Ascend910B1); "" when the device cannot say (the sample would silently
// fall back to dav-2201; here the compile fails instead).
std::string ArchOption() {
  int32_t device = 0;
  int64_t arch = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS ||
      aclrtGetDeviceInfo(static_cast<uint32_t>(device), ACL_DEV_ATTR_NPU_ARCH, &arch) != ACL_SUCCESS || arch < 0) {
    std::fprintf(stderr, "[ERROR] add_custom kernel: no NpuArch for the current device: %s\n", aclGetRecentErrMsg());
    return "";
  }
  return "--npu-arch=dav-" + std::to_string(arch);
}

// The process-wide kernel loader (compiled once, like the sample's global loader).
aclrtFuncHandle Kernel() {
  static std::mutex mu;
  static aclrtFuncHandle func = nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (func != nullptr) return func;
  aclrtcProg prog = nullptr;
  const std::string arch = ArchOption();
  if (arch.empty() || aclrtcCreateProg(&prog, kKernelSource, "add_custom", 0, nullptr, nullptr) != ACL_SUCCESS) {
    return nullptr;
  }
  const char *options[] = {arch.c_str()};
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
