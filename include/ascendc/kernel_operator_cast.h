/**
 * @file kernel_operator_cast.h
 * Cast<D, S>(dst, src, RoundMode, count) of the Ascend C host library (count form) and its repeat
 * form Cast<D, S, isSetMask>(dst, src, RoundMode, mask | mask[2], repeatTime, UnaryRepeatParams):
 * a repeat covers 256 bytes of the wider of D and S (64 elements for half <-> float), the mask
 * selects elements of a repeat as in the other repeat-form calls (kernel_operator_vec.h), and each
 * operand is addressed in DataBlocks of its own type (32 bytes: 8 float, 16 half), the strides of
 * the params counting those DataBlocks (half -> float, contiguous: dstRepStride 8, srcRepStride 4).
 * To a float
 * type (float, half, bfloat16_t): CAST_NONE, CAST_RINT and CAST_HYBRID round to nearest even,
 * CAST_FLOOR / CAST_CEIL / CAST_TRUNC are directed, CAST_ROUND is nearest with ties away from
 * zero, CAST_ODD picks the neighbour with an odd last bit when inexact. To an integer type: the
 * same rounding on the value, then saturation to the type's range (NaN gives 0). Every
 * (src, dst, mode) triple of numeric types is accepted: the chip's table of legal triples is
 * not enforced on the host.
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_CAST_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_CAST_H_

#include <math.h>

#include <limits>

#include "kernel_operator_vec.h"

namespace openatc {
namespace ascendc {

/** The neighbouring value of a float type D towards +inf (up) or -inf. */
template <typename D>
inline D NextFloat(D x, bool up) {
  using Bits = typename std::conditional<sizeof(D) == 2, uint16_t, uint32_t>::type;
  static_assert(sizeof(Bits) == sizeof(D), "float type size");
  constexpr Bits kSign = static_cast<Bits>(Bits(1) << (sizeof(D) * 8 - 1));
  Bits b;
  memcpy(&b, &x, sizeof(D));
  if ((b & static_cast<Bits>(~kSign)) == 0) {
    b = up ? Bits(1) : static_cast<Bits>(kSign | 1u);  // from +-0 to the smallest subnormal
  } else if (((b & kSign) == 0) == up) {
    b = static_cast<Bits>(b + 1);
  } else {
    b = static_cast<Bits>(b - 1);
  }
  memcpy(&x, &b, sizeof(D));
  return x;
}

template <typename D>
inline bool LastBitOdd(D x) {
  unsigned char bytes[sizeof(D)];
  memcpy(bytes, &x, sizeof(D));
  return (bytes[0] & 1u) != 0;  // little-endian hosts
}

/** v rounded into the float type D. */
template <typename D>
inline D RoundToFloat(double v, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  const D nearest = static_cast<D>(static_cast<float>(v));
  const double n = static_cast<double>(static_cast<float>(nearest));
  if (isnan(v) || n == v || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT ||
      mode == RoundMode::CAST_HYBRID) {
    return nearest;
  }
  const D lo = n < v ? nearest : NextFloat(nearest, false);
  const D hi = n < v ? NextFloat(nearest, true) : nearest;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return v > 0 ? lo : hi;
    case RoundMode::CAST_ODD:
      return LastBitOdd(lo) ? lo : hi;
    default: {  // CAST_ROUND: nearest, ties away from zero
      const double dl = v - static_cast<double>(static_cast<float>(lo));
      const double dh = static_cast<double>(static_cast<float>(hi)) - v;
      if (dl == dh) return v > 0 ? hi : lo;
      return dl < dh ? lo : hi;
    }
  }
}

/** v rounded to an integer and saturated into D. */
template <typename D>
inline D RoundToInteger(double v, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  if (isnan(v)) return D(0);
  double r;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      r = floor(v);
      break;
    case RoundMode::CAST_CEIL:
      r = ceil(v);
      break;
    case RoundMode::CAST_TRUNC:
      r = trunc(v);
      break;
    case RoundMode::CAST_ROUND:
      r = round(v);
      break;
    default:
      r = nearbyint(v);
      break;
  }
  if (r <= static_cast<double>(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
  if (r >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(r);
}

template <typename D>
inline D CastValue(double v, AscendC::RoundMode mode) {
  if constexpr (std::is_integral<D>::value) {
    return RoundToInteger<D>(v, mode);
  } else {
    return RoundToFloat<D>(v, mode);
  }
}

/** The repeat form of Cast (see the file comment). */
template <typename D, typename S, bool isSetMask>
inline void CastRepeat(const AscendC::LocalTensor<D> &dst, const AscendC::LocalTensor<S> &src, AscendC::RoundMode mode,
                       RepeatMask mask, uint8_t repeat_time, const AscendC::UnaryRepeatParams &p) {
  using Wide = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
  CheckOperand("Cast", "dst", dst, 0);
  CheckOperand("Cast", "src", src, 0);
  ForEachRepeat<Wide, isSetMask>(mask, repeat_time, [&](uint32_t r, uint32_t i) {
    const S x = At("Cast", "src", src, RepeatIndex<S>(r, i, p.srcBlkStride, p.srcRepStride));
    At("Cast", "dst", dst, RepeatIndex<D>(r, i, p.dstBlkStride, p.dstRepStride)) =
        CastValue<D>(static_cast<double>(static_cast<Calc<S>>(x)), mode);
  });
}

}  // namespace ascendc
}  // namespace openatc

namespace AscendC {

/** dst[i] = src[i] converted with `mode`, for the first `count` elements. */
template <typename D, typename S>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint32_t &count) {
  if (count == 0) return;
  openatc::ascendc::CheckOperand("Cast", "dst", dst, count);
  openatc::ascendc::CheckOperand("Cast", "src", src, count);
  for (uint32_t i = 0; i < count; ++i) {
    const double v = static_cast<double>(static_cast<openatc::ascendc::Calc<S>>(src.Raw()[i]));
    dst.Raw()[i] = openatc::ascendc::CastValue<D>(v, mode);
  }
}

/** Repeat form, the leading `mask` elements of each repeat. */
template <typename D, typename S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {
  openatc::ascendc::CastRepeat<D, S, isSetMask>(dst, src, mode, openatc::ascendc::LeadingMask(mask), repeatTime,
                                                repeatParams);
}

/** Repeat form, a 128-bit element bitmap per repeat (mask[0] the low 64 elements). */
template <typename D, typename S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams &repeatParams) {
  openatc::ascendc::CastRepeat<D, S, isSetMask>(dst, src, mode, openatc::ascendc::RepeatMask{mask[0], mask[1]},
                                                repeatTime, repeatParams);
}

}  // namespace AscendC

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_CAST_H_
