// Typed reads of tensor components (float16/bfloat16 through the exact converters).
#include "element.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "openatc/common/dtype.h"
#include "openatc/minifloat.h"
#include "openatc/onnx_dtype.h"
#include "openatc/tensor_io/float16.h"

namespace openatc {
namespace tensor_io {
namespace {
template <typename T>
T Load(const HostTensor &t, size_t i) {
  T v;
  std::memcpy(&v, t.data.data() + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

ValueKind KindOf(ge::DataType dtype) {
  if (dtype == kDtUint4) return ValueKind::kUnsigned;
  if (dtype == kDtFloat8E4M3FNUZ || dtype == kDtFloat8E5M2FNUZ) return ValueKind::kFloat;
  switch (dtype) {
    case ge::DT_FLOAT: case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_DOUBLE:
    case ge::DT_COMPLEX64: case ge::DT_COMPLEX128:
    case ge::DT_FLOAT8_E4M3FN: case ge::DT_FLOAT8_E5M2: case ge::DT_FLOAT8_E8M0: case ge::DT_FLOAT4_E2M1:
      return ValueKind::kFloat;
    case ge::DT_INT4:
    case ge::DT_INT8: case ge::DT_INT16: case ge::DT_INT32: case ge::DT_INT64:
      return ValueKind::kSigned;
    case ge::DT_UINT8: case ge::DT_UINT16: case ge::DT_UINT32: case ge::DT_UINT64:
      return ValueKind::kUnsigned;
    case ge::DT_BOOL:
      return ValueKind::kBool;
    default:
      return ValueKind::kOther;
  }
}

size_t ComponentSize(ge::DataType dtype) {
  if (dtype == kDtFloat8E4M3FNUZ || dtype == kDtFloat8E5M2FNUZ) return 1;
  switch (dtype) {
    case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_BOOL: return 1;
    case ge::DT_FLOAT8_E4M3FN: case ge::DT_FLOAT8_E5M2: case ge::DT_FLOAT8_E8M0: return 1;
    case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_INT16: case ge::DT_UINT16: return 2;
    case ge::DT_FLOAT: case ge::DT_INT32: case ge::DT_UINT32: case ge::DT_COMPLEX64: return 4;
    case ge::DT_DOUBLE: case ge::DT_INT64: case ge::DT_UINT64: case ge::DT_COMPLEX128: return 8;
    default: return 0;
  }
}

size_t ComponentCount(const HostTensor &t) {
  if (Is4BitDataType(t.dtype)) {  // packed: the shape's element count (data holds (n + 1) / 2 bytes)
    const int64_t n = ShapeElementCount(t.shape);
    return n < 0 || static_cast<uint64_t>(PackedNibbleBytes(n)) > t.data.size() ? 0 : static_cast<size_t>(n);
  }
  size_t s = ComponentSize(t.dtype);
  return s == 0 ? 0 : t.data.size() / s;
}

double ComponentAsDouble(const HostTensor &t, size_t i) {
  if (Is4BitDataType(t.dtype)) {
    const uint8_t b = GetNibble(t.data.data(), static_cast<int64_t>(i));
    if (t.dtype == ge::DT_INT4) return Int4Value(b);
    if (t.dtype == kDtUint4) return b;
    return MiniFloatToFloat(b, kE2M1);
  }
  if (t.dtype == kDtFloat8E4M3FNUZ) return MiniFloatToFloat(Load<uint8_t>(t, i), kE4M3FNUZ);
  if (t.dtype == kDtFloat8E5M2FNUZ) return MiniFloatToFloat(Load<uint8_t>(t, i), kE5M2FNUZ);
  switch (t.dtype) {
    case ge::DT_FLOAT: case ge::DT_COMPLEX64: return Load<float>(t, i);
    case ge::DT_DOUBLE: case ge::DT_COMPLEX128: return Load<double>(t, i);
    case ge::DT_FLOAT16: return HalfToFloat(Load<uint16_t>(t, i));
    case ge::DT_BF16: return Bf16ToFloat(Load<uint16_t>(t, i));
    case ge::DT_FLOAT8_E4M3FN: return MiniFloatToFloat(Load<uint8_t>(t, i), kE4M3FN);
    case ge::DT_FLOAT8_E5M2: return MiniFloatToFloat(Load<uint8_t>(t, i), kE5M2);
    case ge::DT_FLOAT8_E8M0: return E8M0ToFloat(Load<uint8_t>(t, i));
    case ge::DT_INT8: return Load<int8_t>(t, i);
    case ge::DT_INT16: return Load<int16_t>(t, i);
    case ge::DT_INT32: return Load<int32_t>(t, i);
    case ge::DT_INT64: return static_cast<double>(Load<int64_t>(t, i));
    case ge::DT_UINT8: return Load<uint8_t>(t, i);
    case ge::DT_UINT16: return Load<uint16_t>(t, i);
    case ge::DT_UINT32: return Load<uint32_t>(t, i);
    case ge::DT_UINT64: return static_cast<double>(Load<uint64_t>(t, i));
    case ge::DT_BOOL: return Load<uint8_t>(t, i) != 0 ? 1.0 : 0.0;
    default: return 0.0;
  }
}

std::string ComponentText(const HostTensor &t, size_t i, const char *float_format, const char *double_format) {
  char buf[64];
  switch (KindOf(t.dtype)) {
    case ValueKind::kFloat: {
      bool wide = (t.dtype == ge::DT_DOUBLE || t.dtype == ge::DT_COMPLEX128);
      std::snprintf(buf, sizeof buf, wide ? double_format : float_format, ComponentAsDouble(t, i));
      return buf;
    }
    case ValueKind::kSigned: {
      int64_t v = 0;
      if (t.dtype == ge::DT_INT64) v = Load<int64_t>(t, i);
      else v = static_cast<int64_t>(ComponentAsDouble(t, i));
      std::snprintf(buf, sizeof buf, "%" PRId64, v);
      return buf;
    }
    case ValueKind::kUnsigned: {
      uint64_t v = 0;
      if (t.dtype == ge::DT_UINT64) v = Load<uint64_t>(t, i);
      else v = static_cast<uint64_t>(ComponentAsDouble(t, i));
      std::snprintf(buf, sizeof buf, "%" PRIu64, v);
      return buf;
    }
    case ValueKind::kBool:
      return ComponentAsDouble(t, i) != 0 ? "1" : "0";
    case ValueKind::kOther:
      break;
  }
  return "?";
}

}  // namespace tensor_io
}  // namespace openatc
