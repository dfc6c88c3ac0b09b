// The narrow float conversions of include/openatc/minifloat.h on hand-worked values (max finite,
// subnormals, ties to even, NaN, inf, -0, saturate on/off, E8M0's round modes), and float8 in
// omrun's tensor files: .npy as a 1-byte void ('|V1'), FLOAT8 TensorProtos, comparison in float.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include "openatc/minifloat.h"
#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc;
using namespace openatc::tensor_io;

namespace {
uint32_t E4(float f, bool sat = true) { return FloatToMiniFloat(f, kE4M3FN, sat); }
uint32_t E5(float f, bool sat = true) { return FloatToMiniFloat(f, kE5M2, sat); }
uint32_t F4(float f) { return FloatToMiniFloat(f, kE2M1, true); }
const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("tools_float8: float -> E4M3FN rounds to nearest even and saturates") {
  CHECK(E4(1.0f) == 0x38);                  // exponent 7 (bias 7), mantissa 0
  CHECK(E4(1.0625f) == 0x38);               // tie between 1.0 and 1.125: even mantissa 000
  CHECK(E4(1.1875f) == 0x3A);               // tie between 1.125 (001) and 1.25 (010): 010
  CHECK(E4(448.0f) == 0x7E);                // max finite S.1111.110
  CHECK(E4(464.0f) == 0x7E);                // tie between 448 and 480 (the NaN slot): 448
  CHECK(E4(465.0f) == 0x7E);                // beyond: saturates
  CHECK(E4(465.0f, false) == 0x7F);         // no saturate: NaN (E4M3FN has no inf)
  CHECK(E4(-1e6f, false) == 0xFF);
  CHECK(E4(kInf) == 0x7E);
  CHECK(E4(-kInf) == 0xFE);
  CHECK(E4(kInf, false) == 0x7F);
  CHECK(E4(kNan) == 0x7F);
  CHECK(E4(std::ldexp(1.0f, -6)) == 0x08);  // min normal
  CHECK(E4(std::ldexp(1.0f, -9)) == 0x01);  // min subnormal
  CHECK(E4(std::ldexp(1.0f, -10)) == 0x00); // tie between 0 and 2^-9: 0
  CHECK(E4(std::ldexp(3.0f, -10)) == 0x02); // tie between 2^-9 (odd) and 2^-8: 2^-8
  CHECK(E4(-0.0f) == 0x80);
  CHECK(E4(0.0f) == 0x00);
}

TEST_CASE("tools_float8: E4M3FN, E5M2 and E2M1 bit patterns decode exactly") {
  CHECK(std::isnan(MiniFloatToFloat(0x7F, kE4M3FN)));
  CHECK(std::isnan(MiniFloatToFloat(0xFF, kE4M3FN)));
  CHECK(MiniFloatToFloat(0x7E, kE4M3FN) == 448.0f);
  CHECK(MiniFloatToFloat(0x01, kE4M3FN) == std::ldexp(1.0f, -9));
  CHECK(std::signbit(MiniFloatToFloat(0x80, kE4M3FN)));
  CHECK(MiniFloatToFloat(0x7B, kE5M2) == 57344.0f);
  CHECK(MiniFloatToFloat(0x7C, kE5M2) == kInf);
  CHECK(MiniFloatToFloat(0xFC, kE5M2) == -kInf);
  CHECK(std::isnan(MiniFloatToFloat(0x7D, kE5M2)));
  CHECK(MiniFloatToFloat(0x01, kE5M2) == std::ldexp(1.0f, -16));
  CHECK(MiniFloatToFloat(0x1, kE2M1) == 0.5f);
  CHECK(MiniFloatToFloat(0x7, kE2M1) == 6.0f);
  CHECK(MiniFloatToFloat(0xF, kE2M1) == -6.0f);
}

TEST_CASE("tools_float8: float -> E5M2 keeps inf without saturate") {
  CHECK(E5(57344.0f) == 0x7B);
  CHECK(E5(60000.0f) == 0x7B);         // below the 61440 midpoint
  CHECK(E5(61440.0f) == 0x7B);         // tie rounds to 65536 (even), then saturates
  CHECK(E5(61440.0f, false) == 0x7C);  // ... or is inf
  CHECK(E5(kInf) == 0x7B);
  CHECK(E5(-kInf, false) == 0xFC);
  CHECK(E5(kNan) == 0x7E);
  CHECK(E5(std::ldexp(1.0f, -16)) == 0x01);
  CHECK(E5(-0.0f) == 0x80);
  CHECK(E5(1.125f) == 0x3C);           // tie between 1.0 (00) and 1.25 (01): 1.0
}

TEST_CASE("tools_float8: float -> E2M1 (no inf, no NaN: always saturates)") {
  CHECK(F4(0.25f) == 0x0);  // tie between 0 and 0.5
  CHECK(F4(0.75f) == 0x2);  // tie between 0.5 (odd) and 1.0
  CHECK(F4(2.5f) == 0x4);   // tie between 2 and 3 (odd)
  CHECK(F4(5.0f) == 0x6);   // tie between 4 and 6 (odd)
  CHECK(F4(7.0f) == 0x7);
  CHECK(F4(-3.5f) == 0xE);  // tie between -3 and -4: -4
  CHECK(F4(kInf) == 0x7);
  CHECK(F4(kNan) == 0x8);
}

TEST_CASE("tools_float8: E8M0 powers of two and round modes") {
  CHECK(FloatToE8M0(1.0f, true, E8M0Round::kUp) == 0x7F);
  CHECK(FloatToE8M0(1.5f, true, E8M0Round::kUp) == 0x80);
  CHECK(FloatToE8M0(1.5f, true, E8M0Round::kDown) == 0x7F);
  CHECK(FloatToE8M0(1.5f, true, E8M0Round::kNearest) == 0x80);  // tie goes up
  CHECK(FloatToE8M0(1.25f, true, E8M0Round::kNearest) == 0x7F);
  CHECK(FloatToE8M0(0.124f, true, E8M0Round::kUp) == 0x7C);      // 0.125 = 2^-3
  CHECK(FloatToE8M0(-2.0f, true, E8M0Round::kUp) == 0x80);       // the sign is dropped
  CHECK(FloatToE8M0(kNan, true, E8M0Round::kUp) == 0xFF);
  CHECK(FloatToE8M0(kInf, true, E8M0Round::kUp) == 0xFE);
  CHECK(FloatToE8M0(kInf, false, E8M0Round::kUp) == 0xFF);
  CHECK(FloatToE8M0(std::ldexp(1.5f, 127), true, E8M0Round::kUp) == 0xFE);
  CHECK(FloatToE8M0(std::ldexp(1.5f, 127), false, E8M0Round::kUp) == 0xFF);
  CHECK(std::isnan(E8M0ToFloat(0xFF)));
  CHECK(E8M0ToFloat(0x7F) == 1.0f);
  CHECK(E8M0ToFloat(0x00) == std::ldexp(1.0f, -127));
  CHECK(Int4Value(0x7) == 7);
  CHECK(Int4Value(0x8) == -8);
  CHECK(Int4Value(0xF) == -1);
}

TEST_CASE("tools_float8: FLOAT8 TensorProtos read, compare in float and write as '|V1' .npy") {
  const std::string dir = tools_test::FreshDir("float8_io");
  onnx::TensorProto p;
  p.set_data_type(17);  // FLOAT8E4M3FN
  p.add_dims(3);
  for (int v : {0x38, 0x7F, 0xC0}) p.add_int32_data(v);  // 1.0, NaN, -2.0
  tools_test::WriteBytes(dir + "/a.pb", p.SerializeAsString());
  HostTensor a = ReadOnnxTensorPb(dir + "/a.pb");
  CHECK(a.dtype == ge::DT_FLOAT8_E4M3FN);
  CHECK(a.data == std::vector<uint8_t>{0x38, 0x7F, 0xC0});
  HostTensor b = a;
  b.data[1] = 0xFF;  // the other NaN pattern: NaN equals NaN
  CHECK(Compare(a, b, 0.0, 0.0).ok);
  b.data[2] = 0xC1;  // -2.25
  Comparison c = Compare(a, b, 0.0, 0.0);
  CHECK_FALSE(c.ok);
  CHECK(c.first_bad_index == 2);
  CHECK(c.first_bad_expected == -2.25);
  WriteNpy(dir + "/a.npy", a);
  const std::string dict = "{'descr': '|V1', 'fortran_order': False, 'shape': (3,), }";
  CHECK(tools_test::ReadText(dir + "/a.npy").substr(10, dict.size()) == dict);
}
