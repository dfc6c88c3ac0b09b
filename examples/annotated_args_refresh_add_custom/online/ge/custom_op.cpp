// The online variant of annotated_args_refresh_add_custom (host port of GE's sample): two op
// types in one .so, the same Ascend C add kernel (1024 float elements per block, three 8-byte
// pointer arguments x, y, z; compiled by the RTC for --npu-arch=dav-<NpuArch>: the compile
// target's in Compile, the current device's in Execute), differing only in how a replayed launch
// follows new buffers.
//  - AnnotatedAddCustom: CompilableOp + AnnotatedArgsOp + ShapeInferOp. No PortableOp (the online
//    flow keeps the compiling object) and no Execute: Compile builds the kernel with the RTC per
//    input shape; DeclareLaunchArgs declares the launch with slots input 0, input 1, output 0,
//    which the runtime fills with the real addresses on every run.
//  - NoRefreshAddCustom: EagerExecuteOp + ShapeInferOp. Execute (once, at the first run of the
//    static graph) registers its args with MallocReadOnlyDevArgs and launches; without
//    ArgsUpdater its addresses are fixed, so the runtime copies inputs and outputs through them.
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "add_custom_ir.h"
#include "graph/custom_op.h"

namespace {
constexpr int64_t kBlockLength = 1024;
constexpr int64_t kMaxBlocks = 65535;

const char *kKernelSource = R"(
// add_custom in Ascend C: z = x + y, 1024 float elements per block (the element count is a whole
// number of blocks), one GM -> UB -> GM pass per block: x and y through a VECIN queue of depth 2,
// z through a VECOUT queue.
#include "kernel_operator.h"
constexpr uint32_t kBlockLength = 1024;
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  const uint64_t begin = kBlockLength * static_cast<uint64_t>(AscendC::GetBlockIdx());
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float *)x + begin, kBlockLength);
  yGm.SetGlobalBuffer((__gm__ float *)y + begin, kBlockLength);
  zGm.SetGlobalBuffer((__gm__ float *)z + begin, kBlockLength);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> in;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 2, kBlockLength * sizeof(float));
  pipe.InitBuffer(out, 1, kBlockLength * sizeof(float));
  AscendC::LocalTensor<float> xIn = in.AllocTensor<float>();
  AscendC::LocalTensor<float> yIn = in.AllocTensor<float>();
  AscendC::DataCopy(xIn, xGm, kBlockLength);
  AscendC::DataCopy(yIn, yGm, kBlockLength);
  in.EnQue(xIn);
  in.EnQue(yIn);
  AscendC::LocalTensor<float> a = in.DeQue<float>();
  AscendC::LocalTensor<float> b = in.DeQue<float>();
  AscendC::LocalTensor<float> sum = out.AllocTensor<float>();
  AscendC::Add(sum, a, b, kBlockLength);
  out.EnQue(sum);
  in.FreeTensor(a);
  in.FreeTensor(b);
  AscendC::LocalTensor<float> zOut = out.DeQue<float>();
  AscendC::DataCopy(zGm, zOut, kBlockLength);
  out.FreeTensor(zOut);
}
)";

#pragma pack(push, 1)
struct AddArgs {
  const void *x;
  const void *y;
  void *z;
};
#pragma pack(pop)

// Blocks for n elements; 0 when n is not a whole number of blocks or needs too many.
uint32_t Blocks(int64_t n) {
  if (n <= 0 || n % kBlockLength != 0 || n / kBlockLength > kMaxBlocks) {
    std::fprintf(stderr, "[ERROR] add_custom: the element count %lld must be a multiple of %lld (at most %lld blocks)\n",
                 static_cast<long long>(n), static_cast<long long>(kBlockLength), static_cast<long long>(kMaxBlocks));
    return 0;
  }
  return static_cast<uint32_t>(n / kBlockLength);
}

// --npu-arch=dav-<n> for NpuArch `arch` ("2201", "dav-2201", "0").
std::string ArchOption(const std::string &arch) { return "--npu-arch=" + (arch.rfind("dav-", 0) == 0 ? arch : "dav-" + arch); }

// The NpuArch of the current device (0 on the host device, 2201 on an emulated Ascend910B1); "" if unknown.
std::string DeviceArch() {
  int32_t device = 0;
  int64_t arch = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS ||
      aclrtGetDeviceInfo(static_cast<uint32_t>(device), ACL_DEV_ATTR_NPU_ARCH, &arch) != ACL_SUCCESS || arch < 0) {
    std::fprintf(stderr, "[ERROR] add_custom kernel: no NpuArch for the current device: %s\n", aclGetRecentErrMsg());
    return "";
  }
  return std::to_string(arch);
}

