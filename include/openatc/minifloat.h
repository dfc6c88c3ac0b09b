/**
 * @file openatc/minifloat.h
 * Bit-level conversions between float and the narrow ONNX float types FLOAT8E4M3FN (GE
 * DT_FLOAT8_E4M3FN), FLOAT8E5M2 (DT_FLOAT8_E5M2), FLOAT8E8M0 (DT_FLOAT8_E8M0), FLOAT8E4M3FNUZ and
 * FLOAT8E5M2FNUZ (OpenATC-private dtypes, openatc/private_dtype.h) and FLOAT4E2M1 (DT_FLOAT4_E2M1,
 * one value per nibble), plus INT4/UINT4 nibbles and the packed 4-bit storage. Header-only: the built-in operators
 * (Cast, CastLike, Q/DQ) and the tensor reader/comparison share it.
 *
 * Rules (ONNX Cast-19/23/24 and the values of ONNX 1.19's backend test data):
 *  - to E4M3FN / E5M2 / E2M1: round to nearest even. Out-of-range finite values and +-inf go to
 *    +-max finite when `saturate`; without it, E4M3FN gives NaN (S.1111.111, it has no inf), E5M2
 *    gives +-inf. NaN gives 0x7F|sign (E4M3FN), 0x7E|sign (E5M2). E2M1 has neither inf nor NaN:
 *    it always saturates, and NaN gives 0x8 (the pattern ONNX's data uses).
 *  - to E4M3FNUZ / E5M2FNUZ (bias 8 / 16; no inf, no negative zero, the one NaN is 0x80): round to
 *    nearest even; out-of-range finite values and +-inf go to +-max finite (0x7F|sign: 240 /
 *    57344) when `saturate`, else to NaN; NaN gives 0x80; anything that rounds to zero gives 0x00.
 *  - to E8M0 (a bare power of two 2^(e-127), 0xFF = NaN, sign dropped): round_mode "up" takes the
 *    next power of two when any mantissa bit is set, "down" drops them, "nearest" rounds up when
 *    the mantissa is >= half (ties up). NaN -> 0xFF; inf and exponents past 254 -> 0xFE when
 *    `saturate`, else 0xFF.
 *  - INT4 / UINT4: a 4-bit two's complement / unsigned nibble; wider integers wrap into it (low
 *    4 bits). Packed storage: element i is the low nibble of byte i/2 when i is even, else the
 *    high nibble; an odd count leaves the last byte's high nibble 0.
 */
#ifndef OPENATC_MINIFLOAT_H_
#define OPENATC_MINIFLOAT_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace openatc {

/// One narrow float layout: sign bit on top, then exp_bits, then mant_bits.
struct MiniFloatLayout {
  int exp_bits;
  int mant_bits;
  int bias;
  enum Specials { kIeee, kOnlyNan, kNone, kFnuz } specials;  ///< E5M2 | E4M3FN | E2M1 | *FNUZ
};
inline constexpr MiniFloatLayout kE4M3FN{4, 3, 7, MiniFloatLayout::kOnlyNan};
inline constexpr MiniFloatLayout kE5M2{5, 2, 15, MiniFloatLayout::kIeee};
inline constexpr MiniFloatLayout kE2M1{2, 1, 1, MiniFloatLayout::kNone};
inline constexpr MiniFloatLayout kE4M3FNUZ{4, 3, 8, MiniFloatLayout::kFnuz};
inline constexpr MiniFloatLayout kE5M2FNUZ{5, 2, 16, MiniFloatLayout::kFnuz};

