// The packed 4-bit types (INT4, UINT4, FLOAT4E2M1: two per byte, low nibble first) and the FNUZ
// float8 types (openatc/private_dtype.h, include/openatc/minifloat.h) on hand-worked values: every
// INT4/UINT4 nibble, the 16 E2M1 patterns, FNUZ NaN / zero / max / min subnormal with saturate on
// and off; omrun's files: packed .pb (raw_data and int32_data, odd counts), .bin, one element per
// byte '|V1' .npy, comparison by value, and the dtype names.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/minifloat.h"
#include "openatc/onnx_dtype.h"
#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc;
using namespace openatc::tensor_io;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
uint32_t E4Z(float f, bool sat = true) { return FloatToMiniFloat(f, kE4M3FNUZ, sat); }
uint32_t E5Z(float f, bool sat = true) { return FloatToMiniFloat(f, kE5M2FNUZ, sat); }
}  // namespace

TEST_CASE("tools_packed4: every INT4 and UINT4 nibble, packed low nibble first") {
  const int int4[16] = {0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1};
  for (uint32_t n = 0; n < 16; ++n) CHECK(Int4Value(n) == int4[n]);
  CHECK(Int4Value(0x1F) == -1);  // only the low 4 bits count
  const uint8_t packed[] = {0x21, 0xF8, 0x07};  // elements 1, 2, 8, 15, 7 (the last high nibble 0)
  CHECK(GetNibble(packed, 0) == 1);
  CHECK(GetNibble(packed, 1) == 2);
  CHECK(GetNibble(packed, 2) == 8);
  CHECK(GetNibble(packed, 3) == 15);
  CHECK(GetNibble(packed, 4) == 7);
  uint8_t out[3] = {0, 0, 0};
  for (int64_t i = 0; i < 5; ++i) SetNibble(out, i, GetNibble(packed, i));
  CHECK(std::vector<uint8_t>(out, out + 3) == std::vector<uint8_t>{0x21, 0xF8, 0x07});
  SetNibble(out, 1, 0x1C);  // only the low 4 bits, the other nibble kept
  CHECK(out[0] == 0xC1);
  CHECK(PackedNibbleBytes(5) == 3);
  CHECK(PackedNibbleBytes(4) == 2);
  CHECK(PackedNibbleBytes(0) == 0);
}

TEST_CASE("tools_packed4: the 16 FLOAT4E2M1 values") {
  const float v[16] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                       -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};
  for (uint32_t n = 0; n < 16; ++n) {
    CHECK(MiniFloatToFloat(n, kE2M1) == v[n]);
    CHECK(std::signbit(MiniFloatToFloat(n, kE2M1)) == (n >= 8));
    CHECK(FloatToMiniFloat(v[n], kE2M1, true) == n);  // each value round-trips
  }
}

TEST_CASE("tools_packed4: FNUZ float8 decode (NaN 0x80, no -0, no inf)") {
  CHECK(std::isnan(MiniFloatToFloat(0x80, kE4M3FNUZ)));
  CHECK(std::isnan(MiniFloatToFloat(0x80, kE5M2FNUZ)));
  CHECK(MiniFloatToFloat(0x00, kE4M3FNUZ) == 0.0f);
  CHECK(MiniFloatToFloat(0x40, kE4M3FNUZ) == 1.0f);    // exponent 8 = bias
  CHECK(MiniFloatToFloat(0x7F, kE4M3FNUZ) == 240.0f);  // max: 1.875 * 2^7
  CHECK(MiniFloatToFloat(0xFF, kE4M3FNUZ) == -240.0f);
  CHECK(MiniFloatToFloat(0x01, kE4M3FNUZ) == std::ldexp(1.0f, -10));  // min subnormal
  CHECK(MiniFloatToFloat(0x08, kE4M3FNUZ) == std::ldexp(1.0f, -7));   // min normal
  CHECK(MiniFloatToFloat(0x40, kE5M2FNUZ) == 1.0f);    // exponent 16 = bias (E5M2's 1.0 is 0x3C)
  CHECK(MiniFloatToFloat(0x3C, kE5M2FNUZ) == 0.5f);
  CHECK(MiniFloatToFloat(0x7F, kE5M2FNUZ) == 57344.0f);  // max: 1.75 * 2^15 (no inf slot)
  CHECK(MiniFloatToFloat(0x7C, kE5M2FNUZ) == 32768.0f);
  CHECK(MiniFloatToFloat(0x01, kE5M2FNUZ) == std::ldexp(1.0f, -17));
}

