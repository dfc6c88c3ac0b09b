// AnnotatedAddCustom, the host port of GE's annotated_args_refresh_add_custom offline sample:
// CompilableOp + PortableOp + ShapeInferOp + AnnotatedArgsOp, and no EagerExecuteOp. Compile
// builds the Ascend C add kernel per input shape with the RTC for --npu-arch=dav-<NpuArch of
// GetPlatformInfos> (kept in a shape-keyed map that
// Serialize/Deserialize carry into the OM); DeclareLaunchArgs declares one launch with three
// 8-byte slots (input 0, input 1, output 0) and block_dim = n / 1024. At run time the runtime
// launches it with the real addresses; no callback of this op runs.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "annotated_add_custom.h"
#include "graph/custom_op.h"

namespace {
constexpr int64_t kBlockLength = 1024;

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

std::string ShapeKey(const gert::Shape &s) {
  std::string k = "[";
  for (size_t i = 0; i < s.GetDimNum(); ++i) k += (i ? "," : "") + std::to_string(s.GetDim(i));
  return k + "]";
}
// --npu-arch=dav-<NpuArch> of the compile target (GetPlatformInfos' version/NpuArch, "dav-"
// prefixed unless it is already), as the sample passes it; "" when the target has none.
std::string ArchOption(gert::OpCompileContext *ctx) {
  fe::PlatFormInfos platform;
  fe::OptionalInfos optional;
  std::string arch;
  if (ctx->GetPlatformInfos(platform, optional) != ge::GRAPH_SUCCESS ||
      !platform.GetPlatformResWithLock("version", "NpuArch", arch) || arch.empty()) {
    std::fprintf(stderr, "[ERROR] AnnotatedAddCustom: no NpuArch for node %s\n", ctx->GetNodeName());
    return "";
  }
  return "--npu-arch=" + (arch.rfind("dav-", 0) == 0 ? arch : "dav-" + arch);
}
void PutU32(std::vector<uint8_t> &b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
bool GetU32(const std::vector<uint8_t> &b, size_t &pos, uint32_t &v) {
  if (pos > b.size() || b.size() - pos < 4) return false;
  v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(b[pos + i]) << (8 * i);
  pos += 4;
  return true;
}
}  // namespace

class AnnotatedAddCustom : public ge::CompilableOp, public ge::PortableOp, public ge::ShapeInferOp,
                           public ge::AnnotatedArgsOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr || x->GetShapeSize() % kBlockLength != 0) {
      std::fprintf(stderr, "[ERROR] AnnotatedAddCustom: the element count must be a multiple of %ld\n",
                   static_cast<long>(kBlockLength));
      return ge::GRAPH_FAILED;
    }
    const std::string key = ShapeKey(x->GetStorageShape());
    if (binaries_.count(key)) return ge::GRAPH_SUCCESS;
    const std::string arch = ArchOption(ctx);
    aclrtcProg prog = nullptr;
    if (arch.empty() || aclrtcCreateProg(&prog, kKernelSource, "add_custom", 0, nullptr, nullptr) != ACL_SUCCESS) {
      return ge::GRAPH_FAILED;
    }
    const char *options[] = {arch.c_str()};
    size_t size = 0;
    bool ok = aclrtcCompileProg(prog, 1, options) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
    std::vector<uint8_t> bin(size);
    ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(bin.data())) == ACL_SUCCESS;
    aclrtcDestroyProg(&prog);
    if (!ok) {
      std::fprintf(stderr, "[ERROR] AnnotatedAddCustom: add_custom kernel: %s\n", aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
    binaries_[key] = std::move(bin);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    buffer.clear();
    PutU32(buffer, static_cast<uint32_t>(binaries_.size()));
    for (const auto &kv : binaries_) {
      PutU32(buffer, static_cast<uint32_t>(kv.first.size()));
      buffer.insert(buffer.end(), kv.first.begin(), kv.first.end());
      PutU32(buffer, static_cast<uint32_t>(kv.second.size()));
      buffer.insert(buffer.end(), kv.second.begin(), kv.second.end());
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    size_t pos = 0;
    uint32_t count = 0;
    if (!GetU32(buffer, pos, count)) return ge::GRAPH_FAILED;
    std::map<std::string, std::vector<uint8_t>> loaded;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t kl = 0, bl = 0;
      if (!GetU32(buffer, pos, kl) || buffer.size() - pos < kl) return ge::GRAPH_FAILED;
      std::string key(buffer.begin() + static_cast<long>(pos), buffer.begin() + static_cast<long>(pos + kl));
      pos += kl;
      if (!GetU32(buffer, pos, bl) || buffer.size() - pos < bl) return ge::GRAPH_FAILED;
      loaded[key].assign(buffer.begin() + static_cast<long>(pos), buffer.begin() + static_cast<long>(pos + bl));
      pos += bl;
    }
    if (pos != buffer.size()) return ge::GRAPH_FAILED;
    binaries_ = std::move(loaded);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) override {
    const gert::Tensor *x = ctx.GetInputTensor(0);
    const gert::Tensor *y = ctx.GetInputTensor(1);
    const gert::Tensor *z = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr || z == nullptr || binaries_.empty()) return ge::GRAPH_FAILED;
    auto it = binaries_.find(ShapeKey(x->GetStorageShape()));
    if (it == binaries_.end()) return ge::GRAPH_FAILED;
    const int64_t n = x->GetShapeSize();
    if (n % kBlockLength != 0 || n / kBlockLength > 65535) return ge::GRAPH_FAILED;
    gert::AnnotatedKernelArgs args(gert::InputAddr{0U, x->GetAddr()}, gert::InputAddr{1U, y->GetAddr()},
                                   gert::OutputAddr{0U, z->GetAddr()});
    gert::AnnotatedKernelLaunchInfo info;
    info.kernel_name = "add_custom";
    info.kernel_bin = it->second.data();
    info.kernel_bin_size = it->second.size();
    info.block_dim = static_cast<uint32_t>(n / kBlockLength);
    return ctx.AddLaunch(info, std::move(args));
  }

 private:
  std::map<std::string, std::vector<uint8_t>> binaries_;
};

REG_AUTO_MAPPING_OP(AnnotatedAddCustom);
