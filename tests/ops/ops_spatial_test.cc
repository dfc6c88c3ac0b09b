// GridSample (opset 16 and 20), Col2Im, MaxUnpool, Det, Celu and the BitwiseAnd/Or/Xor/Not family
// through the one-op harness with hand-computed values (modes, padding modes, align_corners,
// rounding of nearest, 5-D at opset 20; overlapping and padded Col2Im blocks, dilations;
// MaxUnpool with and without output_shape; Det with pivoting and batches; signed and unsigned
// bit patterns) and the error messages of bad inputs.
#include <cmath>

#include "op_checks.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using I64 = std::vector<int64_t>;
using Attrs = std::map<std::string, ir::AttrValue>;

// X [1, 1, 2, 2] = f(y, x) = 1 + x + 2y sampled at grid points (x, y) in normalised coordinates.
F Sample2x2(const F &points, Attrs at) {
  const HostTensor x = Fl({1, 1, 2, 2}, {1, 2, 3, 4});
  const int64_t n = static_cast<int64_t>(points.size() / 2);
  const HostTensor y = RunOp({"GridSample", {{x}, {Fl({1, 1, n, 2}, points)}}, at})[0];
  CHECK(y.shape == I64{1, 1, 1, n});
  return Values<float>(y);
}
}  // namespace

TEST_CASE("GridSample-16: bilinear, align_corners, zeros/border/reflection padding", "[ops][gridsample]") {
  // align_corners = 1: -1 and 1 are the pixel centres.
  CheckClose(Sample2x2({0, 0, -1, -1, 1, 1, 1, -1}, {{"align_corners", IntAttr(1)}}), {2.5f, 1, 4, 2});
  // align_corners = 0: (0, 0) -> (0.5, 0.5); (-1, -1) -> (-0.5, -0.5), a quarter of pixel (0, 0)
  // with zeros; (2, 0) -> x = 2.5, outside on the right.
  const F pts = {0, 0, -1, -1, 2, 0};
  CheckClose(Sample2x2(pts, {}), {2.5f, 0.25f, 0});
  CheckClose(Sample2x2(pts, {{"padding_mode", StringAttr("border")}}), {2.5f, 1, 3});  // x clamped to 1
  // reflection: x = 2.5 mirrors at 1.5 to 0.5; index -1 mirrors at -0.5 to 0.
  CheckClose(Sample2x2(pts, {{"padding_mode", StringAttr("reflection")}}), {2.5f, 1, 2.5f});
  // Batches and channels: X [2, 2, 1, 1], one location each.
  const HostTensor y = RunOp({"GridSample", {{Fl({2, 2, 1, 1}, {1, 2, 3, 4})}, {Fl({2, 1, 1, 2}, {0, 0, 0, 0})}},
                              {{"align_corners", IntAttr(1)}}})[0];
  CHECK(y.shape == I64{2, 2, 1, 1});
  CheckClose(Values<float>(y), {1, 2, 3, 4});
}

