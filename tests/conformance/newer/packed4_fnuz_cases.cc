// INT4 / UINT4 / FLOAT4E2M1 (packed two per byte, low nibble first) and FLOAT8E4M3FNUZ /
// FLOAT8E5M2FNUZ cases of the opset-18+ set: Cast, CastLike, QuantizeLinear, DequantizeLinear,
// odd element counts, initializers in int32_data. Expected values worked by hand: INT4 [-8, 7],
// UINT4 [0, 15], Cast wraps into the low 4 bits (ONNX 1.19's own Cast data: -9 -> 7); E2M1 values
// 0, 0.5, 1, 1.5, 2, 3, 4, 6 (ties to even, saturating); E4M3FNUZ bias 8, max 240 = 0x7F, min
// subnormal 2^-10; E5M2FNUZ bias 16, max 57344 = 0x7F, min subnormal 2^-17; NaN 0x80, no -0.
#include <onnx/defs/attr_proto_util.h>

#include <limits>

#include "newer_model.h"

namespace openatc::newer {
namespace {
constexpr int32_t kU4 = 21, kI4 = 22, kF4 = 23, kE4Z = 18, kE5Z = 20;

onnx::AttributeProto To(int32_t t) { return onnx::MakeAttribute("to", int64_t{t}); }

void Packed4Cases(const std::string &root) {
  Case a("test_cast_21_float_to_int4_odd", 21, 10);  // trunc then wrap: -9 -> 7, -8 -> 8, -2.0 -> 0xE
  a.Input("x", {5}, {-9.0f, -8.0f, 7.0f, 2.0f, -2.0f});
  a.AddNode("Cast", {"x"}, {"y"}, {To(kI4)});
  a.OutputRaw("y", kI4, {5}, {0x87, 0x27, 0x0E});
  a.Write(root);
  Case b("test_cast_21_uint4_to_float_odd", 21, 10);  // nibbles 0, 15, 9
  b.InputRaw("x", kU4, {3}, {0xF0, 0x09});
  b.AddNode("Cast", {"x"}, {"y"}, {To(onnx::TensorProto::FLOAT)});
  b.Output("y", {3}, {0.0f, 15.0f, 9.0f});
  b.Write(root);
  Case c("test_cast_21_int4_to_int8", 21, 10);  // nibbles F, 8, 1, 7: -1, -8, 1, 7
  c.InputRaw("x", kI4, {4}, {0x8F, 0x71});
  c.AddNode("Cast", {"x"}, {"y"}, {To(onnx::TensorProto::INT8)});
  c.OutputRaw("y", onnx::TensorProto::INT8, {4}, {0xFF, 0xF8, 0x01, 0x07});
  c.Write(root);
  Case d("test_cast_23_float_to_float4e2m1", 23, 11);  // 1.25 -> 1, 1.75 -> 2, 7 -> 6, -0.75 -> -1, 5 -> 4
  d.Input("x", {5}, {1.25f, 1.75f, 7.0f, -0.75f, 5.0f});
  d.AddNode("Cast", {"x"}, {"y"}, {To(kF4)});
  d.OutputRaw("y", kF4, {5}, {0x42, 0xA7, 0x06});
  d.Write(root);
  Case e("test_cast_23_float4e2m1_to_float", 23, 11);  // 0x1, 0xF, 0xD: 0.5, -6, -3
  e.InputRaw("x", kF4, {3}, {0xF1, 0x0D});
  e.AddNode("Cast", {"x"}, {"y"}, {To(onnx::TensorProto::FLOAT)});
  e.Output("y", {3}, {0.5f, -6.0f, -3.0f});
  e.Write(root);
  Case f("test_castlike_21_float_to_uint4", 21, 10);  // 3, 16 -> 0, -1 -> 15
  f.Input("x", {3}, {3.0f, 16.0f, -1.0f});
  f.InputRaw("like", kU4, {1}, {0x00});
  f.AddNode("CastLike", {"x", "like"}, {"y"});
  f.OutputRaw("y", kU4, {3}, {0x03, 0x0F});
  f.Write(root);
  // round(x / 2) + 1 saturated into [-8, 7]: -9 -> -8, -1.5 -> -2 + 1, 1.5 -> 2 + 1, 2.5 -> 2 + 1, 51 -> 7
  Case g("test_quantizelinear_21_int4_odd", 21, 10);
  g.Input("x", {5}, {-20.0f, -3.0f, 3.0f, 5.0f, 100.0f});
  g.FloatInit("s", {}, {2.0f});
  g.Int32DataInit("z", kI4, {}, {0x01});  // one packed byte in int32_data
  g.AddNode("QuantizeLinear", {"x", "s", "z"}, {"y"});
  g.OutputRaw("y", kI4, {5}, {0xF8, 0x33, 0x07});
  g.Write(root);
  // axis 0: row 0 x / 2 + 1 (0.5 -> 0, 15.5 -> 16, -2), row 1 x / 3 + 8 (10/3 -> 3, 2/3 -> 1, 15), in [0, 15]
  Case h("test_quantizelinear_21_uint4_per_axis", 21, 10);
  h.Input("x", {2, 3}, {1.0f, 31.0f, -4.0f, 10.0f, 2.0f, 45.0f});
  h.FloatInit("s", {2}, {2.0f, 3.0f});
  h.Int32DataInit("z", kU4, {2}, {0x81});  // zero points 1 and 8
  h.AddNode("QuantizeLinear", {"x", "s", "z"}, {"y"}, {onnx::MakeAttribute("axis", int64_t{0})});
  h.OutputRaw("y", kU4, {2, 3}, {0xF1, 0xB0, 0xF9});
  h.Write(root);
  Case i("test_dequantizelinear_21_int4_odd", 21, 10);  // (x - (-2)) * 0.5 for x = -1, 7, -8
  i.InputRaw("x", kI4, {3}, {0x7F, 0x08});
  i.FloatInit("s", {}, {0.5f});
  i.Int32DataInit("z", kI4, {}, {0x0E});
  i.AddNode("DequantizeLinear", {"x", "s", "z"}, {"y"});
  i.Output("y", {3}, {0.5f, 4.5f, -3.0f});
  i.Write(root);
  Case j("test_dequantizelinear_23_float4e2m1", 23, 11);  // 2 * (-1, 1.5, -6, 6)
  j.InputRaw("x", kF4, {4}, {0x3A, 0x7F});
  j.FloatInit("s", {}, {2.0f});
  j.AddNode("DequantizeLinear", {"x", "s"}, {"y"});
  j.Output("y", {4}, {-2.0f, 3.0f, -12.0f, 12.0f});
  j.Write(root);
}

void FnuzCases(const std::string &root) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // 1 -> 0x40; 240 max; 300 and -inf clamp; NaN 0x80; -0 -> 0x00; 2^-10 min subnormal; -2^-12 -> 0x00
  Case a("test_cast_19_float_to_e4m3fnuz_saturate", 19, 9);
  a.Input("x", {8}, {1.0f, 240.0f, 300.0f, -inf, nan, -0.0f, 0.0009765625f, -0.000244140625f});
  a.AddNode("Cast", {"x"}, {"y"}, {To(kE4Z)});
  a.OutputRaw("y", kE4Z, {8}, {0x40, 0x7F, 0x7F, 0xFF, 0x80, 0x00, 0x01, 0x00});
  a.Write(root);
  // 244 rounds to 240; 248 ties up to 256, beyond max: NaN; -inf: NaN
  Case b("test_cast_19_float_to_e4m3fnuz_no_saturate", 19, 9);
  b.Input("x", {8}, {1.0f, 244.0f, 248.0f, -inf, nan, -0.0f, 0.0009765625f, -0.000244140625f});
  b.AddNode("Cast", {"x"}, {"y"}, {To(kE4Z), onnx::MakeAttribute("saturate", int64_t{0})});
  b.OutputRaw("y", kE4Z, {8}, {0x40, 0x7F, 0x80, 0x80, 0x80, 0x00, 0x01, 0x00});
  b.Write(root);
  Case c("test_cast_19_e5m2fnuz_to_float", 19, 9);  // 2^-17, max 57344, NaN, -1
  c.InputRaw("x", kE5Z, {4}, {0x01, 0x7F, 0x80, 0xC0});
  c.AddNode("Cast", {"x"}, {"y"}, {To(onnx::TensorProto::FLOAT)});
  c.Output("y", {4}, {7.62939453125e-06f, 57344.0f, nan, -1.0f});
  c.Write(root);
  Case d("test_quantizelinear_19_e4m3fnuz", 19, 9);  // x / 2: 1.5 -> 0x44, -500 -> -240, 0.25 -> 0x30
  d.Input("x", {3}, {3.0f, -1000.0f, 0.5f});
  d.FloatInit("s", {}, {2.0f});
  d.InputRaw("z", kE4Z, {}, {0x00});
  d.AddNode("QuantizeLinear", {"x", "s", "z"}, {"y"});
  d.OutputRaw("y", kE4Z, {3}, {0x44, 0xFF, 0x30});
  d.Write(root);
  Case e("test_dequantizelinear_19_e5m2fnuz", 19, 9);  // 0.5 * (2, -2, NaN)
  e.InputRaw("x", kE5Z, {3}, {0x44, 0xC4, 0x80});
  e.FloatInit("s", {}, {0.5f});
  e.AddNode("DequantizeLinear", {"x", "s"}, {"y"});
  e.Output("y", {3}, {1.0f, -1.0f, nan});
  e.Write(root);
}
}  // namespace

void Packed4FnuzCases(const std::string &root) {
  Packed4Cases(root);
  FnuzCases(root);
}

}  // namespace openatc::newer
