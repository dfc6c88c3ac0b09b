// AddCustom, OpenATC's op shaped like GE's compilable_add_custom sample: EagerExecuteOp +
// CompilableOp + PortableOp + ShapeInferOp. Compile builds the Ascend C kernel (add_custom_kernel.cpp,
// next to this .so) with aclrtcCompileProg for --npu-arch=dav-<NpuArch of GetPlatformInfos>, keeps
// one binary per input shape in a map shared by every node of the op type, Serialize/Deserialize
// carry the map into the OM, and Execute launches the binary for the input's shape with
// aclrtLaunchKernelWithHostArgs, passing the element count so the kernel stops at the tensor's end.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "add_custom.h"
#include "graph/custom_op.h"

namespace {
constexpr uint32_t kMagic = 0x56415231U;  // "1RAV" little-endian, as the sample writes
constexpr uint32_t kVersion = 1U;
constexpr int64_t kBlockLength = 1024;

void Log(const char *fmt, const std::string &a) { std::fprintf(stderr, fmt, a.c_str()); }

std::string ShapeKey(const gert::Shape &shape) {
  std::string key = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    if (i) key += ",";
    key += std::to_string(shape.GetDim(i));
  }
  return key + "]";
}

// The kernel source is installed next to this deliverable (found through dladdr).
bool ReadKernelSource(std::string &source) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&ReadKernelSource), &info) == 0 || info.dli_fname == nullptr) return false;
  std::string path = info.dli_fname;
  path = path.substr(0, path.find_last_of('/') + 1) + "add_custom_kernel.cpp";
  std::ifstream in(path);
  if (!in) {
    Log("[ERROR] AddCustom: cannot read the kernel source %s\n", path);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  source = ss.str();
  return true;
}

void PutU32(std::vector<uint8_t> &out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
bool GetU32(const std::vector<uint8_t> &in, size_t &pos, uint32_t &v) {
  if (pos > in.size() || in.size() - pos < 4) return false;
  v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(in[pos + i]) << (8 * i);
  pos += 4;
  return true;
}
}  // namespace

