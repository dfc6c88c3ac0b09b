/**
 * @file openatc/private_dtype.h
 * OpenATC-private ge::DataType values for the ONNX element types GE has no type for: UINT4
 * (packed two per byte, low nibble first, like DT_INT4), FLOAT8E4M3FNUZ and FLOAT8E5M2FNUZ (one
 * byte each). ge::DataType has no fixed underlying type and its largest enumerator is DT_MAX = 43,
 * so only 0..63 may be stored in it; GE grows from 43 upward, so these count down from 63. An OM
 * file stores them as these numbers (schemas/README.md, "OpenATC-private dtype values").
 */
#ifndef OPENATC_PRIVATE_DTYPE_H_
#define OPENATC_PRIVATE_DTYPE_H_

#include <stdint.h>

#include "graph/types.h"

namespace openatc {

inline constexpr ge::DataType kDtUint4 = static_cast<ge::DataType>(63);
inline constexpr ge::DataType kDtFloat8E4M3FNUZ = static_cast<ge::DataType>(62);
inline constexpr ge::DataType kDtFloat8E5M2FNUZ = static_cast<ge::DataType>(61);

/// True for exactly the three values above (61, 62, 63), the only ones beyond DT_MAX OpenATC uses.
inline bool IsOpenAtcPrivateDataType(int64_t v) { return v >= 61 && v <= 63; }

/// A dtype value an OM file may carry: GE's 0..DT_MAX or one of the private values above.
inline bool IsKnownDataTypeValue(int64_t v) {
  return (v >= 0 && v <= static_cast<int64_t>(ge::DT_MAX)) || IsOpenAtcPrivateDataType(v);
}

}  // namespace openatc

#endif  // OPENATC_PRIVATE_DTYPE_H_
