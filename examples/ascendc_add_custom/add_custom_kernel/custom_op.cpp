// AddCustom, the host port of the GE side of GE's ascendc_add_custom sample: an EagerExecuteOp
// whose Execute allocates z and launches the add_custom kernel compiled into this same .so
// (launch_add_custom, the sample's <<<num_block, nullptr, stream>>> wrapper), plus the legacy
// IMPL_OP(AddCustom).InferShape hook doing broadcast shape inference, and the REG_OP prototype.
// There is no ShapeInferOp: OpenATC's compiler and runtime call the IMPL_OP hook instead, and
// take z's dtype from the prototype's symbol T (= the dtype of x).
//
// Differences from the sample, on purpose:
//  - totalLength is GetShapeSize() (elements). The sample passes GetSize() (bytes), which the
//    kernel reads as an element count, so it would touch twice as many fp16 elements.
//  - z gets the broadcast shape of x and y (the sample allocates x's shape), and y (or x) may
//    be broadcast along leading dims, e.g. [8, 2048] + [1, 2048]; the kernel reads each input
//    modulo its length.
//  - Only fp16 runs (the sample's test dtype); other dtypes of T fail with a message.
//  - The Ascend C tiling headers the sample includes (tiling/tiling_api.h, ...) are not used by it
//    and are not part of OpenATC's SDK, so they are not included here; graph/operator_reg.h
//    (REG_OP), which the sample gets through one of GE's headers, is included explicitly.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "acl/acl_rt.h"
#include "add_custom_kernel.h"
#include "graph/custom_op.h"
#include "graph/operator_reg.h"
#include "graph/tensor.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "tiling/matrix/matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace ge;

namespace {
constexpr int64_t kElementsPerBlock = 1024;  // one block per 1024 elements, as the sample's grid

// NumPy/PyTorch broadcasting of two shapes (right-aligned; each dim pair equal or one of them 1).
// False when they do not broadcast.
bool BroadcastShape(const gert::Shape &a, const gert::Shape &b, gert::Shape *out) {
  const size_t rank = std::max(a.GetDimNum(), b.GetDimNum());
  out->SetDimNum(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.GetDimNum() ? 1 : a.GetDim(i - (rank - a.GetDimNum()));
    const int64_t db = i < rank - b.GetDimNum() ? 1 : b.GetDim(i - (rank - b.GetDimNum()));
    if (da != db && da != 1 && db != 1) return false;
    out->SetDim(i, da == 1 ? db : da);
  }
  return true;
}

// True when reading `in` at i % size(in) is broadcasting to `out`: `in` without its leading 1s
// equals the trailing dims of `out`.
bool ModuloBroadcasts(const gert::Shape &in, const gert::Shape &out) {
  size_t first = 0;
  while (first < in.GetDimNum() && in.GetDim(first) == 1) ++first;
  const size_t kept = in.GetDimNum() - first;
  if (kept > out.GetDimNum()) return false;
  for (size_t k = 0; k < kept; ++k)
    if (in.GetDim(first + k) != out.GetDim(out.GetDimNum() - kept + k)) return false;
  return true;
}

}  // namespace

class AddCustom : public EagerExecuteOp {
 public:
  graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *input_x = ctx->GetInputTensor(0);
    const gert::Tensor *input_y = ctx->GetInputTensor(1);
    if (input_x == nullptr || input_y == nullptr) {
      std::fprintf(stderr, "[ERROR] AddCustom: an input tensor is missing\n");
      return GRAPH_FAILED;
    }
    if (input_x->GetDataType() != DT_FLOAT16 || input_y->GetDataType() != DT_FLOAT16) {
      std::fprintf(stderr, "[ERROR] AddCustom: the host kernel adds float16 tensors only, got %s and %s\n",
                   TypeUtils::DataTypeToSerialString(input_x->GetDataType()).c_str(),
                   TypeUtils::DataTypeToSerialString(input_y->GetDataType()).c_str());
      return GRAPH_FAILED;
    }
    const gert::Shape &xs = input_x->GetStorageShape();
    const gert::Shape &ys = input_y->GetStorageShape();
    gert::Shape zs;
    if (!BroadcastShape(xs, ys, &zs) || !ModuloBroadcasts(xs, zs) || !ModuloBroadcasts(ys, zs)) {
      std::fprintf(stderr,
                   "[ERROR] AddCustom: x and y must be equal or one must broadcast along leading dims "
                   "(e.g. [8, 2048] + [1, 2048])\n");
      return GRAPH_FAILED;
    }
    gert::StorageShape z_shape;
    z_shape.MutableOriginShape() = zs;
    z_shape.MutableStorageShape() = zs;
    gert::Tensor *output_z = ctx->MallocOutputTensor(0, z_shape, input_x->GetFormat(), input_x->GetDataType());
    if (output_z == nullptr) {
      std::fprintf(stderr, "[ERROR] AddCustom: cannot allocate z\n");
      return GRAPH_FAILED;
    }
    const int64_t n_elements = zs.GetShapeSize();
    if (n_elements <= 0 || n_elements > UINT32_MAX) {
      std::fprintf(stderr, "[ERROR] AddCustom: z has %lld elements; the kernel takes 1..2^32-1\n",
                   static_cast<long long>(n_elements));
      return GRAPH_FAILED;
    }
    const uint32_t num_block = static_cast<uint32_t>((n_elements + kElementsPerBlock - 1) / kElementsPerBlock);
    const int ret = launch_add_custom(
        static_cast<uint8_t *>(const_cast<void *>(input_x->GetAddr())),
        static_cast<uint8_t *>(const_cast<void *>(input_y->GetAddr())), static_cast<uint8_t *>(output_z->GetAddr()),
        static_cast<uint32_t>(n_elements), num_block, ctx->GetStream(), static_cast<uint32_t>(input_x->GetShapeSize()),
        static_cast<uint32_t>(input_y->GetShapeSize()));
    if (ret != ACL_SUCCESS) {
      std::fprintf(stderr, "[ERROR] AddCustom: launch_add_custom failed with ACL error %d\n", ret);
      return GRAPH_FAILED;
    }
    return GRAPH_SUCCESS;
  }
};

REG_OP(AddCustom)
    .INPUT(x, "T")
    .INPUT(y, "T")
    .OUTPUT(z, "T")
    .DATATYPE(T, TensorType({DT_BOOL, DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_BF16, DT_INT16, DT_INT8, DT_UINT8,
                             DT_DOUBLE, DT_COMPLEX128, DT_COMPLEX64, DT_STRING, DT_COMPLEX32}))
    .OP_END_FACTORY_REG(AddCustom);

// Broadcast shape inference (PyTorch semantics): right-aligned dims, each pair equal or 1.
graphStatus InferShapeForAdd(gert::InferShapeContext *context) {
  const gert::Shape *x = context->GetInputShape(0);
  const gert::Shape *y = context->GetInputShape(1);
  gert::Shape *z = context->GetOutputShape(0);
  if (x == nullptr || y == nullptr || z == nullptr) return GRAPH_FAILED;
  if (!BroadcastShape(*x, *y, z)) {
    std::fprintf(stderr, "[ERROR] AddCustom: the shapes of x and y do not broadcast\n");
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

IMPL_OP(AddCustom).InferShape(InferShapeForAdd);

REG_AUTO_MAPPING_OP(AddCustom);
