/**
 * @file openatc/tensor_io/float16.h
 * IEEE 754 binary16 <-> binary32 conversion on bit patterns. Exact: float16 -> float is lossless;
 * float -> float16 rounds to nearest, ties to even, overflows to +-inf, keeps NaN a (quiet) NaN
 * and produces subnormals. Same result on every platform (no hardware half type used).
 */
#ifndef OPENATC_TENSOR_IO_FLOAT16_H_
#define OPENATC_TENSOR_IO_FLOAT16_H_

#include <cstdint>

namespace openatc {
namespace tensor_io {

/// binary16 bits -> the float of the same value.
float HalfToFloat(uint16_t half);
/// float -> nearest binary16 bits (round to nearest even).
uint16_t FloatToHalf(float value);
/// bfloat16 bits -> float (exact).
float Bf16ToFloat(uint16_t bf16);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_FLOAT16_H_
