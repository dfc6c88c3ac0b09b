// Part-B built-ins (data movement, shape and constant ops) through the one-op harness, with
// hand-computed values, data-dependent shapes (shape-like inputs fed as Data, not Const), and the
// error paths, whose op messages (printed on stderr by openatc_ops::Fail) are checked.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using I64 = std::vector<int64_t>;

HostTensor Fl(std::vector<int64_t> shape, const F &v) { return Tensor<float>(ge::DT_FLOAT, std::move(shape), v); }
HostTensor In(std::vector<int64_t> shape, const I64 &v) { return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v); }
HostTensor Iota(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  F v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<float>(i));
  return Fl(std::move(shape), v);
}

// Runs `c`, expecting failure; returns the Error's text plus everything printed on stderr.
std::string FailureText(const OpCase &c) {
  const std::string text = RunOpExpectingFailure(c);
  CHECK(text.find("<no error>") == std::string::npos);
  return text;
}

#define CHECK_FAILS_WITH(c, fragment)                      \
  do {                                                     \
    const std::string _t = FailureText(c);                 \
    INFO(_t);                                              \
    CHECK(_t.find(fragment) != std::string::npos);         \
  } while (0)

ir::AttrValue TensorAttr(const HostTensor &h) {
  ir::AttrValue v;
  v.kind = ir::AttrKind::kTensor;
  v.t = std::make_shared<ir::ConstTensor>();
  v.t->desc.dtype = h.dtype;
  v.t->desc.shape = h.shape;
  v.t->desc.origin_shape = h.shape;
  v.t->data = ir::Bytes::Copy(h.data.data(), h.data.size());
  return v;
}
}  // namespace

TEST_CASE("Reshape: -1, 0 and allowzero, with a Const or a run-time shape", "[ops]") {
  for (bool as_const : {true, false}) {
    auto o = RunOp({"Reshape", {{Iota({2, 3, 4})}, {In({3}, {0, -1, 2}), as_const}}});
    CHECK(o[0].shape == I64{2, 6, 2});
    CHECK(Values<float>(o[0]) == Values<float>(Iota({24})));
  }
  // allowzero=1: 0 is a real zero-sized dim.
  auto z = RunOp({"Reshape", {{Fl({0, 3}, {})}, {In({2}, {3, 0})}}, {{"allowzero", IntAttr(1)}}});
  CHECK(z[0].shape == I64{3, 0});
  // A run-time shape computed by Shape feeding Reshape is covered by the harness's Data input:
  // the output shape comes from the values fed, not from compile time.
  auto d = RunOp({"Reshape", {{Tensor<uint8_t>(ge::DT_BOOL, {4}, {true, false, true, true})}, {In({2}, {2, 2})}}});
  CHECK(d[0].shape == I64{2, 2});
  CHECK(Values<uint8_t>(d[0]) == std::vector<uint8_t>{true, false, true, true});
}

TEST_CASE("Reshape errors name the problem", "[ops]") {
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({2, 3})}, {In({2}, {-1, -1}), true}}), "has more than one -1");
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({2, 3})}, {In({2}, {4, 2})}}),
                   "input [2, 3] (6 elements) cannot be reshaped to [4, 2] (8 elements)");
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({2, 3})}, {In({2}, {-1, 4}), true}}), "cannot be reshaped to [-1, 4]");
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({6})}, {In({2}, {3, -2})}}), "invalid value -2");
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({6})}, {In({2}, {0, -1})}}, {{"allowzero", IntAttr(1)}}),
                   "has both 0 and -1");
  CHECK_FAILS_WITH(OpCase("Reshape", {{Iota({6})}, {In({2}, {6, 0})}}), "has 0 at index 1");
}

TEST_CASE("Transpose with perm and the default reversal; errors", "[ops]") {
  auto o = RunOp({"Transpose", {{Iota({2, 3})}}});
  CHECK(o[0].shape == I64{3, 2});
  CHECK(Values<float>(o[0]) == F{0, 3, 1, 4, 2, 5});
  auto p = RunOp({"Transpose", {{Tensor<int16_t>(ge::DT_INT16, {1, 2, 2}, {1, 2, 3, 4})}}, {{"perm", IntsAttr({2, 0, 1})}}});
  CHECK(p[0].shape == I64{2, 1, 2});
  CHECK(Values<int16_t>(p[0]) == std::vector<int16_t>{1, 3, 2, 4});
  CHECK_FAILS_WITH(OpCase("Transpose", {{Iota({2, 3})}}, {{"perm", IntsAttr({0, 0})}}),
                   "perm [0, 0] is not a permutation of the 2 input axes");
}