bool CompileKernel(const std::string &arch, std::vector<uint8_t> &binary) {
  if (arch.empty()) return false;
  aclrtcProg prog = nullptr;
  if (aclrtcCreateProg(&prog, kKernelSource, "add_custom", 0, nullptr, nullptr) != ACL_SUCCESS) return false;
  const std::string option = ArchOption(arch);
  const char *options[] = {option.c_str()};
  size_t size = 0;
  bool ok = aclrtcCompileProg(prog, 1, options) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
  binary.resize(size);
  ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(binary.data())) == ACL_SUCCESS;
  aclrtcDestroyProg(&prog);
  if (!ok) std::fprintf(stderr, "[ERROR] add_custom kernel: %s\n", aclGetRecentErrMsg());
  return ok;
}

// The process-wide kernel of NoRefreshAddCustom (compiled and loaded once, like the sample's loader).
aclrtFuncHandle NoRefreshKernel() {
  static std::mutex mu;
  static aclrtFuncHandle func = nullptr;
  static std::vector<uint8_t> binary;
  std::lock_guard<std::mutex> lock(mu);
  if (func != nullptr) return func;
  aclrtBinHandle bin = nullptr;
  if (!CompileKernel(DeviceArch(), binary) || aclrtBinaryLoadFromData(binary.data(), binary.size(), nullptr, &bin) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(bin, "add_custom", &func) != ACL_SUCCESS) {
    func = nullptr;
  }
  return func;
}

std::string ShapeKey(const gert::Shape &s) {
  std::string k = "[";
  for (size_t i = 0; i < s.GetDimNum(); ++i) k += (i ? "," : "") + std::to_string(s.GetDim(i));
  return k + "]";
}

ge::graphStatus SameShape(gert::InferShapeContext *ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus SameType(gert::InferDataTypeContext *ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}
}  // namespace

class AnnotatedAddCustom : public ge::CompilableOp, public ge::AnnotatedArgsOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return SameShape(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameType(ctx); }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr || Blocks(x->GetShapeSize()) == 0) return ge::GRAPH_FAILED;
    const std::string key = ShapeKey(x->GetStorageShape());
    if (binaries_.count(key)) return ge::GRAPH_SUCCESS;  // nodes of one shape share a binary
    fe::PlatFormInfos platform;
    fe::OptionalInfos optional;
    std::string arch;
    if (ctx->GetPlatformInfos(platform, optional) != ge::GRAPH_SUCCESS ||
        !platform.GetPlatformResWithLock("version", "NpuArch", arch) || arch.empty()) {
      std::fprintf(stderr, "[ERROR] AnnotatedAddCustom: no NpuArch for node %s\n", ctx->GetNodeName());
      return ge::GRAPH_FAILED;
    }
    std::vector<uint8_t> binary;
    if (!CompileKernel(arch, binary)) return ge::GRAPH_FAILED;
    binaries_[key] = std::move(binary);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) override {
    const gert::Tensor *x = ctx.GetInputTensor(0);
    const gert::Tensor *y = ctx.GetInputTensor(1);
    const gert::Tensor *z = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr || z == nullptr) return ge::GRAPH_FAILED;
    auto it = binaries_.find(ShapeKey(x->GetStorageShape()));
    const uint32_t blocks = Blocks(x->GetShapeSize());
    if (it == binaries_.end() || blocks == 0) return ge::GRAPH_FAILED;
    gert::AnnotatedKernelArgs args(gert::InputAddr{0U, x->GetAddr()}, gert::InputAddr{1U, y->GetAddr()},
                                   gert::OutputAddr{0U, z->GetAddr()});
    gert::AnnotatedKernelLaunchInfo info;
    info.kernel_name = "add_custom";
    info.kernel_bin = it->second.data();
    info.kernel_bin_size = it->second.size();
    info.block_dim = blocks;
    return ctx.AddLaunch(info, std::move(args));
  }

 private:
  std::map<std::string, std::vector<uint8_t>> binaries_;  // input shape -> kernel binary
};

class NoRefreshAddCustom : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return SameShape(ctx); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameType(ctx); }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    aclrtFuncHandle func = NoRefreshKernel();
    const gert::Tensor *x = ctx->GetInputTensor(0);
    const gert::Tensor *y = ctx->GetInputTensor(1);
    if (func == nullptr || x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *z = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    const uint32_t blocks = Blocks(x->GetShapeSize());
    if (z == nullptr || blocks == 0) return ge::GRAPH_FAILED;
    AddArgs args{x->GetAddr(), y->GetAddr(), z->GetAddr()};
    const gert::KernelArgs *dev = ctx->MallocReadOnlyDevArgs(&args, sizeof(args));
    if (dev == nullptr) return ge::GRAPH_FAILED;
    return aclrtLaunchKernelV2(func, blocks, dev->args_data, dev->args_size, nullptr, ctx->GetStream()) == ACL_SUCCESS
               ? ge::GRAPH_SUCCESS
               : ge::GRAPH_FAILED;
  }
};

REG_AUTO_MAPPING_OP(AnnotatedAddCustom);
REG_AUTO_MAPPING_OP(NoRefreshAddCustom);
