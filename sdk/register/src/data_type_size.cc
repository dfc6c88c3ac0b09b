// ge::GetSizeByDataType / ge::GetSizeInBytes (graph/types.h), values per
// docs/custom-op-lifecycle.md §6-§7: bytes per element, 1000 + bits for sub-byte types, -1 for
// strings and unknown types; GetSizeInBytes counts strings as 16 B and rounds sub-byte up.
#include "sdk_visibility.h"

#include <cstdint>

#include "utils/extern_math_util.h"

namespace ge {
namespace {
// Indexed by the DataType value 0..42 (DT_MAX = 43 and beyond are unknown).
constexpr int kSizeTable[] = {
    4,     // 0 DT_FLOAT
    2,     // 1 DT_FLOAT16
    1,     // 2 DT_INT8
    4,     // 3 DT_INT32
    1,     // 4 DT_UINT8
    -1,    // 5 reserved
    2,     // 6 DT_INT16
    2,     // 7 DT_UINT16
    4,     // 8 DT_UINT32
    8,     // 9 DT_INT64
    8,     // 10 DT_UINT64
    8,     // 11 DT_DOUBLE
    1,     // 12 DT_BOOL
    -1,    // 13 DT_STRING
    1,     // 14 DT_DUAL_SUB_INT8
    1,     // 15 DT_DUAL_SUB_UINT8
    8,     // 16 DT_COMPLEX64
    16,    // 17 DT_COMPLEX128
    1,     // 18 DT_QINT8
    2,     // 19 DT_QINT16
    4,     // 20 DT_QINT32
    1,     // 21 DT_QUINT8
    2,     // 22 DT_QUINT16
    8,     // 23 DT_RESOURCE
    -1,    // 24 DT_STRING_REF
    5,     // 25 DT_DUAL
    8,     // 26 DT_VARIANT
    2,     // 27 DT_BF16
    -1,    // 28 DT_UNDEFINED
    1004,  // 29 DT_INT4
    1001,  // 30 DT_UINT1
    1002,  // 31 DT_INT2
    1002,  // 32 DT_UINT2
    4,     // 33 DT_COMPLEX32
    1,     // 34 DT_HIFLOAT8
    1,     // 35 DT_FLOAT8_E5M2
    1,     // 36 DT_FLOAT8_E4M3FN
    1,     // 37 DT_FLOAT8_E8M0
    1006,  // 38 DT_FLOAT6_E3M2
    1006,  // 39 DT_FLOAT6_E2M3
    1004,  // 40 DT_FLOAT4_E2M1
    1004,  // 41 DT_FLOAT4_E1M2
    1004,  // 42 DT_HIFLOAT4
};
constexpr int64_t kStringElementBytes = 16;
constexpr int64_t kBitsPerByte = 8;
}  // namespace

int GetSizeByDataType(DataType data_type) {
  const int v = static_cast<int>(data_type);
  if (v < 0 || v >= static_cast<int>(sizeof(kSizeTable) / sizeof(kSizeTable[0]))) return -1;
  return kSizeTable[v];
}

int64_t GetSizeInBytes(int64_t element_count, DataType data_type) {
  if (element_count < 0) return -1;
  int64_t bytes = 0;
  if (data_type == DT_STRING || data_type == DT_STRING_REF) {
    return MulOverflow(element_count, kStringElementBytes, bytes) ? -1 : bytes;
  }
  const int size = GetSizeByDataType(data_type);
  if (size <= 0) return -1;
  if (size > kDataTypeSizeBitOffset) {
    const int64_t bits_per_element = size - kDataTypeSizeBitOffset;
    int64_t bits = 0;
    if (MulOverflow(element_count, bits_per_element, bits)) return -1;
    return bits / kBitsPerByte + ((bits % kBitsPerByte) != 0 ? 1 : 0);
  }
  return MulOverflow(element_count, static_cast<int64_t>(size), bytes) ? -1 : bytes;
}

}  // namespace ge
