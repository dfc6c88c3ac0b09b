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
    default: return "";
  }
}

ReducedFloat ReducedFloatFromName(const std::string &name) {
  if (name == "float16") return ReducedFloat::kFloat16;
  if (name == "bfloat16") return ReducedFloat::kBfloat16;
  return ReducedFloat::kNone;
}

float RoundToFloat16(float x) { return static_cast<float>(static_cast<_Float16>(x)); }

float RoundToBfloat16(float x) {
  if (std::isnan(x)) return x;
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // to nearest even on the 16 dropped bits; carries into inf
  bits &= 0xffff0000u;
  float out = 0;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

void RoundInPlace(float *values, size_t n, ReducedFloat to) {
  if (to == ReducedFloat::kFloat16) {
    for (size_t i = 0; i < n; ++i) values[i] = RoundToFloat16(values[i]);
  } else if (to == ReducedFloat::kBfloat16) {
    for (size_t i = 0; i < n; ++i) values[i] = RoundToBfloat16(values[i]);
  }
}

}  // namespace openatc
