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
 *  - anything -> bfloat16: to float32 first, then FloatToBf16 (see there);
 *  - float8 (E4M3FN, E5M2, E8M0, E4M3FNUZ, E5M2FNUZ) and the packed 4-bit types (INT4, UINT4,
 *    FLOAT4E2M1; include/openatc/onnx_dtype.h) -> anything: exact widening first;
 *  - anything -> float8: to float32 first, then include/openatc/minifloat.h's rounding, with
 *    Cast-19's `saturate` and Cast-24's `round_mode` (E8M0 only) from CastOptions;
 *  - anything -> INT4 / UINT4: to int64 by the rules above (floats truncate), then the low 4 bits
 *    (wrap, as ONNX 1.19's Cast test data has it); -> FLOAT4E2M1: through float32, rounded to
 *    nearest even, always saturating (E2M1 has no inf or NaN; NaN gives 0x8).
 */
#ifndef OPENATC_OPS_COMMON_CAST_CONVERT_H_
#define OPENATC_OPS_COMMON_CAST_CONVERT_H_

#include <cstdint>

#include "common/op_util.h"
#include "openatc/minifloat.h"

namespace openatc_ops {

/// The float32 value of a bfloat16 bit pattern (exact).
float Bf16ToFloat(uint16_t bits);

/// float32 -> bfloat16 bits, rounding to nearest even on the dropped 16 bits; overflow rounds
/// to +-inf; NaN stays a quiet NaN with its sign (ONNX Cast-13; the behaviour ONNX >= 1.13 spells
/// out, and what PyTorch and ml_dtypes do).
uint16_t FloatToBf16(float f);

/// Cast attributes that only conversions into float8 use.
struct CastOptions {
  bool saturate = true;                                      ///< Cast-19 `saturate` (default 1)
  openatc::E8M0Round e8m0_round = openatc::E8M0Round::kUp;  ///< Cast-24 `round_mode`
};

/// Reads Cast's / CastLike's `saturate` and `round_mode` attributes (at these indices); false
/// (reported through Fail) for a round_mode other than up, down or nearest.
bool ReadCastOptions(const gert::ExtendedKernelContext *ctx, size_t saturate_index, size_t round_mode_index,
                     CastOptions *opt);

/// The float32 value of a float8 (`d`: E4M3FN, E5M2, E8M0, E4M3FNUZ or E5M2FNUZ) bit pattern (exact).
float Float8ToFloat(ge::DataType d, uint8_t bits);
/// float32 -> float8 (`to`: any of Float8ToFloat's) bits, by include/openatc/minifloat.h's rules.
uint8_t FloatToFloat8(float v, ge::DataType to, const CastOptions &options);

/// Converts the `x.GetShapeSize()` elements of `x` into dtype `to`, written at `out` (which holds
/// room for them; packed 4-bit outputs are written whole bytes, the unused nibble 0). False when either dtype is not one of the supported ones.
bool CastElements(const gert::Tensor &x, ge::DataType to, void *out, const CastOptions &options = {});

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CAST_CONVERT_H_
