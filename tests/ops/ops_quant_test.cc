// The quantized built-ins (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv) and ReverseSequence through the one-op
// harness, with hand-computed values: round half to even, saturation at both ends, per-axis
// scales and zero points, int32 inputs, padding/stride/dilation/group in the integer convolutions,
// and the error paths the Debian cases never reach (wrong parameter counts, int32 zero points,
// bad axes, out-of-range sequence lengths).
#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using I64 = std::vector<int64_t>;
using U8 = std::vector<uint8_t>;
using S8 = std::vector<int8_t>;
using I32 = std::vector<int32_t>;
using openatc_ops_half = _Float16;

HostTensor Fl(std::vector<int64_t> shape, const F &v) { return Tensor<float>(ge::DT_FLOAT, std::move(shape), v); }
HostTensor Sc(float v) { return Fl({}, {v}); }
HostTensor U(std::vector<int64_t> shape, const U8 &v) { return Tensor<uint8_t>(ge::DT_UINT8, std::move(shape), v); }
HostTensor S(std::vector<int64_t> shape, const S8 &v) { return Tensor<int8_t>(ge::DT_INT8, std::move(shape), v); }
HostTensor I(std::vector<int64_t> shape, const I32 &v) { return Tensor<int32_t>(ge::DT_INT32, std::move(shape), v); }
HostTensor L(std::vector<int64_t> shape, const I64 &v) { return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v); }

#define CHECK_FAILS_WITH(c, fragment)                  \
  do {                                                 \
    const std::string _t = RunOpExpectingFailure(c);   \
    INFO(_t);                                          \
    CHECK(_t.find("<no error>") == std::string::npos); \
    CHECK(_t.find(fragment) != std::string::npos);     \
  } while (0)
}  // namespace

TEST_CASE("QuantizeLinear: half to even, saturation, per axis, int32 x, default uint8", "[ops][quant]") {
  // x / 2 = -500, -1.5, -0.5, 0.5, 1.5, 2.5, 127, 500 -> -500, -2, 0, 0, 2, 2, 127, 500, + 128, saturated
  auto o = RunOp({"QuantizeLinear", {{Fl({8}, {-1000, -3, -1, 1, 3, 5, 254, 1000})}, {Sc(2)}, {U({}, {128})}}});
  CHECK(o[0].dtype == ge::DT_UINT8);
  CHECK(Values<uint8_t>(o[0]) == U8{0, 126, 128, 128, 130, 130, 255, 255});
  for (int64_t axis : {0, -2}) {
    o = RunOp({"QuantizeLinear",
               {{Fl({2, 2}, {1, -1, 10, 300})}, {Fl({2}, {1, 2})}, {S({2}, {0, -10})}},
               {{"axis", IntAttr(axis)}}});
    CHECK(o[0].dtype == ge::DT_INT8);
    CHECK(Values<int8_t>(o[0]) == S8{1, -1, -5, 127});
  }
  o = RunOp({"QuantizeLinear", {{Fl({3}, {-1, 0.4f, 0.6f})}, {Sc(1)}}});
  CHECK(o[0].dtype == ge::DT_UINT8);
  CHECK(Values<uint8_t>(o[0]) == U8{0, 0, 1});
  o = RunOp({"QuantizeLinear", {{I({2}, {5, 7})}, {Sc(2)}, {S({}, {-128})}}});  // 2.5 -> 2, 3.5 -> 4
  CHECK(Values<int8_t>(o[0]) == S8{-126, -124});
  CHECK_FAILS_WITH(OpCase("QuantizeLinear", {{Fl({2, 2}, {1, 2, 3, 4})}, {Fl({3}, {1, 1, 1})}}),
                   "y_scale has shape [3]; give a scalar or a 1-D tensor of 2 values");
  CHECK_FAILS_WITH(OpCase("QuantizeLinear", {{Fl({2}, {1, 2})}, {Fl({2}, {1, 1})}}, {{"axis", IntAttr(1)}}),
                   "axis 1 is out of range for x [2]");
}