TEST_CASE("tools_packed4: float -> FNUZ float8 with saturate on and off") {
  CHECK(E4Z(1.0f) == 0x40);
  CHECK(E4Z(240.0f) == 0x7F);
  CHECK(E4Z(247.0f) == 0x7F);          // below the 248 midpoint
  CHECK(E4Z(248.0f) == 0x7F);          // tie rounds to 256 (even), then saturates
  CHECK(E4Z(248.0f, false) == 0x80);   // ... or is NaN
  CHECK(E4Z(247.0f, false) == 0x7F);
  CHECK(E4Z(-1e6f) == 0xFF);
  CHECK(E4Z(-1e6f, false) == 0x80);
  CHECK(E4Z(kInf) == 0x7F);
  CHECK(E4Z(-kInf) == 0xFF);
  CHECK(E4Z(kInf, false) == 0x80);
  CHECK(E4Z(kNan) == 0x80);
  CHECK(E4Z(kNan, false) == 0x80);
  CHECK(E4Z(-0.0f) == 0x00);                        // no negative zero
  CHECK(E4Z(-std::ldexp(1.0f, -12)) == 0x00);       // rounds to zero: +0
  CHECK(E4Z(std::ldexp(1.0f, -10)) == 0x01);        // min subnormal
  CHECK(E4Z(std::ldexp(1.0f, -11)) == 0x00);        // tie between 0 and 2^-10: 0
  CHECK(E4Z(std::ldexp(3.0f, -11)) == 0x02);        // tie between 2^-10 (odd) and 2^-9
  CHECK(E4Z(-std::ldexp(1.0f, -10)) == 0x81);
  CHECK(E5Z(57344.0f) == 0x7F);
  CHECK(E5Z(61440.0f) == 0x7F);                     // tie up to 65536, saturated
  CHECK(E5Z(61440.0f, false) == 0x80);
  CHECK(E5Z(60000.0f, false) == 0x7F);
  CHECK(E5Z(-kInf, false) == 0x80);
  CHECK(E5Z(-2.0f) == 0xC4);
  CHECK(E5Z(std::ldexp(1.0f, -17)) == 0x01);
  CHECK(E5Z(-0.0f) == 0x00);
}

TEST_CASE("tools_packed4: the private dtype values, names and sizes") {
  CHECK(static_cast<int>(kDtUint4) == 63);
  CHECK(static_cast<int>(kDtFloat8E4M3FNUZ) == 62);
  CHECK(static_cast<int>(kDtFloat8E5M2FNUZ) == 61);
  CHECK(IsKnownDataTypeValue(61));
  CHECK(IsKnownDataTypeValue(63));
  CHECK(IsKnownDataTypeValue(43));
  CHECK_FALSE(IsKnownDataTypeValue(60));
  CHECK_FALSE(IsKnownDataTypeValue(44));
  CHECK_FALSE(IsKnownDataTypeValue(64));
  CHECK_FALSE(IsKnownDataTypeValue(-1));
  CHECK(DataTypeShortName(kDtUint4) == "uint4");
  CHECK(DataTypeShortName(kDtFloat8E4M3FNUZ) == "float8_e4m3fnuz");
  CHECK(DataTypeShortName(kDtFloat8E5M2FNUZ) == "float8_e5m2fnuz");
  CHECK(DataTypeName(kDtUint4) == "DT_UINT4 (OpenATC)");
  CHECK(DataTypeSize(kDtFloat8E4M3FNUZ) == 1);
  CHECK(SubByteBits(kDtUint4) == 4);
  CHECK(TensorByteSize(kDtUint4, {5}).value() == 3);
  CHECK(TensorByteSize(ge::DT_INT4, {2, 3}).value() == 3);
  CHECK(TensorByteSize(ge::DT_FLOAT4_E2M1, {7}).value() == 4);
  ge::DataType d = ge::DT_UNDEFINED;
  CHECK(GeDataTypeFromOnnx(21, &d, true));
  CHECK(d == kDtUint4);
  CHECK(GeDataTypeFromOnnx(22, &d, true));
  CHECK(d == ge::DT_INT4);
  CHECK(GeDataTypeFromOnnx(23, &d, true));
  CHECK(d == ge::DT_FLOAT4_E2M1);
  CHECK(GeDataTypeFromOnnx(18, &d, true));
  CHECK(d == kDtFloat8E4M3FNUZ);
  CHECK(GeDataTypeFromOnnx(20, &d, true));
  CHECK(d == kDtFloat8E5M2FNUZ);
}

