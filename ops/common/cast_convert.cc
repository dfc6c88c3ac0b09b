// Element conversions of ops/common/cast_convert.h (Cast, CastLike).
#include "common/cast_convert.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace openatc_ops {
namespace {
struct Bf16 {  // a bfloat16 slot (its value is handled as float)
  uint16_t bits;
};

template <typename T>
constexpr bool kIsFloat = std::is_floating_point<T>::value || std::is_same<T, half>::value;

// One element S -> D (neither is Bf16; bfloat16 goes through float).
template <typename D, typename S>
D Convert(S s) {
  if constexpr (std::is_same<D, bool>::value) {
    return s != S(0);
  } else if constexpr (std::is_same<S, bool>::value) {
    return static_cast<D>(s ? 1 : 0);
  } else if constexpr (kIsFloat<S> && !kIsFloat<D>) {
    const double v = std::trunc(static_cast<double>(s));
    if (std::isnan(v)) return D(0);
    constexpr double lo = static_cast<double>(std::numeric_limits<D>::lowest());
    // max + 1 is a power of two, exact in double (the cast of max may round up to it).
    constexpr double hi_excl = 2.0 * static_cast<double>(std::numeric_limits<D>::max() / 2 + 1);
    if (v <= lo) return std::numeric_limits<D>::lowest();
    if (v >= hi_excl) return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  } else if constexpr (std::is_same<D, half>::value && !kIsFloat<S>) {
    return static_cast<half>(static_cast<double>(s));
  } else {
    return static_cast<D>(s);
  }
}

template <typename D, typename S>
void ConvertAll(const S *in, D *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Convert<D>(in[i]);
}

// Destination D from any source dtype; false for an unsupported source.
template <typename D>
bool CastTo(const gert::Tensor &x, void *out, int64_t n) {
  auto *o = static_cast<D *>(out);
  switch (x.GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(ConvertAll(x.GetData<T>(), o, n))
    OPENATC_OPS_INT_CASES(ConvertAll(x.GetData<T>(), o, n))
    case ge::DT_BOOL:
      ConvertAll(x.GetData<bool>(), o, n);
      break;
    case ge::DT_BF16: {
      const auto *p = static_cast<const uint16_t *>(x.GetAddr());
      for (int64_t i = 0; i < n; ++i) o[i] = Convert<D>(Bf16ToFloat(p[i]));
      break;
    }
    default:
      return false;
  }
  return true;
}

template <>
bool CastTo<Bf16>(const gert::Tensor &x, void *out, int64_t n) {
  std::vector<float> tmp(static_cast<size_t>(n));
  if (!CastTo<float>(x, tmp.data(), n)) return false;
  auto *o = static_cast<uint16_t *>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = FloatToBf16(tmp[static_cast<size_t>(i)]);
  return true;
}
}  // namespace

float Bf16ToFloat(uint16_t bits) {
  const uint32_t u = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);  // keep sign, force quiet
  // Round to nearest even: add 0x7fff plus the lowest kept bit, then drop 16 bits. A carry into
  // the exponent is correct rounding, up to +-inf for values beyond bfloat16's largest finite.
  const uint32_t lsb = (u >> 16) & 1u;
  return static_cast<uint16_t>((u + 0x7fffu + lsb) >> 16);
}

bool CastElements(const gert::Tensor &x, ge::DataType to, void *out) {
  const int64_t n = x.GetShapeSize();
  switch (to) {
    OPENATC_OPS_FLOAT_CASES(return CastTo<T>(x, out, n))
    OPENATC_OPS_INT_CASES(return CastTo<T>(x, out, n))
    case ge::DT_BOOL:
      return CastTo<bool>(x, out, n);
    case ge::DT_BF16:
      return CastTo<Bf16>(x, out, n);
    default:
      return false;
  }
  return false;
}

}  // namespace openatc_ops
