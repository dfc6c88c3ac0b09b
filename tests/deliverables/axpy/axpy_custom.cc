// Test deliverable: AxpyCustom, y = alpha * x1 + x2 for float32, float16 and int32 (alpha is a Float
// attr, default 1.0; int32 rounds alpha*x1 toward zero). EagerExecuteOp + CompilableOp +
// PortableOp + ShapeInferOp: Compile builds one host kernel per (dtype, element count) with the
// RTC, Serialize carries them in a key-sorted map, Execute launches over ceil(n / 256) blocks.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "graph/custom_op.h"
#include "graph/operator_reg.h"

namespace ge {
REG_OP(AxpyCustom)
    .INPUT(x1, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .INPUT(x2, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .ATTR(alpha, Float, 1.0)
    .OP_END_FACTORY_REG(AxpyCustom);
}  // namespace ge

namespace {
constexpr int64_t kPerBlock = 256;

const char *kKernel = R"(
#include "openatc/host_kernel.h"
OPENATC_HOST_KERNEL(axpy, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, float alpha) {
  const T *a = reinterpret_cast<const T *>(x1);
  const T *b = reinterpret_cast<const T *>(x2);
  T *c = reinterpret_cast<T *>(y);
  const int64_t begin = GetBlockIdx() * PER_BLOCK;
  const int64_t end = begin + PER_BLOCK < N ? begin + PER_BLOCK : N;
  for (int64_t i = begin; i < end; ++i) c[i] = static_cast<T>(alpha * static_cast<float>(a[i])) + b[i];
}
)";

const char *CTypeOf(ge::DataType dt) {
  switch (dt) {
    case ge::DT_FLOAT: return "float";
    case ge::DT_FLOAT16: return "half";
    case ge::DT_INT32: return "int32_t";
    default: return nullptr;
  }
}

std::string Key(ge::DataType dt, int64_t n) { return std::to_string(static_cast<int>(dt)) + ":" + std::to_string(n); }

float Alpha(const gert::ExtendedKernelContext *ctx) {
  const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
  const float *alpha = attrs ? attrs->GetFloat(0) : nullptr;
  return alpha ? *alpha : 1.0f;
}

void Put(std::vector<uint8_t> &out, const void *p, size_t n) {
  const auto *b = static_cast<const uint8_t *>(p);
  out.insert(out.end(), b, b + n);
}
bool Take(const std::vector<uint8_t> &in, size_t &pos, void *p, size_t n) {
  if (pos > in.size() || in.size() - pos < n) return false;
  std::copy(in.begin() + static_cast<long>(pos), in.begin() + static_cast<long>(pos + n), static_cast<uint8_t *>(p));
  pos += n;
  return true;
}
}  // namespace

class AxpyCustom : public ge::EagerExecuteOp, public ge::CompilableOp, public ge::PortableOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetRequiredInputShape(0);
    const gert::Shape *b = ctx->GetRequiredInputShape(1);
    if (a == nullptr || b == nullptr || *a != *b) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = *a;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ctx->GetInputDataType(0) != ctx->GetInputDataType(1)) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, ctx->GetRequiredInputDataType(0));
  }

  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0);
    if (x == nullptr || CTypeOf(x->GetDataType()) == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = x->GetShapeSize();
    const std::string key = Key(x->GetDataType(), n);
    if (bins_.count(key)) return ge::GRAPH_SUCCESS;
    const std::string t = std::string("-DT=") + CTypeOf(x->GetDataType());
    const std::string nn = "-DN=" + std::to_string(n);
    const std::string pb = "-DPER_BLOCK=" + std::to_string(kPerBlock);
    const char *opts[] = {t.c_str(), nn.c_str(), pb.c_str(), "-O2"};
    aclrtcProg prog = nullptr;
    if (aclrtcCreateProg(&prog, kKernel, "axpy", 0, nullptr, nullptr) != ACL_SUCCESS) return ge::GRAPH_FAILED;
    size_t size = 0;
    bool ok = aclrtcCompileProg(prog, 4, opts) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
    std::vector<uint8_t> bin(size);
    ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(bin.data())) == ACL_SUCCESS;
    aclrtcDestroyProg(&prog);
    if (!ok) return ge::GRAPH_FAILED;
    bins_[key] = std::move(bin);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    uint32_t count = static_cast<uint32_t>(bins_.size());
    Put(buffer, &count, 4);
    for (const auto &kv : bins_) {
      uint32_t k = static_cast<uint32_t>(kv.first.size()), b = static_cast<uint32_t>(kv.second.size());
      Put(buffer, &k, 4);
      Put(buffer, kv.first.data(), k);
      Put(buffer, &b, 4);
      Put(buffer, kv.second.data(), b);
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    size_t pos = 0;
    uint32_t count = 0;
    if (!Take(buffer, pos, &count, 4)) return ge::GRAPH_FAILED;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t k = 0, b = 0;
      std::string key;
      if (!Take(buffer, pos, &k, 4) || k > buffer.size()) return ge::GRAPH_FAILED;
      key.resize(k);
      if (!Take(buffer, pos, &key[0], k) || !Take(buffer, pos, &b, 4) || b > buffer.size()) return ge::GRAPH_FAILED;
      std::vector<uint8_t> bin(b);
      if (!Take(buffer, pos, bin.data(), b)) return ge::GRAPH_FAILED;
      bins_[key] = std::move(bin);
    }
    return pos == buffer.size() ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetRequiredInputTensor(0);
    const gert::Tensor *b = ctx->GetRequiredInputTensor(1);
    if (a == nullptr || b == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *y = ctx->MallocOutputTensor(0, a->GetShape(), a->GetFormat(), a->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t n = a->GetShapeSize();
    auto it = bins_.find(Key(a->GetDataType(), n));
    if (it == bins_.end()) return ge::GRAPH_FAILED;
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    if (aclrtBinaryLoadFromData(it->second.data(), it->second.size(), nullptr, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "axpy", &fn) != ACL_SUCCESS) {
      std::fprintf(stderr, "AxpyCustom: %s\n", aclGetRecentErrMsg());
      return ge::GRAPH_FAILED;
    }
#pragma pack(push, 1)
    struct {
      const void *x1;
      const void *x2;
      void *y;
      float alpha;
    } args{a->GetAddr(), b->GetAddr(), y->GetAddr(), Alpha(ctx)};
#pragma pack(pop)
    uint32_t blocks = static_cast<uint32_t>((n + kPerBlock - 1) / kPerBlock);
    return aclrtLaunchKernelWithHostArgs(fn, blocks ? blocks : 1, ctx->GetStream(), nullptr, &args, sizeof(args),
                                         nullptr, 0) == ACL_SUCCESS
               ? ge::GRAPH_SUCCESS
               : ge::GRAPH_FAILED;
  }

 private:
  std::map<std::string, std::vector<uint8_t>> bins_;  // "dtype:count" -> kernel ELF
};

REG_AUTO_MAPPING_OP(AxpyCustom);