TEST_CASE("tools_packed4: packed TensorProtos, .bin and .npy files, comparison by value") {
  const std::string dir = tools_test::FreshDir("packed4_io");
  onnx::TensorProto p;
  p.set_data_type(22);  // INT4, raw_data: elements -1, 7, -8 (the last byte's high nibble set: ignored)
  p.add_dims(3);
  p.set_raw_data(std::string("\x7F\xF8", 2));
  tools_test::WriteBytes(dir + "/a.pb", p.SerializeAsString());
  HostTensor a = ReadOnnxTensorPb(dir + "/a.pb");
  CHECK(a.dtype == ge::DT_INT4);
  CHECK(a.data == std::vector<uint8_t>{0x7F, 0x08});
  onnx::TensorProto q;
  q.set_data_type(21);  // UINT4 in int32_data: one packed byte per value
  q.add_dims(3);
  q.add_int32_data(0x21);
  q.add_int32_data(0x0F);
  tools_test::WriteBytes(dir + "/b.pb", q.SerializeAsString());
  HostTensor b = ReadOnnxTensorPb(dir + "/b.pb");
  CHECK(b.dtype == kDtUint4);
  CHECK(b.data == std::vector<uint8_t>{0x21, 0x0F});
  q.add_int32_data(0);  // 3 packed values for 3 elements: refused
  tools_test::WriteBytes(dir + "/c.pb", q.SerializeAsString());
  CHECK_THROWS_AS(ReadOnnxTensorPb(dir + "/c.pb"), Error);
  p.set_raw_data(std::string("\x7F", 1));  // 1 byte for 3 elements: refused
  tools_test::WriteBytes(dir + "/d.pb", p.SerializeAsString());
  CHECK_THROWS_AS(ReadOnnxTensorPb(dir + "/d.pb"), Error);

  HostTensor e = a;
  e.data[1] = 0xF8;  // only the unused nibble differs: equal
  CHECK(Compare(a, e, 0.0, 0.0).ok);
  e.data[0] = 0x6F;  // element 1: 6 instead of 7
  Comparison c = Compare(a, e, 0.0, 0.0);
  CHECK_FALSE(c.ok);
  CHECK(c.first_bad_index == 1);
  CHECK(c.first_bad_actual == 7.0);
  CHECK(c.first_bad_expected == 6.0);

  HostTensor f;  // FLOAT4E2M1 [2]: 1.5 and -6, compared as floats
  f.dtype = ge::DT_FLOAT4_E2M1;
  f.shape = {2};
  f.data = {0xF3};
  HostTensor g = f;
  g.data = {0xF4};  // 2.0 instead of 1.5
  CHECK(Compare(f, g, 0.5, 0.0).ok);
  CHECK_FALSE(Compare(f, g, 0.0, 0.0).ok);

  // .npy: one element per byte, the low 4 bits, '|V1'
  WriteNpy(dir + "/a.npy", a);
  const std::string npy = tools_test::ReadText(dir + "/a.npy");
  const std::string dict = "{'descr': '|V1', 'fortran_order': False, 'shape': (3,), }";
  CHECK(npy.substr(10, dict.size()) == dict);
  CHECK(npy.substr(npy.size() - 3) == std::string("\x0F\x07\x08", 3));
  // .bin: the packed bytes, checked against the model's dtype and shape
  tools_test::WriteBytes(dir + "/a.bin", std::string("\x7F\x08", 2));
  HostTensor h = LoadTensorFile(dir + "/a.bin", "input 0", ge::DT_INT4, {3});
  CHECK(h.data == std::vector<uint8_t>{0x7F, 0x08});
  CHECK_THROWS_AS(LoadTensorFile(dir + "/a.bin", "input 0", ge::DT_INT4, {5}), Error);

  onnx::TensorProto z;
  z.set_data_type(18);  // FLOAT8E4M3FNUZ: 1.0, NaN
  z.add_dims(2);
  z.set_raw_data(std::string("\x40\x80", 2));
  tools_test::WriteBytes(dir + "/z.pb", z.SerializeAsString());
  HostTensor zt = ReadOnnxTensorPb(dir + "/z.pb");
  CHECK(zt.dtype == kDtFloat8E4M3FNUZ);
  HostTensor zu = zt;
  zu.data[0] = 0x41;  // 1.125
  CHECK(Compare(zt, zt, 0.0, 0.0).ok);  // NaN == NaN
  CHECK_FALSE(Compare(zt, zu, 0.0, 0.0).ok);
}
