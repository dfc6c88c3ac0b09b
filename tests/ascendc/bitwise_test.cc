// Bitwise vector ops (And, Or, ShiftLeft, ShiftRight) and GetRuntimeUBSize of the Ascend C host
// library (include/ascendc/kernel_operator_vec.h, kernel_operator_base.h), as the devkit's
// element_wise_logic and get_ub_size samples call them.
#include <catch2/catch.hpp>

#include "kernel_operator.h"

TEST_CASE("And, Or, ShiftLeft, ShiftRight on integer tensors, count form", "[ascendc]") {
  AscendC::TPipe pipe;
  AscendC::TBuf<> b0, b1, b2;
  pipe.InitBuffer(b0, 64);
  pipe.InitBuffer(b1, 64);
  pipe.InitBuffer(b2, 64);
  AscendC::LocalTensor<uint16_t> x = b0.Get<uint16_t>(), y = b1.Get<uint16_t>(), z = b2.Get<uint16_t>();
  const uint16_t xs[4] = {0xF0F0, 0x1234, 0xFFFF, 0x0001};
  const uint16_t ys[4] = {0x0FF0, 0x00FF, 0x8001, 0x0003};
  for (int i = 0; i < 4; ++i) {
    x.SetValue(i, xs[i]);
    y.SetValue(i, ys[i]);
    z.SetValue(i, 0x5555);
  }
  AscendC::And(z, x, y, 3);
  CHECK(z.GetValue(0) == 0x00F0);
  CHECK(z.GetValue(1) == 0x0034);
  CHECK(z.GetValue(2) == 0x8001);
  CHECK(z.GetValue(3) == 0x5555);  // beyond count: untouched
  AscendC::Or(z, x, y, 4);
  CHECK(z.GetValue(0) == 0xFFF0);
  CHECK(z.GetValue(1) == 0x12FF);
  CHECK(z.GetValue(3) == 0x0003);
  AscendC::ShiftRight(z, x, static_cast<uint16_t>(4), 4);
  CHECK(z.GetValue(0) == 0x0F0F);
  CHECK(z.GetValue(1) == 0x0123);
  CHECK(z.GetValue(2) == 0x0FFF);
  CHECK(z.GetValue(3) == 0x0000);
  AscendC::ShiftLeft(z, x, static_cast<uint16_t>(4), 4);
  CHECK(z.GetValue(0) == 0x0F00);  // bits shifted out of 16 are lost
  CHECK(z.GetValue(1) == 0x2340);
  CHECK(z.GetValue(3) == 0x0010);
  // Signed right shift keeps the sign, as the vector unit's arithmetic shift does.
  AscendC::LocalTensor<int16_t> s = b0.Get<int16_t>(), t = b1.Get<int16_t>();
  s.SetValue(0, static_cast<int16_t>(-64));
  s.SetValue(1, static_cast<int16_t>(100));
  AscendC::ShiftRight(t, s, static_cast<int16_t>(3), 2);
  CHECK(t.GetValue(0) == -8);
  CHECK(t.GetValue(1) == 12);
}

TEST_CASE("GetRuntimeUBSize is the emulated chip's whole UB", "[ascendc]") {
  STATIC_REQUIRE(AscendC::GetRuntimeUBSize() == 196608u);  // OPENATC_ASCENDC_UB_SIZE of this test
  STATIC_REQUIRE(AscendC::GetRuntimeUBSize() == AscendC::GetUBSizeInBytes());
}
