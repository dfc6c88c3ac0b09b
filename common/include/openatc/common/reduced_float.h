/**
 * @file openatc/common/reduced_float.h
 * float32 values rounded to what float16 or bfloat16 storage keeps (one rounding to nearest
 * even, as a conversion on the chip rounds; overflow to +-inf; NaN stays NaN): the compiler's
 * precision modes (atc/compiler/src/passes/precision.cc) and the runtime's rounding of a reduced
 * node's outputs (loader/runtime/src/executor.cc) use these.
 */
#ifndef OPENATC_COMMON_REDUCED_FLOAT_H_
#define OPENATC_COMMON_REDUCED_FLOAT_H_

#include <cstddef>
#include <string>

namespace openatc {

enum class ReducedFloat { kNone, kFloat16, kBfloat16 };

/// "float16" / "bfloat16" / "" (the attribute values of the precision pass).
const char *ReducedFloatName(ReducedFloat r);
/// The inverse of ReducedFloatName; kNone for anything else.
ReducedFloat ReducedFloatFromName(const std::string &name);

float RoundToFloat16(float x);
float RoundToBfloat16(float x);
/// Rounds `n` float32 values in place.
void RoundInPlace(float *values, size_t n, ReducedFloat to);

}  // namespace openatc

#endif  // OPENATC_COMMON_REDUCED_FLOAT_H_