TEST_CASE("Concat along a negative axis, with an empty input; errors", "[ops]") {
  auto o = RunOp({"Concat", {{Iota({2, 1})}, {Fl({2, 0}, {})}, {Fl({2, 2}, {10, 11, 12, 13})}}, {{"axis", IntAttr(-1)}}});
  CHECK(o[0].shape == I64{2, 3});
  CHECK(Values<float>(o[0]) == F{0, 10, 11, 1, 12, 13});
  CHECK_FAILS_WITH(OpCase("Concat", {{Iota({2, 1})}, {Iota({3, 1})}}, {{"axis", IntAttr(1)}}),
                   "input 1 [3, 1] does not match input 0 [2, 1] outside axis 1");
  CHECK_FAILS_WITH(OpCase("Concat", {{Iota({2})}}, {{"axis", IntAttr(1)}}), "axis 1 is out of range");
}

TEST_CASE("Flatten, Squeeze, Unsqueeze, Identity", "[ops]") {
  auto f = RunOp({"Flatten", {{Iota({2, 3, 4})}}, {{"axis", IntAttr(-1)}}});
  CHECK(f[0].shape == I64{6, 4});
  auto f0 = RunOp({"Flatten", {{Iota({2, 3})}}, {{"axis", IntAttr(0)}}});
  CHECK(f0[0].shape == I64{1, 6});
  CHECK_FAILS_WITH(OpCase("Flatten", {{Iota({2, 3})}}, {{"axis", IntAttr(3)}}), "axis 3 is out of range [-2, 2]");

  auto s = RunOp({"Squeeze", {{Iota({1, 3, 1})}}});
  CHECK(s[0].shape == I64{3});
  auto s1 = RunOp({"Squeeze", {{Iota({1, 3, 1})}, {In({1}, {-1})}}});
  CHECK(s1[0].shape == I64{1, 3});
  CHECK_FAILS_WITH(OpCase("Squeeze", {{Iota({1, 3})}, {In({1}, {1}), true}}), "cannot squeeze axis 1 of input [1, 3]");

  auto u = RunOp({"Unsqueeze", {{Iota({3})}, {In({2}, {-1, 0})}}});
  CHECK(u[0].shape == I64{1, 3, 1});
  CHECK(Values<float>(u[0]) == F{0, 1, 2});
  CHECK_FAILS_WITH(OpCase("Unsqueeze", {{Iota({3})}, {In({2}, {0, 0}), true}}), "is listed twice");
  CHECK_FAILS_WITH(OpCase("Unsqueeze", {{Iota({3})}, {In({1}, {2})}}), "axis 2 is out of range [-2, 1]");

  // float16 moves bit for bit (0x3c00 = 1.0, 0x7e01 a NaN with payload).
  auto i = RunOp({"Identity", {{Tensor<uint16_t>(ge::DT_FLOAT16, {2}, {0x3c00, 0x7e01})}}});
  CHECK(i[0].dtype == ge::DT_FLOAT16);
  CHECK(Values<uint16_t>(i[0]) == std::vector<uint16_t>{0x3c00, 0x7e01});
}

TEST_CASE("Gather with negative and 2-D indices; out-of-range index", "[ops]") {
  auto o = RunOp({"Gather", {{Iota({3, 2})}, {Tensor<int32_t>(ge::DT_INT32, {2, 2}, {-1, 0, 1, 1})}}});
  CHECK(o[0].shape == I64{2, 2, 2});
  CHECK(Values<float>(o[0]) == F{4, 5, 0, 1, 2, 3, 2, 3});
  auto a1 = RunOp({"Gather", {{Iota({2, 3})}, {In({}, {2})}}, {{"axis", IntAttr(1)}}});
  CHECK(a1[0].shape == I64{2});
  CHECK(Values<float>(a1[0]) == F{2, 5});
  CHECK_FAILS_WITH(OpCase("Gather", {{Iota({3})}, {In({1}, {3})}}), "index 3 at flat position 0 is out of range [-3, 2]");
}