TEST_CASE("GridSample-16: nearest rounds half to even, bicubic uses A = -0.75", "[ops][gridsample]") {
  // (0, 0) -> (0.5, 0.5) rounds to (0, 0); (0.1, -0.6) -> x 0.6 -> 1, y -0.1 -> 0.
  CheckClose(Sample2x2({0, 0, 0.1f, -0.6f}, {{"mode", StringAttr("nearest")}}), {1, 2});
  // Bicubic on the row [0, 0, 1, 0] (H = 1, align_corners = 1): x = 1.5 weighs pixels 0..3 with
  // -0.09375, 0.59375, 0.59375, -0.09375; x = 0.5 reads pixel -1 as 0 (zeros) and pixel 2 with
  // -0.09375; at a pixel centre (x = 2) the value is the pixel.
  const HostTensor row = Fl({1, 1, 1, 4}, {0, 0, 1, 0});
  const Attrs cubic = {{"mode", StringAttr("bicubic")}, {"align_corners", IntAttr(1)}};
  const F g = {0, 0, -2.0f / 3, 0, 1.0f / 3, 0};
  CheckClose(Values<float>(RunOp({"GridSample", {{row}, {Fl({1, 1, 3, 2}, g)}}, cubic})[0]), {0.59375f, -0.09375f, 1});
  // On [1, 0, 0, 0] at x = 0.5: zeros reads pixel -1 as 0 (0.59375 * 1); border repeats pixel 0
  // there (-0.09375 + 0.59375).
  const HostTensor edge = Fl({1, 1, 1, 4}, {1, 0, 0, 0});
  const HostTensor at_half = Fl({1, 1, 1, 2}, {-2.0f / 3, 0});
  CheckClose(Values<float>(RunOp({"GridSample", {{edge}, {at_half}}, cubic})[0]), {0.59375f});
  Attrs cb = cubic;
  cb["padding_mode"] = StringAttr("border");
  CheckClose(Values<float>(RunOp({"GridSample", {{edge}, {at_half}}, cb})[0]), {0.5f});
  CHECK_FAILS_WITH(OpCase("GridSample", {{row}, {Fl({1, 1, 1, 2}, {0, 0})}}, {{"mode", StringAttr("cubic")}}),
                   "mode 'cubic' is not one of bilinear, nearest, bicubic (GridSample-16");
  CHECK_FAILS_WITH(OpCase("GridSample", {{row}, {Fl({1, 1, 1, 2}, {0, 0})}}, {{"padding_mode", StringAttr("wrap")}}),
                   "padding_mode must be zeros, border or reflection, got 'wrap'");
  CHECK_FAILS_WITH(OpCase("GridSample", {{row}, {Fl({1, 1, 1, 3}, {0, 0, 0})}}), "grid must be [N, out dims (2), 2]");
}