/// The value of bit pattern `bits` (low exp_bits + mant_bits + 1 bits used).
inline float MiniFloatToFloat(uint32_t bits, const MiniFloatLayout &l) {
  const int width = l.exp_bits + l.mant_bits;
  const bool neg = (bits >> width) & 1u;
  const uint32_t exp = (bits >> l.mant_bits) & ((1u << l.exp_bits) - 1u);
  const uint32_t mant = bits & ((1u << l.mant_bits) - 1u);
  const uint32_t all_exp = (1u << l.exp_bits) - 1u, all_mant = (1u << l.mant_bits) - 1u;
  float v;
  if (l.specials == MiniFloatLayout::kFnuz && neg && exp == 0 && mant == 0) return std::numeric_limits<float>::quiet_NaN();
  if (l.specials == MiniFloatLayout::kOnlyNan && exp == all_exp && mant == all_mant) {
    v = std::numeric_limits<float>::quiet_NaN();
  } else if (l.specials == MiniFloatLayout::kIeee && exp == all_exp) {
    v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (exp == 0) {
    v = static_cast<float>(std::ldexp(static_cast<double>(mant), 1 - l.bias - l.mant_bits));
  } else {
    v = static_cast<float>(std::ldexp(static_cast<double>(mant | (1u << l.mant_bits)),
                                      static_cast<int>(exp) - l.bias - l.mant_bits));
  }
  return neg ? -v : v;
}

/// The largest finite bit pattern (without sign) of layout `l`.
inline uint32_t MiniFloatMaxBits(const MiniFloatLayout &l) {
  const uint32_t all = (1u << (l.exp_bits + l.mant_bits)) - 1u;
  if (l.specials == MiniFloatLayout::kOnlyNan) return all - 1u;
  if (l.specials == MiniFloatLayout::kIeee) return all - (1u << l.mant_bits);
  return all;
}

/// `f` rounded to nearest even into layout `l`, with the overflow/NaN rules of the file comment.
inline uint32_t FloatToMiniFloat(float f, const MiniFloatLayout &l, bool saturate) {
  const int width = l.exp_bits + l.mant_bits;
  const uint32_t sign = std::signbit(f) ? (1u << width) : 0u;
  const uint32_t max_bits = MiniFloatMaxBits(l);
  const uint32_t all = (1u << width) - 1u;
  // What an unrepresentable magnitude becomes: NaN (E4M3FN), inf (E5M2) or max (E2M1).
  const uint32_t inf_bits = ((1u << l.exp_bits) - 1u) << l.mant_bits;
  const uint32_t overflow = l.specials == MiniFloatLayout::kOnlyNan ? all
                            : l.specials == MiniFloatLayout::kIeee  ? inf_bits
                                                                     : max_bits;
  if (l.specials == MiniFloatLayout::kFnuz) {  // NaN is 0x80 (the pattern of negative zero)
    const uint32_t nan = 1u << width;
    if (std::isnan(f)) return nan;
    if (std::isinf(f)) return saturate ? sign | max_bits : nan;
    const uint32_t r = FloatToMiniFloat(f, MiniFloatLayout{l.exp_bits, l.mant_bits, l.bias, MiniFloatLayout::kNone},
                                        true);
    if ((r & all) == 0) return 0;  // no negative zero
    const double a = std::fabs(static_cast<double>(f));
    const double max_value = std::ldexp(static_cast<double>((2u << l.mant_bits) - 1u),
                                        static_cast<int>((1u << l.exp_bits) - 1u) - l.bias - l.mant_bits);
    // Values that round above max (an E2M1-style layout clamps them): NaN without saturate.
    if (!saturate && a > max_value) {
      const double half_quantum = std::ldexp(1.0, static_cast<int>((1u << l.exp_bits) - 1u) - l.bias - l.mant_bits - 1);
      if (a >= max_value + half_quantum) return nan;
    }
    return r;
  }
  if (std::isnan(f)) {
    if (l.specials == MiniFloatLayout::kNone) return 1u << width;
    if (l.specials == MiniFloatLayout::kOnlyNan) return sign | all;
    return sign | inf_bits | (1u << (l.mant_bits - 1));  // quiet NaN: top mantissa bit set
  }
  if (std::isinf(f)) return sign | (saturate ? max_bits : overflow);
  const double a = std::fabs(static_cast<double>(f));
  if (a == 0.0) return sign;
  const int emin = 1 - l.bias;
  const int e = std::max(std::ilogb(a), emin);
  const double quantum = std::ldexp(1.0, e - l.mant_bits);
  const double v = std::nearbyint(a / quantum) * quantum;  // ties to even (default rounding mode)
  const double max_value = static_cast<double>(MiniFloatToFloat(max_bits, l));
  if (v > max_value) return sign | (saturate ? max_bits : overflow);
  if (v < std::ldexp(1.0, emin))  // subnormal (or rounded to zero)
    return sign | static_cast<uint32_t>(v / std::ldexp(1.0, emin - l.mant_bits));
  const int ev = std::ilogb(v);
  const uint32_t mant = static_cast<uint32_t>(v / std::ldexp(1.0, ev - l.mant_bits)) - (1u << l.mant_bits);
  return sign | (static_cast<uint32_t>(ev + l.bias) << l.mant_bits) | mant;
}

/// FLOAT8E8M0: 2^(bits-127); 0xFF is NaN.
inline float E8M0ToFloat(uint8_t bits) {
  if (bits == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(std::ldexp(1.0, static_cast<int>(bits) - 127));
}

enum class E8M0Round { kUp, kDown, kNearest };

inline uint8_t FloatToE8M0(float f, bool saturate, E8M0Round mode) {
  if (std::isnan(f)) return 0xFF;
  if (std::isinf(f)) return saturate ? 0xFE : 0xFF;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t exp = (u >> 23) & 0xFFu;
  const uint32_t mant = u & 0x7FFFFFu;
  if (mode == E8M0Round::kUp && mant != 0) ++exp;
  if (mode == E8M0Round::kNearest && mant >= 0x400000u) ++exp;
  if (exp > 0xFEu) return saturate ? 0xFE : 0xFF;
  return static_cast<uint8_t>(exp);
}

/// A signed INT4 nibble (low 4 bits of `nibble`) as an integer in [-8, 7].
inline int Int4Value(uint32_t nibble) {
  const int v = static_cast<int>(nibble & 0xFu);
  return v >= 8 ? v - 16 : v;
}

/// Nibble `i` of packed 4-bit storage `p` (low nibble first).
inline uint8_t GetNibble(const uint8_t *p, int64_t i) {
  return static_cast<uint8_t>((p[i / 2] >> ((i % 2) * 4)) & 0xFu);
}

/// Sets nibble `i` of packed 4-bit storage `p` to the low 4 bits of `v` (the other nibble kept).
inline void SetNibble(uint8_t *p, int64_t i, uint32_t v) {
  const int shift = static_cast<int>(i % 2) * 4;
  p[i / 2] = static_cast<uint8_t>((p[i / 2] & ~(0xFu << shift)) | ((v & 0xFu) << shift));
}

/// Bytes of `n` packed 4-bit elements.
inline int64_t PackedNibbleBytes(int64_t n) { return (n + 1) / 2; }

}  // namespace openatc

#endif  // OPENATC_MINIFLOAT_H_
