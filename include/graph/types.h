/**
 * @file graph/types.h
 * ge::DataType and ge::Format with GE's numeric values (metadef `graph/types.h`), ge::Placement,
 * and size helpers. Both enums are plain (unscoped) as in GE, so `ge::DT_FLOAT` and `DT_FLOAT`
 * inside namespace ge both work.
 */
#ifndef OPENATC_GRAPH_TYPES_H_
#define OPENATC_GRAPH_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/c_types.h"
#include "graph/ascend_string.h"

namespace ge {

using char_t = char;
using float32_t = float;
using float64_t = double;

/// Tensor element type. Values are GE's C++ numbering (not the ge_ir.proto numbering).
enum DataType {
  DT_FLOAT = ::C_DT_FLOAT,
  DT_FLOAT16 = ::C_DT_FLOAT16,
  DT_INT8 = ::C_DT_INT8,
  DT_INT32 = ::C_DT_INT32,
  DT_UINT8 = ::C_DT_UINT8,
  DT_INT16 = ::C_DT_INT16,
  DT_UINT16 = ::C_DT_UINT16,
  DT_UINT32 = ::C_DT_UINT32,
  DT_INT64 = ::C_DT_INT64,
  DT_UINT64 = ::C_DT_UINT64,
  DT_DOUBLE = ::C_DT_DOUBLE,
  DT_BOOL = ::C_DT_BOOL,
  DT_STRING = ::C_DT_STRING,
  DT_DUAL_SUB_INT8 = ::C_DT_DUAL_SUB_INT8,
  DT_DUAL_SUB_UINT8 = ::C_DT_DUAL_SUB_UINT8,
  DT_COMPLEX64 = ::C_DT_COMPLEX64,
  DT_COMPLEX128 = ::C_DT_COMPLEX128,
  DT_QINT8 = ::C_DT_QINT8,
  DT_QINT16 = ::C_DT_QINT16,
  DT_QINT32 = ::C_DT_QINT32,
  DT_QUINT8 = ::C_DT_QUINT8,
  DT_QUINT16 = ::C_DT_QUINT16,
  DT_RESOURCE = ::C_DT_RESOURCE,
  DT_STRING_REF = ::C_DT_STRING_REF,
  DT_DUAL = ::C_DT_DUAL,
  DT_VARIANT = ::C_DT_VARIANT,
  DT_BF16 = ::C_DT_BF16,
  DT_UNDEFINED = ::C_DT_UNDEFINED,
  DT_INT4 = ::C_DT_INT4,
  DT_UINT1 = ::C_DT_UINT1,
  DT_INT2 = ::C_DT_INT2,
  DT_UINT2 = ::C_DT_UINT2,
  DT_COMPLEX32 = ::C_DT_COMPLEX32,
  DT_HIFLOAT8 = ::C_DT_HIFLOAT8,
  DT_FLOAT8_E5M2 = ::C_DT_FLOAT8_E5M2,
  DT_FLOAT8_E4M3FN = ::C_DT_FLOAT8_E4M3FN,
  DT_FLOAT8_E8M0 = ::C_DT_FLOAT8_E8M0,
  DT_FLOAT6_E3M2 = ::C_DT_FLOAT6_E3M2,
  DT_FLOAT6_E2M3 = ::C_DT_FLOAT6_E2M3,
  DT_FLOAT4_E2M1 = ::C_DT_FLOAT4_E2M1,
  DT_FLOAT4_E1M2 = ::C_DT_FLOAT4_E1M2,
  DT_HIFLOAT4 = ::C_DT_HIFLOAT4,
  DT_MAX = ::C_DT_MAX,
};

/// Tensor layout. A stored value may pack a sub-format in bits 8-23 and a C0 code in bits 24-27.
enum Format {
  FORMAT_NCHW = ::C_FORMAT_NCHW,
  FORMAT_NHWC = ::C_FORMAT_NHWC,
  FORMAT_ND = ::C_FORMAT_ND,
  FORMAT_NC1HWC0 = ::C_FORMAT_NC1HWC0,
  FORMAT_FRACTAL_Z = ::C_FORMAT_FRACTAL_Z,
  FORMAT_NC1C0HWPAD = ::C_FORMAT_NC1C0HWPAD,
  FORMAT_NHWC1C0 = ::C_FORMAT_NHWC1C0,
  FORMAT_FSR_NCHW = ::C_FORMAT_FSR_NCHW,
  FORMAT_FRACTAL_DECONV = ::C_FORMAT_FRACTAL_DECONV,
  FORMAT_C1HWNC0 = ::C_FORMAT_C1HWNC0,
  FORMAT_FRACTAL_DECONV_TRANSPOSE = ::C_FORMAT_FRACTAL_DECONV_TRANSPOSE,
  FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = ::C_FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS,
  FORMAT_NC1HWC0_C04 = ::C_FORMAT_NC1HWC0_C04,
  FORMAT_FRACTAL_Z_C04 = ::C_FORMAT_FRACTAL_Z_C04,
  FORMAT_CHWN = ::C_FORMAT_CHWN,
  FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = ::C_FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS,
  FORMAT_HWCN = ::C_FORMAT_HWCN,
  FORMAT_NC1KHKWHWC0 = ::C_FORMAT_NC1KHKWHWC0,
  FORMAT_BN_WEIGHT = ::C_FORMAT_BN_WEIGHT,
  FORMAT_FILTER_HWCK = ::C_FORMAT_FILTER_HWCK,
  FORMAT_HASHTABLE_LOOKUP_LOOKUPS = ::C_FORMAT_HASHTABLE_LOOKUP_LOOKUPS,
  FORMAT_HASHTABLE_LOOKUP_KEYS = ::C_FORMAT_HASHTABLE_LOOKUP_KEYS,
  FORMAT_HASHTABLE_LOOKUP_VALUE = ::C_FORMAT_HASHTABLE_LOOKUP_VALUE,
  FORMAT_HASHTABLE_LOOKUP_OUTPUT = ::C_FORMAT_HASHTABLE_LOOKUP_OUTPUT,
  FORMAT_HASHTABLE_LOOKUP_HITS = ::C_FORMAT_HASHTABLE_LOOKUP_HITS,
  FORMAT_C1HWNCoC0 = ::C_FORMAT_C1HWNCoC0,
  FORMAT_MD = ::C_FORMAT_MD,
  FORMAT_NDHWC = ::C_FORMAT_NDHWC,
  FORMAT_FRACTAL_ZZ = ::C_FORMAT_FRACTAL_ZZ,
  FORMAT_FRACTAL_NZ = ::C_FORMAT_FRACTAL_NZ,
  FORMAT_NCDHW = ::C_FORMAT_NCDHW,
  FORMAT_DHWCN = ::C_FORMAT_DHWCN,
  FORMAT_NDC1HWC0 = ::C_FORMAT_NDC1HWC0,
  FORMAT_FRACTAL_Z_3D = ::C_FORMAT_FRACTAL_Z_3D,
  FORMAT_CN = ::C_FORMAT_CN,
  FORMAT_NC = ::C_FORMAT_NC,
  FORMAT_DHWNC = ::C_FORMAT_DHWNC,
  FORMAT_FRACTAL_Z_3D_TRANSPOSE = ::C_FORMAT_FRACTAL_Z_3D_TRANSPOSE,
  FORMAT_FRACTAL_ZN_LSTM = ::C_FORMAT_FRACTAL_ZN_LSTM,
  FORMAT_FRACTAL_Z_G = ::C_FORMAT_FRACTAL_Z_G,
  FORMAT_RESERVED = ::C_FORMAT_RESERVED,
  FORMAT_ALL = ::C_FORMAT_ALL,
  FORMAT_NULL = ::C_FORMAT_NULL,
  FORMAT_ND_RNN_BIAS = ::C_FORMAT_ND_RNN_BIAS,
  FORMAT_FRACTAL_ZN_RNN = ::C_FORMAT_FRACTAL_ZN_RNN,
  FORMAT_NYUV = ::C_FORMAT_NYUV,
  FORMAT_NYUV_A = ::C_FORMAT_NYUV_A,
  FORMAT_NCL = ::C_FORMAT_NCL,
  FORMAT_FRACTAL_Z_WINO = ::C_FORMAT_FRACTAL_Z_WINO,
  FORMAT_C1HWC0 = ::C_FORMAT_C1HWC0,
  FORMAT_FRACTAL_NZ_C0_16 = ::C_FORMAT_FRACTAL_NZ_C0_16,
  FORMAT_FRACTAL_NZ_C0_32 = ::C_FORMAT_FRACTAL_NZ_C0_32,
  FORMAT_FRACTAL_NZ_C0_2 = ::C_FORMAT_FRACTAL_NZ_C0_2,
  FORMAT_FRACTAL_NZ_C0_4 = ::C_FORMAT_FRACTAL_NZ_C0_4,
  FORMAT_FRACTAL_NZ_C0_8 = ::C_FORMAT_FRACTAL_NZ_C0_8,
  FORMAT_END = ::C_FORMAT_END,
  FORMAT_MAX = ::C_FORMAT_MAX,
};

/// Where a tensor or args block lives (GE `graph/types.h`). Unscoped on purpose: samples spell
/// both `ge::kPlacementHost` and `gert::Placement::kPlacementHost`.
enum Placement { kPlacementHost = 0, kPlacementDevice = 1, kPlacementEnd };

/// Bits-per-element values are stored as 1000 + bits (GE `kDataTypeSizeBitOffset`).
constexpr int32_t kDataTypeSizeBitOffset = 1000;

/// Primary format of a possibly packed format value (GE `GetPrimaryFormat`).
inline int32_t GetPrimaryFormat(int32_t format) { return format & 0xff; }
inline int32_t GetSubFormat(int32_t format) { return (format & 0xffff00) >> 8; }
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }

/// Bytes per element (GE `GetSizeByDataType`): -1 for strings and unknown types; 1000 + bits for
/// sub-byte types.
int GetSizeByDataType(DataType data_type);

/// Bytes occupied by `element_count` elements (GE `GetSizeInBytes`): -1 for a negative count, an
/// unsupported dtype, or int64 overflow; strings count 16 B per element; sub-byte types round up.
int64_t GetSizeInBytes(int64_t element_count, DataType data_type);

}  // namespace ge

#endif  // OPENATC_GRAPH_TYPES_H_
