// WhereLikeCustom, the host port of GE's data_dependent_shape_custom sample: EagerExecuteOp +
// ShapeInferOp. InferShape can only say [-1, rank(x)]; Execute allocates the upper bound
// [N, rank], launches a single-block kernel that writes the indices of the true elements and a
// shape record {2, count, rank} into a workspace, waits for the stream, reads the record back and
// shrinks the output's shape and size to what the kernel found.
//
// The kernel is Ascend C (where_like_kernel.asc), compiled by bisheng into this .so and launched
// with <<<>>> from the same file, as the sample does.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl_rt.h"
#include "graph/custom_op.h"
#include "where_like_custom.h"
#include "where_like_launch.h"

namespace {
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
    if (LaunchWhereLike(x->GetAddr(), dims, y->GetAddr(), record, static_cast<uint64_t>(n), static_cast<uint64_t>(rank),
                        ctx->GetStream()) != ACL_SUCCESS ||
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

};

REG_AUTO_MAPPING_OP(WhereLikeCustom);

}  // namespace ge
