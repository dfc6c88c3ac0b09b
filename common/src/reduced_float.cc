// float16 / bfloat16 rounding of float32 values (openatc/common/reduced_float.h).
#include "openatc/common/reduced_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace openatc {

const char *ReducedFloatName(ReducedFloat r) {
  switch (r) {
    case ReducedFloat::kFloat16: return "float16";
    case ReducedFloat::kBfloat16: return "bfloat16";
    case ReducedFloat::kHfloat32: return "hfloat32";
    default: return "";
  }
}

ReducedFloat ReducedFloatFromName(const std::string &name) {
  if (name == "float16") return ReducedFloat::kFloat16;
  if (name == "bfloat16") return ReducedFloat::kBfloat16;
  if (name == "hfloat32") return ReducedFloat::kHfloat32;
  return ReducedFloat::kNone;
}

float RoundToFloat16(float x) { return static_cast<float>(static_cast<_Float16>(x)); }

namespace {
// Keeps the top 32 - `dropped` bits of a float32, to nearest even; the carry may reach inf.
float DropLowBits(float x, unsigned dropped) {
  if (std::isnan(x)) return x;
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const uint32_t half = (1u << (dropped - 1)) - 1u;
  bits += half + ((bits >> dropped) & 1u);
  bits &= ~((1u << dropped) - 1u);
  float out = 0;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
}  // namespace

float RoundToBfloat16(float x) { return DropLowBits(x, 16); }

float RoundToHfloat32(float x) { return DropLowBits(x, 12); }

void RoundInPlace(float *values, size_t n, ReducedFloat to) {
  if (to == ReducedFloat::kFloat16) {
    for (size_t i = 0; i < n; ++i) values[i] = RoundToFloat16(values[i]);
  } else if (to == ReducedFloat::kBfloat16) {
    for (size_t i = 0; i < n; ++i) values[i] = RoundToBfloat16(values[i]);
  } else if (to == ReducedFloat::kHfloat32) {
    for (size_t i = 0; i < n; ++i) values[i] = RoundToHfloat32(values[i]);
  }
}

}  // namespace openatc
