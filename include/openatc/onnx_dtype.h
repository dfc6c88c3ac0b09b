/**
 * @file openatc/onnx_dtype.h
 * The one table of ONNX TensorProto.DataType numbers and the ge::DataType each maps to (ONNX's
 * onnx.proto, enum TensorProto.DataType). Header-only, so the front end, the tensor reader and
 * the built-in operators (which see only include/) share it. Which of these types a component
 * supports is that component's decision; the numbers live here.
 */
#ifndef OPENATC_ONNX_DTYPE_H_
#define OPENATC_ONNX_DTYPE_H_

#include <stdint.h>

#include "graph/types.h"
#include "openatc/private_dtype.h"

namespace openatc {

struct OnnxGeDataType {
  int32_t onnx;        ///< TensorProto.DataType value
  ge::DataType ge;     ///< the GE type with the same element encoding
  bool whole_number;   ///< an element is 1, 2, 4 or 8 bytes of a real number or bool
};

/// Every ONNX element type that has a GE equivalent. STRING (8) has none here; UINT4 (21) and the
/// FNUZ float8 types (18, 20) map to OpenATC-private values (openatc/private_dtype.h). INT4 (22),
/// UINT4 and FLOAT4E2M1 (23) are packed two elements per byte, low nibble first, as ONNX stores them.
inline constexpr OnnxGeDataType kOnnxGeDataTypes[] = {
    {1, ge::DT_FLOAT, true},       {2, ge::DT_UINT8, true},          {3, ge::DT_INT8, true},
    {4, ge::DT_UINT16, true},      {5, ge::DT_INT16, true},          {6, ge::DT_INT32, true},
    {7, ge::DT_INT64, true},       {9, ge::DT_BOOL, true},           {10, ge::DT_FLOAT16, true},
    {11, ge::DT_DOUBLE, true},     {12, ge::DT_UINT32, true},        {13, ge::DT_UINT64, true},
    {14, ge::DT_COMPLEX64, false}, {15, ge::DT_COMPLEX128, false},   {16, ge::DT_BF16, true},
    {17, ge::DT_FLOAT8_E4M3FN, false}, {19, ge::DT_FLOAT8_E5M2, false}, {24, ge::DT_FLOAT8_E8M0, false},
    {18, kDtFloat8E4M3FNUZ, false}, {20, kDtFloat8E5M2FNUZ, false}, {21, kDtUint4, false},
    {22, ge::DT_INT4, false},       {23, ge::DT_FLOAT4_E2M1, false},
};

/// The one-byte float8 types (openatc/minifloat.h converts them): storage types the compiler
/// carries and Cast/CastLike convert, though no arithmetic operator takes them.
inline bool IsFloat8DataType(ge::DataType d) {
  return d == ge::DT_FLOAT8_E4M3FN || d == ge::DT_FLOAT8_E5M2 || d == ge::DT_FLOAT8_E8M0 ||
         d == kDtFloat8E4M3FNUZ || d == kDtFloat8E5M2FNUZ;
}

/// The packed 4-bit types INT4, UINT4 and FLOAT4E2M1: two elements per byte, low nibble first;
/// an odd element count leaves the last byte's high nibble 0. Storage types, like the float8 ones.
inline bool Is4BitDataType(ge::DataType d) {
  return d == ge::DT_INT4 || d == kDtUint4 || d == ge::DT_FLOAT4_E2M1;
}

/// A narrow storage type (float8 or packed 4-bit) that Cast, CastLike and Q/DQ convert.
inline bool IsNarrowDataType(ge::DataType d) { return IsFloat8DataType(d) || Is4BitDataType(d); }

/// The GE type of ONNX type `onnx_type`; false when the table has none. With
/// `whole_numbers_only`, complex types are refused (what the compiler and the built-in operators
/// handle); the float8 and 4-bit types pass either way.
inline bool GeDataTypeFromOnnx(int64_t onnx_type, ge::DataType *out, bool whole_numbers_only) {
  for (const OnnxGeDataType &e : kOnnxGeDataTypes) {
    if (e.onnx == onnx_type && (e.whole_number || !whole_numbers_only || IsNarrowDataType(e.ge))) {
      *out = e.ge;
      return true;
    }
  }
  return false;
}

}  // namespace openatc

#endif  // OPENATC_ONNX_DTYPE_H_