TEST_CASE("QuantizeLinear: blocked (opset 21), output_dtype, 16-bit and float16 types", "[ops][quant]") {
  // blocks of 2 along axis 1 (3 columns: 2 blocks, the last one short); int16 from output_dtype
  auto o = RunOp({"QuantizeLinear",
                  {{Fl({2, 3}, {0, 1, 2, 3, -40000, 5})}, {Fl({2, 2}, {1, 2, 0.5f, 1})}},
                  {{"block_size", IntAttr(2)}, {"output_dtype", IntAttr(5)}}});
  CHECK(o[0].dtype == ge::DT_INT16);
  CHECK(Values<int16_t>(o[0]) == std::vector<int16_t>{0, 1, 1, 6, -32768, 5});
  o = RunOp({"QuantizeLinear", {{Fl({2}, {-1, 70000})}, {Sc(1)}, {Tensor<uint16_t>(ge::DT_UINT16, {}, {3})}}});
  CHECK(Values<uint16_t>(o[0]) == std::vector<uint16_t>{2, 65535});
  using H = openatc_ops_half;
  o = RunOp(
      {"QuantizeLinear", {{Tensor<H>(ge::DT_FLOAT16, {2}, {H(1), H(3)})}, {Tensor<H>(ge::DT_FLOAT16, {}, {H(2)})}}});
  CHECK(Values<uint8_t>(o[0]) == U8{0, 2});
  CHECK_FAILS_WITH(OpCase("QuantizeLinear", {{Fl({2, 3}, {0, 1, 2, 3, 4, 5})}, {Fl({2, 3}, {1, 1, 1, 1, 1, 1})}},
                          {{"block_size", IntAttr(2)}}),
                   "y_scale has shape [2, 3]; blocked quantization (block_size 2 on axis 1) wants [2, 2]");
  CHECK_FAILS_WITH(OpCase("QuantizeLinear", {{Fl({2}, {0, 1})}, {Sc(1)}, {U({}, {0})}}, {{"output_dtype", IntAttr(3)}}),
                   "output_dtype 3 differs from y_zero_point's dtype");
}

TEST_CASE("DequantizeLinear: per tensor, per axis, int32 x", "[ops][quant]") {
  auto o = RunOp({"DequantizeLinear", {{U({4}, {0, 3, 128, 255})}, {Sc(2)}, {U({}, {128})}}});
  CHECK(o[0].dtype == ge::DT_FLOAT);
  CHECK(Values<float>(o[0]) == F{-256, -250, 0, 254});
  o = RunOp({"DequantizeLinear", {{S({1, 2, 2}, {-128, 127, 0, 10})}, {Fl({2}, {0.5f, 4})}, {S({2}, {-128, 10})}}});
  CHECK(Values<float>(o[0]) == F{0, 127.5f, -40, 0});
  o = RunOp({"DequantizeLinear", {{I({2}, {-5, 7})}, {Sc(0.5f)}}});
  CHECK(Values<float>(o[0]) == F{-2.5f, 3.5f});
  CHECK_FAILS_WITH(OpCase("DequantizeLinear", {{I({2}, {-5, 7})}, {Sc(0.5f)}, {I({}, {3})}}),
                   "x is int32, so x_zero_point must be 0, got 3");
  CHECK_FAILS_WITH(
      OpCase("DequantizeLinear", {{U({2, 3}, {1, 2, 3, 4, 5, 6})}, {Fl({2}, {1, 1})}, {U({3}, {0, 0, 0})}}),
      "x_scale has shape [2]; give a scalar or a 1-D tensor of 3 values");
}

TEST_CASE("DequantizeLinear: blocked uint16, float16 scale", "[ops][quant]") {
  // x [4] in blocks of 2: (0 - 10) * 0.5, (10 - 10) * 0.5, 65535 * 2, 2 * 2
  auto o = RunOp({"DequantizeLinear",
                  {{Tensor<uint16_t>(ge::DT_UINT16, {4}, {0, 10, 65535, 2})},
                   {Fl({2}, {0.5f, 2})},
                   {Tensor<uint16_t>(ge::DT_UINT16, {2}, {10, 0})}},
                  {{"axis", IntAttr(0)}, {"block_size", IntAttr(2)}}});
  CHECK(Values<float>(o[0]) == F{-5, 0, 131070, 4});
  using H = openatc_ops_half;
  o = RunOp({"DequantizeLinear", {{S({2}, {-3, 5})}, {Tensor<H>(ge::DT_FLOAT16, {}, {H(0.5f)})}}});
  CHECK(o[0].dtype == ge::DT_FLOAT16);
  CHECK(Values<H>(o[0]) == std::vector<H>{H(-1.5f), H(2.5f)});
}

TEST_CASE("DynamicQuantizeLinear: mixed signs, all negative, all zero, NaN", "[ops][quant]") {
  // range [-51, 204]: scale 1, zero point 51; 0.5 -> 0 and 1.5 -> 2 (half to even)
  auto o = RunOp({"DynamicQuantizeLinear", {{Fl({4}, {-51, 0.5f, 1.5f, 204})}}, {}, 3});
  CHECK(Values<uint8_t>(o[0]) == U8{0, 51, 53, 255});
  CHECK(Values<float>(o[1]) == F{1});
  CHECK(o[1].shape.empty());
  CHECK(Values<uint8_t>(o[2]) == U8{51});
  o = RunOp({"DynamicQuantizeLinear", {{Fl({2}, {-255, -127.5f})}}, {}, 3});  // range [-255, 0]
  CHECK(Values<uint8_t>(o[0]) == U8{0, 127});
  CHECK(Values<uint8_t>(o[2]) == U8{255});
  o = RunOp({"DynamicQuantizeLinear", {{Fl({2}, {0, 0})}}, {}, 3});
  CHECK(Values<uint8_t>(o[0]) == U8{0, 0});
  CHECK(Values<float>(o[1]) == F{1.0f / 255.0f});
  CHECK(Values<uint8_t>(o[2]) == U8{0});
  CHECK_FAILS_WITH(OpCase("DynamicQuantizeLinear", {{Fl({2}, {1, std::nanf("")})}}, {}, 3), "x holds NaN at element 1");
}

