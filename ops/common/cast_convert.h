/**
 * @file ops/common/cast_convert.h
 * Element conversions between ONNX tensor dtypes, shared by Cast-13 and CastLike-15: every pair
 * of float32/float16/bfloat16/float64, int8..int64, uint8..uint64 and bool (not string/complex).
 *
 * Rules (ONNX Cast: "casting from floating point to integer ... truncates"; the rest are C++'s):
 *  - into float16/float32/float64: one rounding to nearest even (integers reach float16 through
 *    float64, exact below 2^53);
 *  - float -> integer: truncation toward zero; ONNX leaves overflow undefined, here NaN gives 0
 *    and values beyond the range saturate to the integer's min/max;
 *  - integer -> integer: two's complement wrap; x != 0 into bool; 0/1 out of bool;
 *  - bfloat16 -> anything: exact widening to float32 first;
 *  - anything -> bfloat16: to float32 first, then FloatToBf16 (see there).
 */
#ifndef OPENATC_OPS_COMMON_CAST_CONVERT_H_
#define OPENATC_OPS_COMMON_CAST_CONVERT_H_

#include <cstdint>

#include "common/op_util.h"

namespace openatc_ops {

/// The float32 value of a bfloat16 bit pattern (exact).
float Bf16ToFloat(uint16_t bits);

/// float32 -> bfloat16 bits, rounding to nearest even on the dropped 16 bits; overflow rounds
/// to +-inf; NaN stays a quiet NaN with its sign (ONNX Cast-13; the behaviour ONNX >= 1.13 spells
/// out, and what PyTorch and ml_dtypes do).
uint16_t FloatToBf16(float f);

/// Converts the `x.GetShapeSize()` elements of `x` into dtype `to`, written at `out` (which holds
/// room for them). False when either dtype is not one of the supported ones.
bool CastElements(const gert::Tensor &x, ge::DataType to, void *out);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CAST_CONVERT_H_
