// WhereLikeCustom, the host port of GE's data_dependent_shape_custom sample: EagerExecuteOp +
// ShapeInferOp. InferShape can only say [-1, rank(x)]; Execute allocates the upper bound
// [N, rank], launches a single-block kernel that writes the indices of the true elements and a
// shape record [ndim, count, 1] into a workspace, waits for the stream, reads the record back and
// shrinks the output's shape and size to what the kernel found.
//
// The sample's kernel is Ascend C launched with <<<>>> from the same .so; here the kernel is host
// C++ (kKernelSource) compiled by the RTC on first use and launched with
// aclrtLaunchKernelWithHostArgs.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"
#include "graph/custom_op.h"
#include "where_like_custom.h"

namespace {
const char *kKernelSource = R"(
#include "openatc/host_kernel.h"
// One block, serial: out[k * rank + d] = coordinate d of the k-th true element of x (row-major),
// shape_out = {2, count, rank}.
OPENATC_HOST_KERNEL(where_like, GM_ADDR x, GM_ADDR out, GM_ADDR shape_out, int64_t n, int64_t rank,
                    int64_t dims_addr) {
  const bool *in = reinterpret_cast<const bool *>(x);
  int64_t *y = reinterpret_cast<int64_t *>(out);
  const int64_t *dims = reinterpret_cast<const int64_t *>(dims_addr);
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!in[i]) continue;
    int64_t rest = i;
    for (int64_t d = rank - 1; d >= 0; --d) {
      y[count * rank + d] = rest % dims[d];
      rest /= dims[d];
    }
    ++count;
  }
  uint64_t *shape = reinterpret_cast<uint64_t *>(shape_out);
  shape[0] = 2;
  shape[1] = static_cast<uint64_t>(count);
  shape[2] = static_cast<uint64_t>(rank);
}
)";

void Error(const char *what) { std::fprintf(stderr, "[ERROR] WhereLikeCustom: %s: %s\n", what, aclGetRecentErrMsg()); }
}  // namespace

namespace ge {

class WhereLikeCustom : public EagerExecuteOp, public ShapeInferOp {
 public:
  graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    if (x == nullptr || y == nullptr) return GRAPH_FAILED;
    y->SetDimNum(0);
    y->AppendDim(-1);
    y->AppendDim(static_cast<int64_t>(x->GetDimNum() == 0 ? 1 : x->GetDimNum()));
    return GRAPH_SUCCESS;
  }

  graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, DT_INT64);
  }

  graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return GRAPH_FAILED;
    const gert::Shape &xs = x->GetStorageShape();
    const int64_t n = x->GetShapeSize();
    const int64_t rank = xs.GetDimNum() == 0 ? 1 : static_cast<int64_t>(xs.GetDimNum());
    // Upper bound: every element is true.
    gert::Tensor *y = ctx->MallocOutputTensor(0, gert::StorageShape({n, rank}, {n, rank}), x->GetFormat(), DT_INT64);
    if (y == nullptr) return GRAPH_FAILED;
    auto *record = static_cast<uint64_t *>(ctx->MallocWorkSpace(3 * sizeof(uint64_t)));
    auto *dims = static_cast<int64_t *>(ctx->MallocWorkSpace(static_cast<size_t>(rank) * sizeof(int64_t)));
    if (record == nullptr || dims == nullptr) return GRAPH_FAILED;
    std::vector<int64_t> host_dims(static_cast<size_t>(rank), 1);
    for (int64_t d = 0; d < static_cast<int64_t>(xs.GetDimNum()); ++d) host_dims[static_cast<size_t>(d)] = xs.GetDim(static_cast<size_t>(d));
    if (aclrtMemcpy(dims, rank * sizeof(int64_t), host_dims.data(), rank * sizeof(int64_t), ACL_MEMCPY_HOST_TO_DEVICE) !=
        ACL_SUCCESS) {
      Error("aclrtMemcpy");
      return GRAPH_FAILED;
    }
    aclrtFuncHandle func = Kernel();
    if (func == nullptr) return GRAPH_FAILED;
#pragma pack(push, 1)
    struct {
      const void *x;
      void *out;
      void *shape_out;
      int64_t n;
      int64_t rank;
      int64_t dims_addr;
    } args{x->GetAddr(), y->GetAddr(), record, n, rank, static_cast<int64_t>(reinterpret_cast<intptr_t>(dims))};
#pragma pack(pop)
    if (aclrtLaunchKernelWithHostArgs(func, 1, ctx->GetStream(), nullptr, &args, sizeof(args), nullptr, 0) !=
            ACL_SUCCESS ||
        aclrtSynchronizeStream(ctx->GetStream()) != ACL_SUCCESS) {
      Error("launch");
      return GRAPH_FAILED;
    }
    uint64_t shape[3] = {0, 0, 0};
    if (aclrtMemcpy(shape, sizeof(shape), record, sizeof(shape), ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      Error("aclrtMemcpy");
      return GRAPH_FAILED;
    }
    const int64_t count = static_cast<int64_t>(shape[1]);
    if (shape[0] != 2 || count < 0 || count > n || static_cast<int64_t>(shape[2]) != rank) {
      std::fprintf(stderr, "[ERROR] WhereLikeCustom: the kernel returned a bad shape record\n");
      return GRAPH_FAILED;
    }
    const size_t bytes = static_cast<size_t>(count * rank) * sizeof(int64_t);
    if (bytes > y->GetSize()) return GRAPH_FAILED;
    y->MutableOriginShape() = gert::Shape({count, rank});
    y->MutableStorageShape() = gert::Shape({count, rank});
    y->MutableTensorData().SetSize(bytes);
    return GRAPH_SUCCESS;
  }

 private:
  // Compiled once per op object (the sample guards its loader with a mutex the same way).
  aclrtFuncHandle Kernel() {
    std::lock_guard<std::mutex> lock(mu_);
    if (func_ != nullptr) return func_;
    aclrtcProg prog = nullptr;
    if (aclrtcCreateProg(&prog, kKernelSource, "where_like", 0, nullptr, nullptr) != ACL_SUCCESS) {
      Error("aclrtcCreateProg");
      return nullptr;
    }
    const char *options[] = {"-O2"};
    size_t size = 0;
    bool ok = aclrtcCompileProg(prog, 1, options) == ACL_SUCCESS && aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS;
    binary_.resize(size);
    ok = ok && aclrtcGetBinData(prog, reinterpret_cast<char *>(binary_.data())) == ACL_SUCCESS;
    aclrtcDestroyProg(&prog);
    aclrtBinHandle bin = nullptr;
    if (!ok || aclrtBinaryLoadFromData(binary_.data(), binary_.size(), nullptr, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "where_like", &func_) != ACL_SUCCESS) {
      Error("kernel build");
      func_ = nullptr;
    }
    return func_;
  }

  std::mutex mu_;
  std::vector<uint8_t> binary_;
  aclrtFuncHandle func_ = nullptr;
};

REG_AUTO_MAPPING_OP(WhereLikeCustom);

}  // namespace ge
