// IEEE binary16 / bfloat16 <-> binary32 conversion on bit patterns (round to nearest even).
#include "openatc/tensor_io/float16.h"

#include <cmath>
#include <cstring>

namespace openatc {
namespace tensor_io {
namespace {
float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
uint32_t ToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
}  // namespace

float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half >> 15) << 31;
  const uint32_t exp = (half >> 10) & 0x1f;
  const uint32_t mant = half & 0x3ff;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24, exact in float.
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return FromBits(sign | 0x7f800000u | (mant << 13));  // inf / NaN (payload kept)
  return FromBits(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t FloatToHalf(float value) {
  const uint32_t bits = ToBits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) {
    if (abs == 0x7f800000u) return sign | 0x7c00;                        // inf
    return static_cast<uint16_t>(sign | 0x7e00 | ((abs >> 13) & 0x3ff));  // quiet NaN
  }
  if (abs >= 0x477ff000u) return sign | 0x7c00;  // >= 65520 rounds to inf
  if (abs <= 0x33000000u) return sign;           // <= 2^-25 rounds to zero (tie goes to even 0)
  const int e = static_cast<int>(abs >> 23) - 127;
  const uint32_t mant24 = (abs & 0x7fffffu) | 0x800000u;
  if (e < -14) {
    // Subnormal half: round(mant24 * 2^(e+1)); e in [-25, -15] so the shift is 14..24.
    const int shift = -(e + 1);
    uint32_t r = mant24 >> shift;
    const uint32_t rem = mant24 & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (r & 1))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t h = (static_cast<uint32_t>(e + 15) << 10) | ((abs & 0x7fffffu) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // a carry moves into the exponent
  return static_cast<uint16_t>(sign | h);
}

float Bf16ToFloat(uint16_t bf16) { return FromBits(static_cast<uint32_t>(bf16) << 16); }

}  // namespace tensor_io
}  // namespace openatc
