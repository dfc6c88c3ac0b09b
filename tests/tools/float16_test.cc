// float16 <-> float conversion: hand values, rounding ties, subnormals, overflow, NaN, and an
// exhaustive round trip of every non-NaN half.
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "openatc/tensor_io/float16.h"

using openatc::tensor_io::Bf16ToFloat;
using openatc::tensor_io::FloatToHalf;
using openatc::tensor_io::HalfToFloat;

TEST_CASE("tools_float16: half to float hand values") {
  CHECK(HalfToFloat(0x3C00) == 1.0f);
  CHECK(HalfToFloat(0xC000) == -2.0f);
  CHECK(HalfToFloat(0x7BFF) == 65504.0f);
  CHECK(HalfToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(HalfToFloat(0x03FF) == std::ldexp(1023.0f, -24));
  CHECK(HalfToFloat(0x0400) == std::ldexp(1.0f, -14));
  CHECK(HalfToFloat(0x3555) == 0.333251953125f);
  CHECK(HalfToFloat(0x7C00) == INFINITY);
  CHECK(HalfToFloat(0xFC00) == -INFINITY);
  CHECK(std::isnan(HalfToFloat(0x7E00)));
  CHECK(HalfToFloat(0x8000) == 0.0f);
  CHECK(std::signbit(HalfToFloat(0x8000)));
  CHECK(Bf16ToFloat(0x3F80) == 1.0f);
  CHECK(Bf16ToFloat(0xC040) == -3.0f);
}

TEST_CASE("tools_float16: float to half rounds to nearest even") {
  CHECK(FloatToHalf(1.0f) == 0x3C00);
  CHECK(FloatToHalf(-2.0f) == 0xC000);
  CHECK(FloatToHalf(0.1f) == 0x2E66);
  CHECK(FloatToHalf(65504.0f) == 0x7BFF);
  CHECK(FloatToHalf(65519.0f) == 0x7BFF);
  CHECK(FloatToHalf(65520.0f) == 0x7C00);  // tie with an odd mantissa goes up to inf
  CHECK(FloatToHalf(1e6f) == 0x7C00);
  CHECK(FloatToHalf(-1e6f) == 0xFC00);
  CHECK(FloatToHalf(INFINITY) == 0x7C00);
  CHECK(FloatToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);      // tie -> even (down)
  CHECK(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);  // tie -> even (up)
  CHECK(FloatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3C01);  // above the tie
  CHECK(FloatToHalf(2047.5f) == 0x6800);  // carry into the exponent
  CHECK(FloatToHalf(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(FloatToHalf(std::ldexp(1.0f, -25)) == 0x0000);      // tie between 0 and the smallest subnormal
  CHECK(FloatToHalf(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(FloatToHalf(std::ldexp(3.0f, -25)) == 0x0002);      // 1.5 units: tie -> even 2
  CHECK(FloatToHalf(std::ldexp(5.0f, -25)) == 0x0002);      // 2.5 units: tie -> even 2
  CHECK(FloatToHalf(std::ldexp(1.0f, -30)) == 0x0000);
  CHECK(FloatToHalf(-std::ldexp(1.0f, -30)) == 0x8000);
  CHECK(FloatToHalf(std::ldexp(2047.0f, -25)) == 0x0400);   // 1023.5 units: tie -> even 1024, the smallest normal
  CHECK(FloatToHalf(-0.0f) == 0x8000);
  uint16_t nan = FloatToHalf(NAN);
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
}

TEST_CASE("tools_float16: every half survives a round trip") {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    uint16_t half = static_cast<uint16_t>(h);
    bool is_nan = (half & 0x7C00) == 0x7C00 && (half & 0x03FF) != 0;
    if (is_nan) {
      CHECK(std::isnan(HalfToFloat(half)));
      continue;
    }
    if (FloatToHalf(HalfToFloat(half)) != half) FAIL("round trip changed half " << h);
  }
}