TEST_CASE("MatMulInteger: per-row and per-column zero points, batch broadcast, 1-D A", "[ops][quant]") {
  // A - [1, 2] per row = {0,1,2, 2,3,4}; B - [0, 1] per column = {1,-1, 0,0, 1,0}
  auto o =
      RunOp({"MatMulInteger",
             {{U({2, 3}, {1, 2, 3, 4, 5, 6})}, {U({3, 2}, {1, 0, 0, 1, 1, 1})}, {U({2}, {1, 2})}, {U({2}, {0, 1})}}});
  CHECK(o[0].dtype == ge::DT_INT32);
  CHECK(o[0].shape == I64{2, 2});
  CHECK(Values<int32_t>(o[0]) == I32{2, 0, 6, -2});
  o = RunOp({"MatMulInteger", {{S({2, 1, 2}, {1, 2, -3, 4})}, {S({2, 1}, {5, -6})}}});
  CHECK(o[0].shape == I64{2, 1, 1});
  CHECK(Values<int32_t>(o[0]) == I32{-7, -39});
  o = RunOp({"MatMulInteger", {{U({2}, {1, 2})}, {U({2, 2}, {1, 2, 3, 4})}}});
  CHECK(o[0].shape == I64{2});
  CHECK(Values<int32_t>(o[0]) == I32{7, 10});
  // 33100 * 255 * 255 = 2152327500 exceeds int32: the int32 sum wraps to 2152327500 - 2^32
  o = RunOp({"MatMulInteger", {{U({1, 33100}, U8(33100, 255))}, {U({33100, 1}, U8(33100, 255))}}});
  CHECK(Values<int32_t>(o[0]) == I32{-2142639796});
  CHECK_FAILS_WITH(OpCase("MatMulInteger", {{U({2, 3}, {1, 2, 3, 4, 5, 6})}, {U({2, 2}, {1, 2, 3, 4})}}),
                   "do not agree on the inner dimension");
  CHECK_FAILS_WITH(OpCase("MatMulInteger", {{U({2, 2}, {1, 2, 3, 4})}, {U({2, 2}, {1, 2, 3, 4})}, {U({3}, {0, 0, 0})}}),
                   "a_zero_point has shape [3]; give a scalar or a 1-D tensor of 2 values (one per row of A)");
}

TEST_CASE("QLinearMatMul: rescale, half to even, int8 saturation", "[ops][quant]") {
  // a - 10 = {0, 10}; acc = {20, 40}; * 0.5 * 0.25 / 1 = 2.5 -> 2, 5 -> 5; + 100
  auto o = RunOp({"QLinearMatMul",
                  {{U({1, 2}, {10, 20})},
                   {Sc(0.5f)},
                   {U({}, {10})},
                   {U({2, 2}, {1, 2, 2, 4})},
                   {Sc(0.25f)},
                   {U({}, {0})},
                   {Sc(1)},
                   {U({}, {100})}}});
  CHECK(o[0].dtype == ge::DT_UINT8);
  CHECK(Values<uint8_t>(o[0]) == U8{102, 105});
  // multiplier 12.5: 250 - 128 = 122, 500 - 128 saturates to 127
  o = RunOp({"QLinearMatMul",
             {{U({1, 2}, {10, 20})},
              {Sc(0.5f)},
              {U({}, {10})},
              {U({2, 2}, {1, 2, 2, 4})},
              {Sc(0.25f)},
              {U({}, {0})},
              {Sc(0.01f)},
              {S({}, {-128})}}});
  CHECK(o[0].dtype == ge::DT_INT8);
  CHECK(Values<int8_t>(o[0]) == S8{122, 127});
}

