// float8 cases of the opset-18+ set: Cast with and without saturate, Cast-24's E8M0 round_mode,
// CastLike, QuantizeLinear / DequantizeLinear into and out of E4M3FN / E5M2. Expected bit
// patterns worked by hand (E4M3FN: bias 7, 3 mantissa bits, max 448 = 0x7E, NaN 0x7F; E5M2:
// bias 15, 2 mantissa bits, max 57344 = 0x7B, inf 0x7C; E8M0: 2^(e-127)).
#include <onnx/defs/attr_proto_util.h>

#include <limits>

#include "newer_model.h"

namespace openatc::newer {

void Float8Cases(const std::string &root) {
  constexpr int32_t kE4 = 17, kE5 = 19, kE8 = 24;
  const float inf = std::numeric_limits<float>::infinity();
  // 1.0625 ties to 1.0 (even), 1.1875 to 1.25, 464 to 448, 2^-10 to 0, -0 keeps its sign.
  const std::vector<float> x = {1.0625f, 1.1875f, 464.0f, 1000.0f, -inf, 0.0009765625f, -0.0f, -3.0f};
  Case a("test_cast_19_float_to_e4m3fn_saturate", 19, 9);
  a.Input("x", {8}, x);
  a.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{kE4})});
  a.OutputRaw("y", kE4, {8}, {0x38, 0x3A, 0x7E, 0x7E, 0xFE, 0x00, 0x80, 0xC4});
  a.Write(root);
  Case b("test_cast_19_float_to_e4m3fn_no_saturate", 19, 9);  // 1000 and -inf: NaN (no inf in E4M3FN)
  b.Input("x", {8}, x);
  b.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{kE4}), onnx::MakeAttribute("saturate", int64_t{0})});
  b.OutputRaw("y", kE4, {8}, {0x38, 0x3A, 0x7E, 0x7F, 0xFF, 0x00, 0x80, 0xC4});
  b.Write(root);
  Case c("test_cast_19_float_to_e5m2_no_saturate", 19, 9);  // 61440 ties up to 65536: inf
  c.Input("x", {4}, {61440.0f, 60000.0f, 1.125f, -inf});
  c.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{kE5}), onnx::MakeAttribute("saturate", int64_t{0})});
  c.OutputRaw("y", kE5, {4}, {0x7C, 0x7B, 0x3C, 0xFC});
  c.Write(root);
  Case d("test_cast_19_e5m2_to_float", 19, 9);  // min subnormal 2^-16, max, inf
  d.InputRaw("x", kE5, {4}, {0x01, 0x7B, 0x7C, 0xC1});
  d.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{onnx::TensorProto::FLOAT})});
  d.Output("y", {4}, {1.52587890625e-05f, 57344.0f, inf, -2.5f});
  d.Write(root);
  Case e("test_cast_24_float_to_e8m0_nearest", 24, 11);  // 1.5 ties up, 1.25 down, 3 -> 4, -2 -> 2
  e.Input("x", {4}, {1.5f, 1.25f, 3.0f, -2.0f});
  e.AddNode("Cast", {"x"}, {"y"}, {onnx::MakeAttribute("to", int64_t{kE8}),
                                  onnx::MakeAttribute("round_mode", std::string("nearest"))});
  e.OutputRaw("y", kE8, {4}, {0x80, 0x7F, 0x81, 0x80});
  e.Write(root);
  Case f("test_castlike_19_float_to_e4m3fn", 19, 9);
  f.Input("x", {3}, {0.5f, -448.0f, 2.0f});
  f.InputRaw("like", kE4, {1}, {0x00});
  f.AddNode("CastLike", {"x", "like"}, {"y"});
  f.OutputRaw("y", kE4, {3}, {0x30, 0xFE, 0x40});
  f.Write(root);
  Case g("test_quantizelinear_19_e4m3fn_per_axis", 19, 9);  // y = x / scale[axis 1], rounded into E4M3FN
  g.Input("x", {2, 2}, {3.0f, 100.0f, -1.0f, 2000.0f});
  g.FloatInit("s", {2}, {2.0f, 4.0f});
  g.InputRaw("z", kE4, {2}, {0x00, 0x00});
  g.AddNode("QuantizeLinear", {"x", "s", "z"}, {"y"}, {onnx::MakeAttribute("axis", int64_t{1})});
  g.OutputRaw("y", kE4, {2, 2}, {0x3C, 0x5C, 0xB0, 0x7E});  // 1.5, 25 -> 24, -0.5, 500 -> 448
  g.Write(root);
  Case h("test_dequantizelinear_19_e5m2_zero_point", 19, 9);  // (x - 1.0) * 0.5
  h.InputRaw("x", kE5, {3}, {0x40, 0x3C, 0xC2});            // 2.0, 1.0, -3.0
  h.FloatInit("s", {}, {0.5f});
  h.Int32DataInit("z", kE5, {}, {0x3C});  // an initializer in int32_data
  h.AddNode("DequantizeLinear", {"x", "s", "z"}, {"y"});
  h.Output("y", {3}, {0.5f, 0.0f, -2.0f});
  h.Write(root);
}

}  // namespace openatc::newer
