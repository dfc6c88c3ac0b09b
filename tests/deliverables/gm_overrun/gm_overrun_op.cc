// GmOverrun: a test op whose Ascend C kernel writes past its outputs by a known amount
// (tests/e2e/e2e_gm_check_test.cc). Two inputs x0, x1 and two outputs y0, y1 of n float32 each;
// block b computes y_b = x_b + 1. It reads x_b exactly (DataCopyPad) but writes y_b in whole
// 8-float tiles (DataCopy), so for n = 20 its last tile writes 32 bytes at byte offset 64 of an
// 80-byte output: 16 bytes past its end, in each of the two blocks. Compile builds the kernel with
// the RTC for the platform's NpuArch; Serialize/Deserialize carry the binary through the OM.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "graph/custom_op.h"

namespace {
const char *const kKernel = R"(
#include "kernel_operator.h"
constexpr uint32_t kTile = 8;  // floats per tile: one 32-byte block
extern "C" __global__ __aicore__ void gm_overrun(GM_ADDR x0, GM_ADDR x1, GM_ADDR y0, GM_ADDR y1, uint32_t n) {
  const bool second = AscendC::GetBlockIdx() == 1;
  AscendC::GlobalTensor<float> x, y;
  x.SetGlobalBuffer((__gm__ float *)(second ? x1 : x0), n);
  y.SetGlobalBuffer((__gm__ float *)(second ? y1 : y0), n);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  const uint32_t tiles = (n + kTile - 1) / kTile;
  pipe.InitBuffer(buf, tiles * kTile * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::DataCopyPad(t, x, AscendC::DataCopyExtParams(1, n * sizeof(float), 0, 0),
                       AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
  AscendC::Adds(t, t, 1.0f, tiles * kTile);
  for (uint32_t i = 0; i < tiles; ++i) AscendC::DataCopy(y[i * kTile], t[i * kTile], kTile);  // the bug: no tail
}
)";

void Log(const std::string &s) { std::fprintf(stderr, "[ERROR] GmOverrun: %s\n", s.c_str()); }

bool CompileKernel(const std::string &arch, std::vector<uint8_t> &binary) {
  aclrtcProg prog = nullptr;
  if (aclrtcCreateProg(&prog, kKernel, "gm_overrun", 0, nullptr, nullptr) != ACL_SUCCESS) return false;
  const std::string arch_opt = "--npu-arch=" + arch;
  const char *options[] = {arch_opt.c_str()};
  size_t size = 0;
  bool ok = aclrtcCompileProg(prog, 1, options) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS &&
            size > 0;
  if (ok) {
    binary.resize(size);
    ok = aclrtcGetBinData(prog, reinterpret_cast<char *>(binary.data())) == ACL_SUCCESS;
  }
  aclrtcDestroyProg(&prog);
  return ok;
}
}  // namespace

class GmOverrun : public ge::EagerExecuteOp, public ge::CompilableOp, public ge::PortableOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    for (size_t i = 0; i < 2; ++i) {
      const gert::Shape *x = ctx->GetInputShape(i);
      gert::Shape *y = ctx->GetOutputShape(i);
      if (x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
      *y = *x;
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ctx->SetOutputDataType(0, ctx->GetInputDataType(0)) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(1, ctx->GetInputDataType(1));
  }
  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    fe::PlatFormInfos platform;
    fe::OptionalInfos optional;
    std::string arch;
    if (ctx->GetPlatformInfos(platform, optional) != ge::GRAPH_SUCCESS ||
        !platform.GetPlatformResWithLock("version", "NpuArch", arch) || arch.empty()) {
      Log("no NpuArch");
      return ge::GRAPH_FAILED;
    }
    if (!binary_.empty()) return ge::GRAPH_SUCCESS;
    if (!CompileKernel("dav-" + arch, binary_)) {
      Log("aclrtcCompileProg failed");
      return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    buffer = binary_;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    binary_ = buffer;
    return binary_.empty() ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x0 = ctx->GetInputTensor(0);
    const gert::Tensor *x1 = ctx->GetInputTensor(1);
    if (x0 == nullptr || x1 == nullptr || x0->GetShapeSize() != x1->GetShapeSize()) return ge::GRAPH_FAILED;
    gert::Tensor *y0 = ctx->MallocOutputTensor(0, x0->GetShape(), x0->GetFormat(), x0->GetDataType());
    gert::Tensor *y1 = ctx->MallocOutputTensor(1, x1->GetShape(), x1->GetFormat(), x1->GetDataType());
    if (y0 == nullptr || y1 == nullptr) return ge::GRAPH_FAILED;
    aclrtBinaryLoadOption option;
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions options;
    options.options = &option;
    options.numOpt = 1;
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle func = nullptr;
    if (aclrtBinaryLoadFromData(binary_.data(), binary_.size(), &options, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "gm_overrun", &func) != ACL_SUCCESS) {
      Log(aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
    struct {
      const void *x0, *x1;
      void *y0, *y1;
      uint32_t n;
    } args{x0->GetAddr(), x1->GetAddr(), y0->GetAddr(), y1->GetAddr(), static_cast<uint32_t>(x0->GetShapeSize())};
    if (aclrtLaunchKernelWithHostArgs(func, 2, ctx->GetStream(), nullptr, &args, sizeof(args), nullptr, 0) !=
        ACL_SUCCESS) {
      Log(aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  std::vector<uint8_t> binary_;
};

REG_AUTO_MAPPING_OP(GmOverrun);