TEST_CASE("ConvInteger: zero points, pads and strides, dilations, group with per-channel w_zero_point",
          "[ops][quant]") {
  auto o = RunOp(
      {"ConvInteger", {{U({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}, {U({1, 1, 2, 2}, {1, 1, 1, 1})}, {U({}, {1})}}});
  CHECK(o[0].dtype == ge::DT_INT32);
  CHECK(o[0].shape == I64{1, 1, 2, 2});
  CHECK(Values<int32_t>(o[0]) == I32{8, 12, 20, 24});
  // padding holds the zero point (0 after the shift)
  o = RunOp({"ConvInteger",
             {{U({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}, {U({1, 1, 2, 2}, {1, 1, 1, 1})}, {U({}, {1})}},
             {{"pads", IntsAttr({1, 1, 1, 1})}, {"strides", IntsAttr({2, 2})}}});
  CHECK(o[0].shape == I64{1, 1, 2, 2});
  CHECK(Values<int32_t>(o[0]) == I32{0, 3, 9, 24});
  o = RunOp({"ConvInteger",
             {{S({1, 2, 1, 2}, {1, 2, 3, 4})}, {S({2, 1, 1, 1}, {2, 3})}, {}, {S({2}, {1, -1})}},
             {{"group", IntAttr(2)}}});
  CHECK(Values<int32_t>(o[0]) == I32{1, 2, 12, 16});
  o = RunOp({"ConvInteger",
             {{U({1, 1, 1, 5}, {0, 1, 2, 3, 4})}, {U({1, 1, 1, 2}, {1, 1})}},
             {{"dilations", IntsAttr({1, 2})}}});
  CHECK(o[0].shape == I64{1, 1, 1, 3});
  CHECK(Values<int32_t>(o[0]) == I32{2, 4, 6});
  CHECK_FAILS_WITH(OpCase("ConvInteger", {{U({1, 3, 1, 1}, {1, 2, 3})}, {U({1, 2, 1, 1}, {1, 1})}}),
                   "x has 3 channels but w [1, 2, 1, 1] with group 1 expects 2");
}

TEST_CASE("QLinearConv: bias, per-channel w scale and zero point, half to even", "[ops][quant]") {
  // ch0: (x + 1) * 0.5 = 1.5, 2.5, 3.5, 4.5 -> 2, 2, 4, 4; ch1: (2x - 1) * 0.25 -> 1, 2, 3, 4; + 10
  auto o = RunOp({"QLinearConv",
                  {{U({1, 1, 2, 2}, {2, 4, 6, 8})},
                   {Sc(0.5f)},
                   {U({}, {0})},
                   {U({2, 1, 1, 1}, {1, 3})},
                   {Fl({2}, {1, 0.5f})},
                   {U({2}, {0, 1})},
                   {Sc(1)},
                   {U({}, {10})},
                   {I({2}, {1, -1})}}});
  CHECK(o[0].dtype == ge::DT_UINT8);
  CHECK(o[0].shape == I64{1, 2, 2, 2});
  CHECK(Values<uint8_t>(o[0]) == U8{12, 12, 14, 14, 11, 12, 13, 14});
  CHECK_FAILS_WITH(OpCase("QLinearConv", {{U({1, 1, 1, 1}, {2})},
                                          {Sc(1)},
                                          {U({}, {0})},
                                          {U({2, 1, 1, 1}, {1, 3})},
                                          {Fl({3}, {1, 1, 1})},
                                          {U({}, {0})},
                                          {Sc(1)},
                                          {U({}, {0})}}),
                   "w_scale has shape [3]; give a scalar or a 1-D tensor of 2 values (one per output channel)");
}

TEST_CASE("ReverseSequence: time-major and batch-major, lengths 0 and full, errors", "[ops][quant]") {
  auto o = RunOp({"ReverseSequence", {{Fl({3, 2}, {0, 1, 2, 3, 4, 5})}, {L({2}, {3, 2})}}});
  CHECK(Values<float>(o[0]) == F{4, 3, 2, 1, 0, 5});
  o = RunOp({"ReverseSequence",
             {{I({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})}, {L({2}, {0, 3})}},
             {{"batch_axis", IntAttr(0)}, {"time_axis", IntAttr(1)}}});
  CHECK(Values<int32_t>(o[0]) == I32{0, 1, 2, 3, 4, 5, 10, 11, 8, 9, 6, 7});
  CHECK_FAILS_WITH(OpCase("ReverseSequence", {{Fl({3, 2}, {0, 1, 2, 3, 4, 5})}, {L({2}, {4, 1})}}),
                   "sequence_lens[0] = 4 is outside [0, 3]");
  CHECK_FAILS_WITH(OpCase("ReverseSequence", {{Fl({3, 2}, {0, 1, 2, 3, 4, 5})}, {L({3}, {1, 1, 1})}}),
                   "sequence_lens has 3 values but the batch dim is 2");
  CHECK_FAILS_WITH(
      OpCase("ReverseSequence", {{Fl({3, 2}, {0, 1, 2, 3, 4, 5})}, {L({2}, {1, 1})}}, {{"batch_axis", IntAttr(0)}}),
      "batch_axis 0 and time_axis 0 must be 0 and 1 in some order");
}
