/**
 * @file openatc/common/reduced_float.h
 * float32 values rounded to what float16, bfloat16 or HF32 keeps (one rounding to nearest
 * even, as a conversion on the chip rounds; overflow to +-inf; NaN stays NaN): the compiler's
 * precision modes (atc/compiler/src/passes/precision.cc) and the runtime's rounding of a reduced
 * node's outputs (loader/runtime/src/executor.cc) use these.
 */
#ifndef OPENATC_COMMON_REDUCED_FLOAT_H_
#define OPENATC_COMMON_REDUCED_FLOAT_H_

#include <cstddef>
#include <string>

namespace openatc {

/// kHfloat32: Ascend's HF32, the type the cube unit reads float32 operands as under --allow_hf32:
/// float32's sign and 8 exponent bits (same range, subnormals included) and the top 11 of its 23
/// mantissa bits.
enum class ReducedFloat { kNone, kFloat16, kBfloat16, kHfloat32 };

/// "float16" / "bfloat16" / "hfloat32" / "" (the attribute values of the precision pass).
const char *ReducedFloatName(ReducedFloat r);
/// The inverse of ReducedFloatName; kNone for anything else.
ReducedFloat ReducedFloatFromName(const std::string &name);

float RoundToFloat16(float x);
float RoundToBfloat16(float x);
/// To nearest even on the 12 dropped mantissa bits (the chip's default HF32 rounding); a carry
/// past the largest finite value gives inf.
float RoundToHfloat32(float x);
/// Rounds `n` float32 values in place.
void RoundInPlace(float *values, size_t n, ReducedFloat to);

}  // namespace openatc

#endif  // OPENATC_COMMON_REDUCED_FLOAT_H_
