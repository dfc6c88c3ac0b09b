// Helpers of the data-movement built-in ops: element sizes, ONNX dtype numbers, checked
// allocation and the strided copy.
#include "common/movement.h"

#include <cstring>
#include <limits>

#include "openatc/onnx_dtype.h"

namespace openatc_ops {

size_t ElemBytes(ge::DataType d) {
  switch (d) {
    case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_BOOL: return 1;
    case ge::DT_INT16: case ge::DT_UINT16: case ge::DT_FLOAT16: case ge::DT_BF16: return 2;
    case ge::DT_INT32: case ge::DT_UINT32: case ge::DT_FLOAT: return 4;
    case ge::DT_INT64: case ge::DT_UINT64: case ge::DT_DOUBLE: return 8;
    default: return 0;
  }
}

bool IsOnnxDtype(ge::DataType d) { return ElemBytes(d) != 0; }

ge::DataType DtypeFromOnnx(int64_t onnx_type) {
  ge::DataType d = ge::DT_UNDEFINED;
  return openatc::GeDataTypeFromOnnx(onnx_type, &d, /*whole_numbers_only=*/true) ? d : ge::DT_UNDEFINED;
}

std::vector<int64_t> ContiguousStrides(const Dims &d) {
  std::vector<int64_t> s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return s;
}

bool CheckedCount(const Dims &d, size_t elem_bytes, int64_t *count) {
  const int64_t limit = kMaxOutputBytes / static_cast<int64_t>(elem_bytes ? elem_bytes : 1);
  int64_t n = 1;
  bool zero = false;
  for (int64_t v : d) {
    if (v < 0) return false;
    if (v == 0) zero = true;
  }
  if (zero) {
    *count = 0;
    return true;
  }
  for (int64_t v : d) {
    if (n > limit / v) return false;
    n *= v;
  }
  *count = n;
  return true;
}

gert::Tensor *AllocChecked(gert::EagerOpExecutionContext *ctx, size_t index, const Dims &dims, ge::DataType dtype) {
  int64_t count = 0;
  if (!CheckedCount(dims, ElemBytes(dtype), &count)) {
    Fail(ctx, "output " + std::to_string(index) + " would have shape " + DimsToString(dims) +
                  ", which is negative or larger than the 4 GiB limit of built-in ops; check the shape inputs");
    return nullptr;
  }
  return AllocOutput(ctx, index, dims, dtype);
}

namespace {
template <typename U>
void StridedCopyT(const U *in, U *out, const Dims &dims, const std::vector<int64_t> &strides, int64_t offset) {
  const size_t rank = dims.size();
  if (rank == 0) {
    out[0] = in[offset];
    return;
  }
  for (int64_t v : dims)
    if (v == 0) return;
  const int64_t inner = dims[rank - 1];
  const int64_t istride = strides[rank - 1];
  std::vector<int64_t> idx(rank, 0);
  int64_t off = offset;
  int64_t o = 0;
  while (true) {
    if (istride == 1) {
      std::memcpy(out + o, in + off, static_cast<size_t>(inner) * sizeof(U));
    } else {
      const U *p = in + off;
      for (int64_t j = 0; j < inner; ++j) out[o + j] = p[j * istride];
    }
    o += inner;
    size_t d = rank - 1;
    while (d-- > 0) {
      off += strides[d];
      if (++idx[d] < dims[d]) break;
      off -= strides[d] * dims[d];
      idx[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}
}  // namespace

void StridedCopy(const void *in, void *out, size_t elem_bytes, const Dims &dims, const std::vector<int64_t> &strides,
                 int64_t offset) {
  switch (elem_bytes) {
    case 1: StridedCopyT(static_cast<const uint8_t *>(in), static_cast<uint8_t *>(out), dims, strides, offset); break;
    case 2: StridedCopyT(static_cast<const uint16_t *>(in), static_cast<uint16_t *>(out), dims, strides, offset); break;
    case 4: StridedCopyT(static_cast<const uint32_t *>(in), static_cast<uint32_t *>(out), dims, strides, offset); break;
    case 8: StridedCopyT(static_cast<const uint64_t *>(in), static_cast<uint64_t *>(out), dims, strides, offset); break;
    default: break;
  }
}

ge::graphStatus CopyToOutput(gert::EagerOpExecutionContext *ctx, size_t index, const gert::Tensor &in, const Dims &dims) {
  gert::Tensor *y = AllocChecked(ctx, index, dims, in.GetDataType());
  if (y == nullptr) return ge::GRAPH_FAILED;
  const size_t bytes = static_cast<size_t>(in.GetShapeSize()) * ElemBytes(in.GetDataType());
  if (bytes != 0) std::memcpy(y->GetAddr(), in.GetAddr(), bytes);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Input0AsOutput0(gert::EagerOpExecutionContext *ctx, const Dims &dims) {
  const gert::Tensor *x = ctx->GetInputTensor(0), *y = ctx->GetOutputTensor(0);
  if (x == nullptr) return Fail(ctx, "input 0 expected");
  if (y != nullptr && y->GetAddr() == nullptr) {
    if (gert::Tensor *view = ctx->MakeOutputRefInput(0, 0)) {
      view->MutableStorageShape() = ToShape(dims);
      view->MutableOriginShape() = view->GetStorageShape();
      view->MutableFormat() = {ge::FORMAT_ND, ge::FORMAT_ND, {}};
      return ge::GRAPH_SUCCESS;
    }
  }
  return CopyToOutput(ctx, 0, *x, dims);
}

ge::graphStatus SameDtypeAsInput0(gert::InferDataTypeContext *ctx) {
  const ge::DataType d = ctx->GetInputDataType(0);
  if (!IsOnnxDtype(d)) return Fail(ctx, "unsupported input dtype " + DtypeName(d));
  for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i)
    if (ctx->SetOutputDataType(i, d) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  return ge::GRAPH_SUCCESS;
}

bool KnownInts(const gert::InferShapeContext *ctx, size_t index, std::vector<int64_t> *out) {
  return ReadInts(ctx->GetInputTensor(index), out);
}

Dims TensorDims(const gert::Tensor &t) { return ToDims(t.GetStorageShape()); }

std::string DtypeName(ge::DataType d) {
  if (d == openatc::kDtUint4) return "uint4";
  if (d == openatc::kDtFloat8E4M3FNUZ) return "float8e4m3fnuz";
  if (d == openatc::kDtFloat8E5M2FNUZ) return "float8e5m2fnuz";
  switch (d) {
    case ge::DT_FLOAT: return "float32";
    case ge::DT_FLOAT16: return "float16";
    case ge::DT_BF16: return "bfloat16";
    case ge::DT_DOUBLE: return "float64";
    case ge::DT_INT8: return "int8";
    case ge::DT_INT16: return "int16";
    case ge::DT_INT32: return "int32";
    case ge::DT_INT64: return "int64";
    case ge::DT_UINT8: return "uint8";
    case ge::DT_UINT16: return "uint16";
    case ge::DT_UINT32: return "uint32";
    case ge::DT_UINT64: return "uint64";
    case ge::DT_BOOL: return "bool";
    case ge::DT_STRING: return "string";
    case ge::DT_INT4: return "int4";
    case ge::DT_FLOAT4_E2M1: return "float4e2m1";
    case ge::DT_FLOAT8_E4M3FN: return "float8e4m3fn";
    case ge::DT_FLOAT8_E5M2: return "float8e5m2";
    case ge::DT_FLOAT8_E8M0: return "float8e8m0";
    default: return "dtype " + std::to_string(static_cast<int>(d));
  }
}

}  // namespace openatc_ops