TEST_CASE("Slice: steps, negative steps, clamping, Const and run-time starts", "[ops]") {
  for (bool as_const : {true, false}) {
    auto o = RunOp({"Slice",
                    {{Iota({3, 4})}, {In({2}, {0, 1}), as_const}, {In({2}, {3, 1000}), as_const},
                     {In({2}, {0, 1}), as_const}, {In({2}, {2, 2}), as_const}}});
    CHECK(o[0].shape == I64{2, 2});
    CHECK(Values<float>(o[0]) == F{1, 3, 9, 11});
  }
  // Reverse a whole axis: start clamps to dim-1, end INT64_MIN clamps to -1.
  auto r = RunOp({"Slice", {{Iota({5})}, {In({1}, {-1})}, {In({1}, {std::numeric_limits<int64_t>::min()})}, {}, {In({1}, {-2})}}});
  CHECK(Values<float>(r[0]) == F{4, 2, 0});
  auto e = RunOp({"Slice", {{Iota({5})}, {In({1}, {10})}, {In({1}, {20})}}});
  CHECK(e[0].shape == I64{0});
  CHECK_FAILS_WITH(OpCase("Slice", {{Iota({5})}, {In({1}, {0})}, {In({1}, {2})}, {}, {In({1}, {0})}}), "step 0 on axis 0");
  CHECK_FAILS_WITH(OpCase("Slice", {{Iota({5})}, {In({2}, {0, 0})}, {In({1}, {2})}}), "must have the same length");
}

TEST_CASE("Split: equal parts, a split input, errors", "[ops]") {
  auto o = RunOp({"Split", {{Iota({2, 4})}}, {{"axis", IntAttr(1)}}, 2});
  REQUIRE(o.size() == 2);
  CHECK(o[0].shape == I64{2, 2});
  CHECK(Values<float>(o[0]) == F{0, 1, 4, 5});
  CHECK(Values<float>(o[1]) == F{2, 3, 6, 7});
  auto v = RunOp({"Split", {{Iota({5})}, {In({3}, {1, 0, 4})}}, {}, 3});
  CHECK(v[0].shape == I64{1});
  CHECK(v[1].shape == I64{0});
  CHECK(Values<float>(v[2]) == F{1, 2, 3, 4});
  CHECK_FAILS_WITH(OpCase("Split", {{Iota({5})}}, {}, 2), "axis dim 5 does not split into 2 equal parts");
  CHECK_FAILS_WITH(OpCase("Split", {{Iota({5})}, {In({2}, {1, 2})}}, {}, 2), "summing to the axis dim 5");
}

TEST_CASE("Pad: constant, reflect, edge and negative pads", "[ops]") {
  const HostTensor x = Fl({2, 3}, {1, 2, 3, 4, 5, 6});
  auto c = RunOp({"Pad", {{x}, {In({4}, {0, 1, 1, 0}), true}, {Fl({}, {9})}}});
  CHECK(c[0].shape == I64{3, 4});
  CHECK(Values<float>(c[0]) == F{9, 1, 2, 3, 9, 4, 5, 6, 9, 9, 9, 9});
  auto r = RunOp({"Pad", {{x}, {In({4}, {0, 2, 0, 1})}}, {{"mode", StringAttr("reflect")}}});
  CHECK(r[0].shape == I64{2, 6});
  CHECK(Values<float>(r[0]) == F{3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5});
  auto e = RunOp({"Pad", {{x}, {In({4}, {1, 0, 0, -1})}}, {{"mode", StringAttr("edge")}}});
  CHECK(e[0].shape == I64{3, 2});
  CHECK(Values<float>(e[0]) == F{1, 2, 1, 2, 4, 5});
  // Reflection longer than the axis repeats (numpy.pad 'reflect'): [1 2] -> 2 1 2 1 [1 2] 1 2.
  auto rr = RunOp({"Pad", {{Fl({2}, {1, 2})}, {In({2}, {3, 2})}}, {{"mode", StringAttr("reflect")}}});
  CHECK(Values<float>(rr[0]) == F{2, 1, 2, 1, 2, 1, 2});
  CHECK_FAILS_WITH(OpCase("Pad", {{x}, {In({2}, {1, 1})}}), "pads has 2 values; data [2, 3] needs 4");
  CHECK_FAILS_WITH(OpCase("Pad", {{x}, {In({4}, {0, 0, 0, 0})}}, {{"mode", StringAttr("circular")}}),
                   "mode 'circular' is not one of constant, reflect, edge, wrap");
  CHECK_FAILS_WITH(OpCase("Pad", {{Fl({0}, {})}, {In({2}, {1, 0})}}, {{"mode", StringAttr("edge")}}),
                   "cannot edge-pad the empty axis 0");
}