TEST_CASE("GridSample-20: linear/cubic names, 5-D trilinear, 3-D nearest rounds half to even", "[ops][gridsample]") {
  const Attrs v20 = {{"onnx_opset", IntAttr(20)}, {"align_corners", IntAttr(1)}};
  // X [1, 1, 2, 2, 2] = 4z + 2y + x; grid lists (x, y, z).
  const HostTensor x = Fl({1, 1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const HostTensor g = Fl({1, 1, 1, 2, 3}, {0, 0, 0, 1, -1, 1});
  const HostTensor y = RunOp({"GridSample", {{x}, {g}}, v20})[0];
  CHECK(y.shape == I64{1, 1, 1, 1, 2});
  CheckClose(Values<float>(y), {3.5f, 5});
  // nearest in 3-D: the centre (0.5, 0.5, 0.5) rounds half to even to (0, 0, 0) = 0 (np.rint, as
  // ONNX 1.19's reference and its volumetric nearest cases).
  Attrs nearest = v20;
  nearest["mode"] = StringAttr("nearest");
  CheckClose(Values<float>(RunOp({"GridSample", {{x}, {g}}, nearest})[0]), {0, 5});
  // opset 20 spells bicubic "cubic" and bilinear "linear".
  Attrs lin = v20;
  lin["mode"] = StringAttr("linear");
  CheckClose(Values<float>(RunOp({"GridSample", {{x}, {g}}, lin})[0]), {3.5f, 5});
  Attrs cub = v20;
  cub["mode"] = StringAttr("cubic");
  CheckClose(Values<float>(RunOp({"GridSample", {{Fl({1, 1, 1, 4}, {0, 0, 1, 0})}, {Fl({1, 1, 1, 2}, {0, 0})}}, cub})[0]),
             {0.59375f});
  // 1-D at opset 20: X [1, 1, 3], grid [1, 1, 1] at x = 0.5 (align_corners 1) = 1.5.
  CheckClose(Values<float>(RunOp({"GridSample", {{Fl({1, 1, 3}, {1, 2, 3})}, {Fl({1, 1, 1}, {-0.5f})}}, v20})[0]),
             {1.5f});
  cub["mode"] = StringAttr("bicubic");
  CHECK_FAILS_WITH(OpCase("GridSample", {{x}, {g}}, cub), "mode 'bicubic' is not one of linear, nearest, cubic");
  CHECK_FAILS_WITH(OpCase("GridSample", {{x}, {g}}), "GridSample-16 is 4-D only");
}

TEST_CASE("Col2Im: overlapping blocks sum, pads and strides, dilations, errors", "[ops][col2im]") {
  // image [1, 3], block [1, 2]: two positions; column element (k, l) lands on pixel l + k.
  const HostTensor y = RunOp({"Col2Im", {{Fl({1, 2, 2}, {1, 2, 3, 4})}, {In({2}, {1, 3}), true}, {In({2}, {1, 2}), true}}})[0];
  CHECK(y.shape == I64{1, 1, 1, 3});
  CheckClose(Values<float>(y), {1, 2 + 3, 4});
  // image 2x2, block 2x2, pads 1, strides 2: four positions, each pixel covered once; input value =
  // its flat index (k * 4 + l): pixel (0, 0) <- k 3, l 0; (0, 1) <- k 2, l 1; (1, 0) <- k 1, l 2; (1, 1) <- k 0, l 3.
  F in(16);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  const Attrs ps = {{"pads", IntsAttr({1, 1, 1, 1})}, {"strides", IntsAttr({2, 2})}};
  CheckClose(Values<float>(RunOp({"Col2Im", {{Fl({1, 4, 4}, in)}, {In({2}, {2, 2})}, {In({2}, {2, 2})}}, ps})[0]),
             {12, 9, 6, 3});
  // dilation 2: block [1, 2] covers pixels 0 and 2 of a 3-wide image; C = 2 keeps channels apart.
  const HostTensor d = RunOp({"Col2Im", {{Fl({1, 4, 1}, {5, 7, 1, 2})}, {In({2}, {1, 3})}, {In({2}, {1, 2})}},
                              {{"dilations", IntsAttr({1, 2})}}})[0];
  CHECK(d.shape == I64{1, 2, 1, 3});
  CheckClose(Values<float>(d), {5, 0, 7, 1, 0, 2});
  CHECK_FAILS_WITH(OpCase("Col2Im", {{Fl({1, 2, 3}, F(6, 1))}, {In({2}, {1, 3})}, {In({2}, {1, 2})}}),
                   "input must be [N, C * 2, 2] for block_shape [1, 2] and image_shape [1, 3], got [1, 2, 3]");
  CHECK_FAILS_WITH(OpCase("Col2Im", {{Fl({1, 2, 2}, F(4, 1))}, {In({2}, {1, 3})}, {In({1}, {2})}}),
                   "image_shape and block_shape must have the same r >= 1 values");
}

TEST_CASE("MaxUnpool: scatter to MaxPool's indices, output_shape, pads, errors", "[ops][maxunpool]") {
  const HostTensor x = Fl({1, 1, 2, 2}, {5, 6, 7, 8});
  const HostTensor idx = In({1, 1, 2, 2}, {5, 7, 13, 15});
  const Attrs k2s2 = {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}};
  const HostTensor y = RunOp({"MaxUnpool", {{x}, {idx}}, k2s2})[0];
  CHECK(y.shape == I64{1, 1, 4, 4});
  F want(16, 0);
  want[5] = 5, want[7] = 6, want[13] = 7, want[15] = 8;
  CHECK(Values<float>(y) == want);
  // output_shape [1, 1, 5, 5]: the 4x4 result padded at the end, (1, 1) -> flat 6, (1, 3) -> 8,
  // (3, 1) -> 16, (3, 3) -> 18.
  const HostTensor big = RunOp({"MaxUnpool", {{x}, {idx}, {In({4}, {1, 1, 5, 5}), true}}, k2s2})[0];
  CHECK(big.shape == I64{1, 1, 5, 5});
  F want25(25, 0);
  want25[6] = 5, want25[8] = 6, want25[16] = 7, want25[18] = 8;
  CHECK(Values<float>(big) == want25);
  // pads 1 on each side: (2 - 1) * 2 + 2 - 2 = 2 per dim.
  Attrs padded = k2s2;
  padded["pads"] = IntsAttr({1, 1, 1, 1});
  const HostTensor p = RunOp({"MaxUnpool", {{x}, {In({1, 1, 2, 2}, {3, 2, 1, 0})}}, padded})[0];
  CHECK(p.shape == I64{1, 1, 2, 2});
  CHECK(Values<float>(p) == F{8, 7, 6, 5});
  CHECK_FAILS_WITH(OpCase("MaxUnpool", {{x}, {In({1, 1, 2, 2}, {5, 7, 13, 16})}}, k2s2),
                   "I[3] = 16 is outside the unpooled shape's 16 elements [1, 1, 4, 4]");
  CHECK_FAILS_WITH(OpCase("MaxUnpool", {{x}, {idx}, {In({4}, {1, 1, 3, 5})}}, k2s2),
                   "output_shape [1, 1, 3, 5] must keep N and C and be at least the unpooled shape [1, 1, 4, 4]");
  CHECK_FAILS_WITH(OpCase("MaxUnpool", {{x}, {idx}}, {{"kernel_shape", IntsAttr({2})}}), "kernel_shape of r values");
}

TEST_CASE("Det: 2x2, pivoting 3x3, batches, singular, errors", "[ops][det]") {
  const HostTensor one = RunOp({"Det", {{Fl({2, 2}, {1, 2, 3, 4})}}})[0];
  CHECK(one.shape.empty());
  CheckClose(Values<float>(one), {-2});
  // a zero first pivot: det = 0 - 1 * (8 - 12) + 2 * (-3 - 0) = -2.
  CheckClose(Values<float>(RunOp({"Det", {{Fl({3, 3}, {0, 1, 2, 1, 0, 3, 4, -3, 8})}}})[0]), {-2});
  const HostTensor b = RunOp({"Det", {{Fl({3, 2, 2}, {1, 2, 3, 4, 2, 0, 0, 3, 1, 2, 2, 4})}}})[0];
  CHECK(b.shape == I64{3});
  CheckClose(Values<float>(b), {-2, 6, 0});
  CHECK_FAILS_WITH(OpCase("Det", {{Fl({2, 3}, F(6, 1))}}), "X must be [*, M, M] (square matrices), got [2, 3]");
}

TEST_CASE("Celu: alpha scales the negative branch", "[ops][celu]") {
  const HostTensor x = Fl({3}, {-1, 0, 1});
  CheckClose(Values<float>(RunOp({"Celu", {{x}}})[0]), {static_cast<float>(std::expm1(-1.0)), 0, 1});
  CheckClose(Values<float>(RunOp({"Celu", {{x}}, {{"alpha", FloatAttr(2)}}})[0]),
             {static_cast<float>(2 * std::expm1(-0.5)), 0, 1});
  CHECK_FAILS_WITH(OpCase("Celu", {{x}}, {{"alpha", FloatAttr(0)}}), "alpha must not be 0");
}

TEST_CASE("BitwiseAnd/Or/Xor/Not: signed and unsigned bits, broadcasting", "[ops][bitwise]") {
  using I32 = std::vector<int32_t>;
  using U8 = std::vector<uint8_t>;
  const auto i32 = [](std::vector<int64_t> s, const I32 &v) { return Tensor<int32_t>(ge::DT_INT32, std::move(s), v); };
  const auto u8 = [](std::vector<int64_t> s, const U8 &v) { return Tensor<uint8_t>(ge::DT_UINT8, std::move(s), v); };
  CHECK(Values<int32_t>(RunOp({"BitwiseAnd", {{i32({2}, {12, -1})}, {i32({2}, {10, 7})}}})[0]) == I32{8, 7});
  const HostTensor o = RunOp({"BitwiseOr", {{u8({1}, {0xF0})}, {u8({2}, {0x0F, 0x01})}}})[0];
  CHECK(o.shape == I64{2});
  CHECK(Values<uint8_t>(o) == U8{0xFF, 0xF1});
  CHECK(Values<int64_t>(RunOp({"BitwiseXor", {{In({2}, {5, -1})}, {In({1}, {3})}}})[0]) == I64{6, -4});
  CHECK(Values<int8_t>(RunOp({"BitwiseNot", {{Tensor<int8_t>(ge::DT_INT8, {3}, {0, -1, 5})}}})[0]) ==
        std::vector<int8_t>{-1, 0, -6});
  CHECK(Values<uint16_t>(RunOp({"BitwiseNot", {{Tensor<uint16_t>(ge::DT_UINT16, {1}, {0})}}})[0]) ==
        std::vector<uint16_t>{0xFFFF});
  CHECK_FAILS_WITH(OpCase("BitwiseAnd", {{Fl({1}, {1})}, {Fl({1}, {1})}}), "unsupported dtype");
}
