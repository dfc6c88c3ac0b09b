// Element conversions of ops/common/cast_convert.h (Cast, CastLike).
#include "common/cast_convert.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "openatc/minifloat.h"
#include "openatc/onnx_dtype.h"

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
bool CastTo(const gert::Tensor &x, void *out, int64_t n);

// Any source -> one of the float8 types, through float32 (exact for every source but float64
// and the wide integers, which round once into float32 first).
bool CastToFloat8(const gert::Tensor &x, ge::DataType to, void *out, int64_t n, const CastOptions &opt) {
  std::vector<float> tmp(static_cast<size_t>(n));
  if (!CastTo<float>(x, tmp.data(), n)) return false;
  auto *o = static_cast<uint8_t *>(out);
  for (int64_t i = 0; i < n; ++i) {
    const float v = tmp[static_cast<size_t>(i)];
    o[i] = FloatToFloat8(v, to, opt);
  }
  return true;
}

template <typename D>
bool CastTo(const gert::Tensor &x, void *out, int64_t n) {
  auto *o = static_cast<D *>(out);
  const ge::DataType xt = x.GetDataType();
  if (openatc::Is4BitDataType(xt)) {  // packed nibbles, widened exactly
    const auto *p = static_cast<const uint8_t *>(x.GetAddr());
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t b = openatc::GetNibble(p, i);
      if (xt == ge::DT_INT4) o[i] = Convert<D>(static_cast<int8_t>(openatc::Int4Value(b)));
      else if (xt == openatc::kDtUint4) o[i] = Convert<D>(b);
      else o[i] = Convert<D>(openatc::MiniFloatToFloat(b, openatc::kE2M1));
    }
    return true;
  }
  if (openatc::IsFloat8DataType(xt)) {
    const auto *p = static_cast<const uint8_t *>(x.GetAddr());
    for (int64_t i = 0; i < n; ++i) o[i] = Convert<D>(Float8ToFloat(xt, p[i]));
    return true;
  }
  switch (xt) {
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

// Any source -> INT4 / UINT4 (through int64: Cast's float -> integer rules, then the low 4 bits,
// the wrap ONNX 1.19's Cast test data shows: -9 -> 7) or FLOAT4E2M1 (through float32, rounded to
// nearest even and saturated, include/openatc/minifloat.h). `out` holds PackedNibbleBytes(n).
bool CastTo4Bit(const gert::Tensor &x, ge::DataType to, void *out, int64_t n) {
  auto *o = static_cast<uint8_t *>(out);
  std::memset(o, 0, static_cast<size_t>(openatc::PackedNibbleBytes(n)));
  if (to == ge::DT_FLOAT4_E2M1) {
    std::vector<float> tmp(static_cast<size_t>(n));
    if (!CastTo<float>(x, tmp.data(), n)) return false;
    for (int64_t i = 0; i < n; ++i)
      openatc::SetNibble(o, i, openatc::FloatToMiniFloat(tmp[static_cast<size_t>(i)], openatc::kE2M1, true));
    return true;
  }
  std::vector<int64_t> tmp(static_cast<size_t>(n));
  if (!CastTo<int64_t>(x, tmp.data(), n)) return false;
  for (int64_t i = 0; i < n; ++i) openatc::SetNibble(o, i, static_cast<uint32_t>(tmp[static_cast<size_t>(i)] & 0xF));
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

namespace {
const openatc::MiniFloatLayout &Float8Layout(ge::DataType d) {
  if (d == ge::DT_FLOAT8_E4M3FN) return openatc::kE4M3FN;
  if (d == openatc::kDtFloat8E4M3FNUZ) return openatc::kE4M3FNUZ;
  if (d == openatc::kDtFloat8E5M2FNUZ) return openatc::kE5M2FNUZ;
  return openatc::kE5M2;
}
}  // namespace

float Float8ToFloat(ge::DataType d, uint8_t bits) {
  if (d == ge::DT_FLOAT8_E8M0) return openatc::E8M0ToFloat(bits);
  return openatc::MiniFloatToFloat(bits, Float8Layout(d));
}

uint8_t FloatToFloat8(float v, ge::DataType to, const CastOptions &opt) {
  if (to == ge::DT_FLOAT8_E8M0) return openatc::FloatToE8M0(v, opt.saturate, opt.e8m0_round);
  return static_cast<uint8_t>(openatc::FloatToMiniFloat(v, Float8Layout(to), opt.saturate));
}

bool ReadCastOptions(const gert::ExtendedKernelContext *ctx, size_t saturate_index, size_t round_mode_index,
                     CastOptions *opt) {
  opt->saturate = AttrInt(ctx, saturate_index, 1) != 0;
  const std::string mode = AttrStr(ctx, round_mode_index, "up");
  if (mode == "up") opt->e8m0_round = openatc::E8M0Round::kUp;
  else if (mode == "down") opt->e8m0_round = openatc::E8M0Round::kDown;
  else if (mode == "nearest") opt->e8m0_round = openatc::E8M0Round::kNearest;
  else return Fail(ctx, "round_mode '" + mode + "' is not one of up, down, nearest"), false;
  return true;
}

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

bool CastElements(const gert::Tensor &x, ge::DataType to, void *out, const CastOptions &options) {
  const int64_t n = x.GetShapeSize();
  if (openatc::IsFloat8DataType(to)) return CastToFloat8(x, to, out, n, options);
  if (openatc::Is4BitDataType(to)) return CastTo4Bit(x, to, out, n);
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