TEST_CASE("Constant, ConstantOfShape, Shape, Size", "[ops]") {
  auto c = RunOp({"Constant", {}, {{"value", TensorAttr(In({2}, {7, -7}))}}});
  CHECK(c[0].dtype == ge::DT_INT64);
  CHECK(Values<int64_t>(c[0]) == I64{7, -7});
  // "Constant" is also GE's framework op type: the compiler folds a Constant with a `value` tensor
  // itself (above) and does not yet hand the value_float/value_ints/... forms to ops/Constant.cc.
  // Expected-unsupported until it does (the ONNX front end turns them into Const meanwhile).
  CHECK_FAILS_WITH(OpCase("Constant", {}, {{"value_floats", FloatsAttr({1.5f, 2.5f})}}), "OA1105");

  auto z = RunOp({"ConstantOfShape", {{In({2}, {2, 1})}}});
  CHECK(z[0].dtype == ge::DT_FLOAT);
  CHECK(Values<float>(z[0]) == F{0, 0});
  auto v = RunOp({"ConstantOfShape", {{In({1}, {3}), true}}, {{"value", TensorAttr(Tensor<int32_t>(ge::DT_INT32, {1}, {5}))}}});
  CHECK(v[0].dtype == ge::DT_INT32);
  CHECK(Values<int32_t>(v[0]) == std::vector<int32_t>{5, 5, 5});
  CHECK_FAILS_WITH(OpCase("ConstantOfShape", {{In({2}, {1 << 20, 1 << 20})}}), "larger than the 4 GiB limit");
  CHECK_FAILS_WITH(OpCase("ConstantOfShape", {{In({1}, {2})}}, {{"value", TensorAttr(Fl({2}, {1, 2}))}}),
                   "the value attribute must be a one-element");

  auto s = RunOp({"Shape", {{Iota({2, 3, 4})}}, {{"start", IntAttr(-2)}}});
  CHECK(Values<int64_t>(s[0]) == I64{3, 4});
  auto s2 = RunOp({"Shape", {{Iota({2, 3, 4})}}, {{"start", IntAttr(1)}, {"end", IntAttr(-5)}}});
  CHECK(s2[0].shape == I64{0});
  auto n = RunOp({"Size", {{Iota({2, 3, 4})}}});
  CHECK(n[0].shape.empty());
  CHECK(Values<int64_t>(n[0]) == I64{24});
}

TEST_CASE("Cast between float, float16, bfloat16, integers and bool", "[ops]") {
  const F vals = {1.5f, -2.7f, 0.0f, 300.0f, std::nanf(""), 1e20f};
  auto i8 = RunOp({"Cast", {{Fl({6}, vals)}}, {{"to", IntAttr(3)}}});
  CHECK(i8[0].dtype == ge::DT_INT8);
  CHECK(Values<int8_t>(i8[0]) == std::vector<int8_t>{1, -2, 0, 127, 0, 127});  // truncation; saturation
  auto u8 = RunOp({"Cast", {{Fl({2}, {-1.5f, 255.9f})}}, {{"to", IntAttr(2)}}});
  CHECK(Values<uint8_t>(u8[0]) == std::vector<uint8_t>{0, 255});
  auto b = RunOp({"Cast", {{Fl({3}, {0.0f, -0.0f, 0.25f})}}, {{"to", IntAttr(9)}}});
  CHECK(Values<uint8_t>(b[0]) == std::vector<uint8_t>{false, false, true});
  auto h = RunOp({"Cast", {{Fl({3}, {1.0f, 65520.0f, 1.0f / 3})}}, {{"to", IntAttr(10)}}});
  CHECK(Values<uint16_t>(h[0]) == std::vector<uint16_t>{0x3c00, 0x7c00, 0x3555});  // 65520 rounds to inf
  auto bf = RunOp({"Cast", {{Tensor<uint16_t>(ge::DT_BF16, {2}, {0x3f80, 0xc040})}}, {{"to", IntAttr(7)}}});
  CHECK(Values<int64_t>(bf[0]) == I64{1, -3});
  auto w = RunOp({"Cast", {{In({2}, {257, -1})}}, {{"to", IntAttr(2)}}});
  CHECK(Values<uint8_t>(w[0]) == std::vector<uint8_t>{1, 255});  // two's complement wrap
  auto fb = RunOp({"Cast", {{Tensor<uint8_t>(ge::DT_BOOL, {2}, {true, false})}}, {{"to", IntAttr(11)}}});
  CHECK(Values<double>(fb[0]) == std::vector<double>{1.0, 0.0});
  CHECK_FAILS_WITH(OpCase("Cast", {{Fl({1}, {1})}}, {{"to", IntAttr(8)}}), "cannot cast to ONNX dtype 8");
}

