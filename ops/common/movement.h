/**
 * @file ops/common/movement.h
 * Helpers of the data-movement, shape and constant built-in ops (Reshape, Transpose, Slice,
 * Pad, Cast, ...): dtype-agnostic element copies (by element size), checked output allocation,
 * the strided copy every view-like op reduces to, and ONNX dtype numbers.
 *
 * Data movement never interprets values: every dtype with a 1, 2, 4 or 8-byte element (float,
 * float16, bfloat16, double, int8..int64, uint8..uint64, bool) is copied bit for bit.
 */
#ifndef OPENATC_OPS_COMMON_MOVEMENT_H_
#define OPENATC_OPS_COMMON_MOVEMENT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops {

/// Largest output (bytes) a built-in data-movement op allocates: 4 GiB. A bigger request (from a
/// bad shape/repeats/pads input) fails with a message instead of exhausting memory.
constexpr int64_t kMaxOutputBytes = int64_t{1} << 32;

/// Bytes per element for the dtypes data movement supports (1, 2, 4 or 8); 0 for any other
/// (string, complex, sub-byte, quantized types).
size_t ElemBytes(ge::DataType d);

/// True for the dtypes ONNX tensors map to (the dtype list of the ONNX front end,
/// atc/frontend_onnx/include/openatc/frontend/onnx_reader.h): float, float16, bfloat16, double,
/// int8..int64, uint8..uint64, bool.
bool IsOnnxDtype(ge::DataType d);

/// ge::DataType of an ONNX TensorProto.DataType number (onnx.proto: 1 FLOAT ... 16 BFLOAT16);
/// DT_UNDEFINED for STRING (8), COMPLEX64/128 (14/15) and unknown numbers.
ge::DataType DtypeFromOnnx(int64_t onnx_type);

/// Row-major strides (elements) of `d`.
std::vector<int64_t> ContiguousStrides(const Dims &d);

/// Element count of `d` (all dims >= 0) with overflow checks; false when a dim is negative or
/// the count times `elem_bytes` exceeds kMaxOutputBytes.
bool CheckedCount(const Dims &d, size_t elem_bytes, int64_t *count);

/// AllocOutput after CheckedCount: fails (message, nullptr) on a negative dim or an output above
/// kMaxOutputBytes, naming the output index and its shape.
gert::Tensor *AllocChecked(gert::EagerOpExecutionContext *ctx, size_t index, const Dims &dims, ge::DataType dtype);

/// out[i] = in[offset + sum_k idx_k(i) * strides[k]] for every index i of `dims` in row-major
/// order; elements of `elem_bytes` (1, 2, 4 or 8) bytes; strides and offset in elements (strides
/// may be 0 or negative). The caller guarantees every read is inside `in`.
void StridedCopy(const void *in, void *out, size_t elem_bytes, const Dims &dims, const std::vector<int64_t> &strides,
                 int64_t offset);

/// Allocates output `index` with `dims` and the dtype of `in`, and copies all of `in`'s bytes
/// into it (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout). `dims` must hold as many
/// elements as `in`.
ge::graphStatus CopyToOutput(gert::EagerOpExecutionContext *ctx, size_t index, const gert::Tensor &in, const Dims &dims);

/// Output 0 holds input 0's elements as `dims` (Reshape, Flatten, Squeeze, Unsqueeze, Identity):
/// input 0's bytes themselves (MakeOutputRefInput, no copy) when output 0 has no memory yet, else
/// a copy into the memory it has (CopyToOutput). An output without memory is one of a model
/// without a memory plan (atc plans every output of a static graph, and a dynamic graph not at
/// all), so the input's bytes are never arena memory that a later tensor takes over.
ge::graphStatus Input0AsOutput0(gert::EagerOpExecutionContext *ctx, const Dims &dims);

/// InferDataType for ops whose outputs 0..n-1 all take input 0's dtype, which must be an ONNX
/// dtype (IsOnnxDtype); fails naming the dtype otherwise.
ge::graphStatus SameDtypeAsInput0(gert::InferDataTypeContext *ctx);

/// Values of integer input `index` at InferShape time: true only when it is a Const (data known).
bool KnownInts(const gert::InferShapeContext *ctx, size_t index, std::vector<int64_t> *out);

/// Dims of a gert::Tensor's storage shape (what Execute sees).
Dims TensorDims(const gert::Tensor &t);

/// "int64" style name of a dtype for messages ("dtype 27" for unknown ones).
std::string DtypeName(ge::DataType d);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_MOVEMENT_H_