class AddCustom : public ge::EagerExecuteOp, public ge::CompilableOp, public ge::PortableOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    if (x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
    *y = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    ge::AscendString jit;
    if (ctx->GetOption("ge.jit_compile", jit) == ge::GRAPH_SUCCESS) {
      Log("[INFO] AddCustom: ge.jit_compile = %s\n", jit.GetString());
    }
    Log("[INFO] AddCustom: compiling node %s\n", ctx->GetNodeName());
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    if (x->GetDataType() != ge::DT_FLOAT) {
      Log("[ERROR] AddCustom: the kernel supports float32 only (node %s)\n", ctx->GetNodeName());
      return ge::GRAPH_FAILED;
    }
    fe::PlatFormInfos platform;
    fe::OptionalInfos optional;
    std::string arch;
    if (ctx->GetPlatformInfos(platform, optional) != ge::GRAPH_SUCCESS ||
        !platform.GetPlatformResWithLock("version", "NpuArch", arch) || arch.empty()) {
      Log("[ERROR] AddCustom: no NpuArch for node %s\n", ctx->GetNodeName());
      return ge::GRAPH_FAILED;
    }
    if (arch.rfind("dav-", 0) != 0) arch = "dav-" + arch;

    const std::string key = ShapeKey(x->GetStorageShape());
    std::string source;
    if (!ReadKernelSource(source)) return ge::GRAPH_FAILED;
    const std::string arch_opt = "--npu-arch=" + arch;
    const char *options[] = {arch_opt.c_str()};
    std::vector<uint8_t> binary;
    if (!CompileKernel(source, options, 1, binary)) return ge::GRAPH_FAILED;

    auto it = binaries_.find(key);
    if (it != binaries_.end()) {
      if (it->second != binary) {
        Log("[ERROR] AddCustom: a different binary for the same key %s\n", key);
        return ge::GRAPH_FAILED;
      }
      return ge::GRAPH_SUCCESS;  // nodes of the same shape share one binary
    }
    binaries_[key] = std::move(binary);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    buffer.clear();
    PutU32(buffer, kMagic);
    PutU32(buffer, kVersion);
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
    uint32_t magic = 0, version = 0, count = 0;
    if (!GetU32(buffer, pos, magic) || magic != kMagic || !GetU32(buffer, pos, version) || version != kVersion ||
        !GetU32(buffer, pos, count)) {
      return ge::GRAPH_FAILED;
    }
    std::map<std::string, std::vector<uint8_t>> loaded;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t klen = 0, blen = 0;
      if (!GetU32(buffer, pos, klen) || buffer.size() - pos < klen) return ge::GRAPH_FAILED;
      std::string key(buffer.begin() + static_cast<long>(pos), buffer.begin() + static_cast<long>(pos + klen));
      pos += klen;
      if (!GetU32(buffer, pos, blen) || buffer.size() - pos < blen) return ge::GRAPH_FAILED;
      loaded[key].assign(buffer.begin() + static_cast<long>(pos), buffer.begin() + static_cast<long>(pos + blen));
      pos += blen;
    }
    if (pos != buffer.size()) return ge::GRAPH_FAILED;  // strict: no trailing bytes
    binaries_ = std::move(loaded);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    const gert::Tensor *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *z = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (z == nullptr) return ge::GRAPH_FAILED;
    auto it = binaries_.find(ShapeKey(x->GetStorageShape()));
    if (it == binaries_.end()) {
      Log("[ERROR] AddCustom: no binary was compiled for shape %s\n", ShapeKey(x->GetStorageShape()));
      return ge::GRAPH_FAILED;
    }
    aclrtBinaryLoadOption option;
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions options;
    options.options = &option;
    options.numOpt = 1;
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle func = nullptr;
    if (aclrtBinaryLoadFromData(it->second.data(), it->second.size(), &options, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "add_custom", &func) != ACL_SUCCESS) {
      Log("[ERROR] AddCustom: %s\n", aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
    const int64_t n = x->GetShapeSize();
    if (n < 0 || n > static_cast<int64_t>(UINT32_MAX)) {
      Log("[ERROR] AddCustom: %s elements do not fit the kernel's uint32_t count\n", std::to_string(n));
      return ge::GRAPH_FAILED;
    }
    // The kernel's parameters (GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n), laid out in order;
    // zeroed first so the tail padding after n is defined bytes.
    struct {
      const void *x;
      const void *y;
      void *z;
      uint32_t n;
    } args;
    std::memset(&args, 0, sizeof(args));
    args.x = x->GetAddr();
    args.y = y->GetAddr();
    args.z = z->GetAddr();
    args.n = static_cast<uint32_t>(n);
    const uint32_t blocks = static_cast<uint32_t>((n + kBlockLength - 1) / kBlockLength);
    if (aclrtLaunchKernelWithHostArgs(func, blocks == 0 ? 1 : blocks, ctx->GetStream(), nullptr, &args, sizeof(args),
                                      nullptr, 0) != ACL_SUCCESS) {
      Log("[ERROR] AddCustom: %s\n", aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  static bool CompileKernel(const std::string &source, const char **options, int num_options,
                            std::vector<uint8_t> &binary) {
    aclrtcProg prog = nullptr;
    if (aclrtcCreateProg(&prog, source.c_str(), "add_custom", 0, nullptr, nullptr) != ACL_SUCCESS) return false;
    bool ok = aclrtcCompileProg(prog, num_options, options) == ACL_SUCCESS;
    if (!ok) {
      size_t log_size = 0;
      if (aclrtcGetCompileLogSize(prog, &log_size) == ACL_SUCCESS && log_size > 0) {
        std::string log(log_size, '\0');
        if (aclrtcGetCompileLog(prog, &log[0]) == ACL_SUCCESS) Log("[ERROR] AddCustom: RTC log:\n%s\n", log);
      }
    }
    size_t size = 0;
    if (ok) ok = aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS && size > 0;
    if (ok) {
      binary.resize(size);
      ok = aclrtcGetBinData(prog, reinterpret_cast<char *>(binary.data())) == ACL_SUCCESS;
    }
    aclrtcDestroyProg(&prog);
    return ok;
  }

  std::map<std::string, std::vector<uint8_t>> binaries_;  // input shape key -> kernel ELF
};

REG_AUTO_MAPPING_OP(AddCustom);