TEST_CASE("Dropout in inference mode, with the mask output", "[ops]") {
  auto o = RunOp({"Dropout", {{Fl({3}, {1, 2, 3})}, {Fl({}, {0.5f})}}, {}, 2});
  REQUIRE(o.size() == 2);
  CHECK(Values<float>(o[0]) == F{1, 2, 3});
  CHECK(o[1].dtype == ge::DT_BOOL);
  CHECK(Values<uint8_t>(o[1]) == std::vector<uint8_t>{true, true, true});
}

TEST_CASE("Expand, Tile, Range, NonZero", "[ops]") {
  auto e = RunOp({"Expand", {{Fl({3, 1}, {1, 2, 3})}, {In({3}, {2, 1, 2})}}});
  CHECK(e[0].shape == I64{2, 3, 2});
  CHECK(Values<float>(e[0]) == F{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  CHECK_FAILS_WITH(OpCase("Expand", {{Fl({3}, {1, 2, 3})}, {In({1}, {2}), true}}), "does not broadcast to shape [2]");

  auto t = RunOp({"Tile", {{Fl({2, 2}, {1, 2, 3, 4})}, {In({2}, {2, 1})}}});
  CHECK(t[0].shape == I64{4, 2});
  CHECK(Values<float>(t[0]) == F{1, 2, 3, 4, 1, 2, 3, 4});
  auto t2 = RunOp({"Tile", {{Fl({2}, {1, 2})}, {In({1}, {3}), true}}});
  CHECK(Values<float>(t2[0]) == F{1, 2, 1, 2, 1, 2});
  CHECK_FAILS_WITH(OpCase("Tile", {{Fl({2}, {1, 2})}, {In({2}, {1, 1})}}), "must hold one non-negative value per axis");

  auto r = RunOp({"Range", {{Tensor<int32_t>(ge::DT_INT32, {}, {10})}, {Tensor<int32_t>(ge::DT_INT32, {}, {1})},
                            {Tensor<int32_t>(ge::DT_INT32, {}, {-3})}}});
  CHECK(Values<int32_t>(r[0]) == std::vector<int32_t>{10, 7, 4});
  auto rf = RunOp({"Range", {{Fl({}, {0}), true}, {Fl({}, {1}), true}, {Fl({}, {0.25f}), true}}});
  CHECK(rf[0].shape == I64{4});
  CHECK(Values<float>(rf[0]) == F{0, 0.25f, 0.5f, 0.75f});
  CHECK_FAILS_WITH(OpCase("Range", {{In({}, {0})}, {In({}, {5})}, {In({}, {0})}}), "delta must not be 0");

  auto nz = RunOp({"NonZero", {{Fl({2, 3}, {0, 1, 0, -0.0f, 2, std::nanf("")})}}});
  CHECK(nz[0].shape == I64{2, 3});
  CHECK(Values<int64_t>(nz[0]) == I64{0, 1, 1, 1, 1, 2});
  auto none = RunOp({"NonZero", {{Tensor<uint8_t>(ge::DT_BOOL, {3}, {false, false, false})}}});
  CHECK(none[0].shape == I64{1, 0});
}
