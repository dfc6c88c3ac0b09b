// Resize (ONNX Resize-13, the form the front end also gives Upsample-7/9 and Resize-10) through
// the one-op harness: every mode (nearest / linear / cubic), coordinate transformation mode and
// nearest_mode, cubic_coeff_a / exclude_outside, antialias, tf_crop_and_resize with extrapolation, N-d
// (1-D, 2-D, 4-D), scales or sizes as Const or run-time inputs, float/float16/int8/uint8, and
// the error paths with their messages. Expected values are computed by hand from the formulas of
// ONNX's Operators.md (see ops/common/resize_plan.h). The Debian Resize/Upsample node cases run in
// ops_index_test (through atc and omrun).
#include <cmath>

#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using I64 = std::vector<int64_t>;

HostTensor Fl(std::vector<int64_t> shape, const F &v) { return Tensor<float>(ge::DT_FLOAT, std::move(shape), v); }
HostTensor In(std::vector<int64_t> shape, const I64 &v) { return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v); }

std::map<std::string, ir::AttrValue> Attrs(const std::string &mode, const std::string &coord,
                                           const std::string &nearest = "round_prefer_floor") {
  return {{"mode", StringAttr(mode)}, {"coordinate_transformation_mode", StringAttr(coord)},
          {"nearest_mode", StringAttr(nearest)}};
}

// Resize of X by `sizes` (roi and scales absent).
std::vector<HostTensor> BySizes(const HostTensor &x, const I64 &sizes, std::map<std::string, ir::AttrValue> a,
                                bool as_const = false) {
  return RunOp({"Resize", {{x}, {}, {}, {In({static_cast<int64_t>(sizes.size())}, sizes), as_const}}, std::move(a)});
}

void CheckClose(const std::vector<float> &got, const std::vector<float> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-6));
  }
}

#define CHECK_FAILS_WITH(c, fragment)                        \
  do {                                                       \
    const std::string _t = RunOpExpectingFailure(c);         \
    INFO(_t);                                                \
    CHECK(_t.find("<no error>") == std::string::npos);       \
    CHECK(_t.find(fragment) != std::string::npos);           \
  } while (0)
}  // namespace

TEST_CASE("Resize nearest: Upsample-style 4-D scales, Const or run-time", "[ops][resize]") {
  for (bool as_const : {true, false}) {
    auto o = RunOp({"Resize", {{Fl({1, 1, 2, 2}, {1, 2, 3, 4})}, {}, {Fl({4}, {1, 1, 2, 2}), as_const}},
                    Attrs("nearest", "asymmetric", "floor")});
    CHECK(o[0].shape == I64{1, 1, 4, 4});
    CHECK(Values<float>(o[0]) == F{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  }
  // downsampling by 0.6 floors the size (2x4 -> 1x2): half_pixel maps W outputs 0, 1 to 0.33, 2.0
  auto o = RunOp({"Resize", {{Fl({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {}, {Fl({4}, {1, 1, 0.6f, 0.6f})}}, {}});
  CHECK(o[0].shape == I64{1, 1, 1, 2});
  CHECK(Values<float>(o[0]) == F{1, 3});
}

TEST_CASE("Resize nearest_mode: round_prefer_floor/ceil, floor, ceil", "[ops][resize]") {
  // asymmetric x/4 over [10, 20]: source 0, .25, .5, .75, 1, 1.25, 1.5, 1.75 (indices clamp at 1)
  const HostTensor x = Fl({2}, {10, 20});
  const std::map<std::string, F> want = {
      {"round_prefer_floor", {10, 10, 10, 20, 20, 20, 20, 20}},
      {"round_prefer_ceil", {10, 10, 20, 20, 20, 20, 20, 20}},
      {"floor", {10, 10, 10, 10, 20, 20, 20, 20}},
      {"ceil", {10, 20, 20, 20, 20, 20, 20, 20}},
  };
  for (const auto &[mode, values] : want) {
    INFO(mode);
    auto o = RunOp({"Resize", {{x}, {}, {Fl({1}, {4})}}, Attrs("nearest", "asymmetric", mode)});
    CHECK(Values<float>(o[0]) == values);
  }
  // tf_half_pixel_for_nn: (x + 0.5) / 2 -> .25, .75, 1.25, 1.75 -> round_prefer_floor 0, 1, 1, 2(->1)
  auto o = BySizes(x, {4}, Attrs("nearest", "tf_half_pixel_for_nn"));
  CHECK(Values<float>(o[0]) == F{10, 20, 20, 20});
}

TEST_CASE("Resize linear: half_pixel, align_corners, pytorch_half_pixel, 2-D", "[ops][resize]") {
  const HostTensor x = Fl({2}, {0, 10});
  CheckClose(Values<float>(BySizes(x, {4}, Attrs("linear", "half_pixel"))[0]), {0, 2.5f, 7.5f, 10});
  CheckClose(Values<float>(BySizes(x, {3}, Attrs("linear", "align_corners"), true)[0]), {0, 5, 10});
  CheckClose(Values<float>(BySizes(x, {4}, Attrs("linear", "asymmetric"))[0]), {0, 5, 10, 10});
  // pytorch_half_pixel with a 1-long output samples coordinate 0
  CheckClose(Values<float>(BySizes(x, {1}, Attrs("linear", "pytorch_half_pixel"))[0]), {0});
  CheckClose(Values<float>(BySizes(x, {1}, Attrs("linear", "half_pixel"))[0]), {5});
  auto o = BySizes(Fl({2, 2}, {0, 10, 20, 30}), {3, 3}, Attrs("linear", "align_corners"));
  CHECK(o[0].shape == I64{3, 3});
  CheckClose(Values<float>(o[0]), {0, 5, 10, 10, 15, 20, 20, 25, 30});
}

TEST_CASE("Resize cubic: Keys weights, cubic_coeff_a, exclude_outside", "[ops][resize]") {
  // asymmetric x/2 over [0, 1, 2, 3]: at source 0.5 the taps (-1->0, 0, 1, 2) weigh
  // (-0.09375, 0.59375, 0.59375, -0.09375) with A = -0.75; source 1.5 reproduces the line.
  const HostTensor x = Fl({4}, {0, 1, 2, 3});
  auto o = RunOp({"Resize", {{x}, {}, {Fl({1}, {2})}}, Attrs("cubic", "asymmetric")});
  const F v = Values<float>(o[0]);
  REQUIRE(v.size() == 8);
  CHECK(v[0] == Approx(0).margin(1e-6));
  CHECK(v[1] == Approx(0.40625).margin(1e-6));
  CHECK(v[2] == Approx(1).margin(1e-6));
  CHECK(v[3] == Approx(1.5).margin(1e-6));
  auto a = Attrs("cubic", "asymmetric");
  a["exclude_outside"] = IntAttr(1);
  o = RunOp({"Resize", {{x}, {}, {Fl({1}, {2})}}, a});
  CHECK(Values<float>(o[0])[1] == Approx(0.40625 / 1.09375).margin(1e-6));
  // A = -0.5 at t = 0.5: taps (-0.0625, 0.5625, 0.5625, -0.0625): 0.5625 * 1 - 0.0625 * 2 = 0.4375
  a = Attrs("cubic", "asymmetric");
  a["cubic_coeff_a"] = FloatAttr(-0.5f);
  o = RunOp({"Resize", {{x}, {}, {Fl({1}, {2})}}, a});
  CHECK(Values<float>(o[0])[1] == Approx(0.4375).margin(1e-6));
}

TEST_CASE("Resize antialias: the kernel stretched by 1 / scale on a shrinking axis", "[ops][resize]") {
  // linear, [1, 2, 3, 4] -> 2 (scale 0.5), half_pixel: sources 0.5 and 2.5, taps x0-1 .. x0+2 at
  // distances (-1.5, -0.5, 0.5, 1.5) * 0.5 weigh (0.25, 0.75, 0.75, 0.25) / 2; tap -1 and 4 clamp.
  auto lin = Attrs("linear", "half_pixel");
  lin["antialias"] = IntAttr(1);
  const HostTensor x = Fl({4}, {1, 2, 3, 4});
  CheckClose(Values<float>(BySizes(x, {2}, lin)[0]), {1.625f, 3.375f});
  CheckClose(Values<float>(BySizes(x, {2}, Attrs("linear", "half_pixel"))[0]), {1.5f, 3.5f});  // without
  // exclude_outside drops the clamped tap and renormalises: 1.5 / 0.875 and 2.875 / 0.875
  lin["exclude_outside"] = IntAttr(1);
  CheckClose(Values<float>(BySizes(x, {2}, lin)[0]), {1.5f / 0.875f, 2.875f / 0.875f});
  // cubic (A = -0.75) over an impulse at index 3 of 8 -> 4: 8 taps, the impulse's normalised
  // weight K(0.5 * (3 - x)) / 2 at sources 0.5, 2.5, 4.5, 6.5: K(1.25), K(0.25), K(0.75), K(1.75)
  // over the weight sum 2 (K(0.25) = 0.87890625, K(0.75) = 0.26171875, K(1.25) = -0.10546875,
  // K(1.75) = -0.03515625).
  auto cub = Attrs("cubic", "half_pixel");
  cub["antialias"] = IntAttr(1);
  const HostTensor impulse = Fl({8}, {0, 0, 0, 1, 0, 0, 0, 0});
  CheckClose(Values<float>(BySizes(impulse, {4}, cub)[0]), {-0.052734375f, 0.439453125f, 0.130859375f, -0.017578125f});
  // 2-D: each shrinking axis is filtered; a growing axis samples as without antialias.
  auto o = RunOp({"Resize", {{Fl({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {}, {Fl({2}, {2, 0.5f})}}, lin});
  CHECK(o[0].shape == I64{4, 2});
  lin.erase("antialias");
  // the filtered rows (row 1 is row 0 + 4), then grown 2x along H
  const F rows = {1.5f / 0.875f, 2.875f / 0.875f, 4 + 1.5f / 0.875f, 4 + 2.875f / 0.875f};
  auto plain = RunOp({"Resize", {{Fl({2, 2}, rows)}, {}, {Fl({2}, {2, 1})}}, lin});
  CheckClose(Values<float>(o[0]), Values<float>(plain[0]));
  // nearest ignores antialias (ONNX: linear and cubic only)
  auto nn = Attrs("nearest", "asymmetric", "floor");
  nn["antialias"] = IntAttr(1);
  CheckClose(Values<float>(BySizes(x, {2}, nn)[0]), {1, 3});
}

TEST_CASE("Resize tf_crop_and_resize: roi and extrapolation_value", "[ops][resize]") {
  // roi [0, 1.5] over 4 elements, 3 outputs: sources 0, 2.25, 4.5 (> 3: extrapolated)
  auto a = Attrs("linear", "tf_crop_and_resize");
  a["extrapolation_value"] = FloatAttr(7);
  auto o = RunOp({"Resize", {{Fl({4}, {0, 10, 20, 30})}, {Fl({2}, {0, 1.5f})}, {}, {In({1}, {3})}}, a});
  CheckClose(Values<float>(o[0]), {0, 22.5f, 7});
  a["mode"] = StringAttr("nearest");
  o = RunOp({"Resize", {{Fl({4}, {0, 10, 20, 30})}, {Fl({2}, {0, 1.5f})}, {}, {In({1}, {3})}}, a});
  CHECK(Values<float>(o[0]) == F{0, 20, 7});
  // 2-D: H sources 0, 0.75, 1.5 (outside: a whole row of 7), W sources 0, 1, 2
  o = RunOp({"Resize", {{Fl({2, 3}, {1, 2, 3, 4, 5, 6})}, {Fl({4}, {0, 0, 1.5f, 1})}, {}, {In({2}, {3, 3})}}, a});
  CHECK(Values<float>(o[0]) == F{1, 2, 3, 4, 5, 6, 7, 7, 7});
}

TEST_CASE("Resize dtypes: float16, int8, uint8 (rounded), and an empty scales with sizes", "[ops][resize]") {
  using H = _Float16;
  auto o = BySizes(Tensor<H>(ge::DT_FLOAT16, {2}, {H(1), H(3)}), {3}, Attrs("linear", "align_corners"));
  CHECK(o[0].dtype == ge::DT_FLOAT16);
  const auto h = Values<H>(o[0]);
  REQUIRE(h.size() == 3);
  CHECK(static_cast<float>(h[1]) == 2.0f);
  o = RunOp({"Resize", {{Tensor<int8_t>(ge::DT_INT8, {2}, {-5, 7})}, {}, {Fl({1}, {2})}}, Attrs("nearest", "asymmetric")});
  CHECK(Values<int8_t>(o[0]) == std::vector<int8_t>{-5, -5, 7, 7});
  o = BySizes(Tensor<uint8_t>(ge::DT_UINT8, {2}, {0, 255}), {3}, Attrs("linear", "align_corners"));
  CHECK(Values<uint8_t>(o[0]) == std::vector<uint8_t>{0, 128, 255});
  // Resize-11 style: roi and scales present but empty, sizes given
  o = RunOp({"Resize", {{Fl({2}, {10, 20})}, {Fl({0}, {})}, {Fl({0}, {})}, {In({1}, {4})}}, Attrs("nearest", "asymmetric")});
  CHECK(Values<float>(o[0]) == F{10, 10, 20, 20});
}

TEST_CASE("Resize errors name the problem", "[ops][resize]") {
  const HostTensor x = Fl({2}, {10, 20});
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {2})}, {In({1}, {4})}}),
                   "exactly one of scales and sizes must be given");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}}), "exactly one of scales and sizes must be given");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({2}, {2, 2})}}), "scales has 2 values; X [2] needs 1");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {}, {In({2}, {2, 2})}}), "sizes has 2 values; X [2] needs 1");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {0})}}), "scale 0.000000 of axis 0 must be a positive number");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {}, {In({1}, {-3})}}), "size -3 of axis 0 is negative");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {2})}}, {{"mode", StringAttr("area")}}),
                   "mode 'area' is not one of nearest, linear, cubic");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {2})}}, {{"coordinate_transformation_mode", StringAttr("edge")}}),
                   "coordinate_transformation_mode 'edge' is not one of");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {2})}}, {{"nearest_mode", StringAttr("up")}}),
                   "nearest_mode 'up' is not one of");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {2})}}, {{"coordinate_transformation_mode",
                                                                 StringAttr("tf_crop_and_resize")}}),
                   "tf_crop_and_resize needs roi with 2 * rank = 2 float values");
  CHECK_FAILS_WITH(OpCase("Resize", {{x}, {}, {Fl({1}, {1e30f})}}), "makes the output too large");
  CHECK_FAILS_WITH(OpCase("Resize", {{Fl({0}, {})}, {}, {}, {In({1}, {3})}}), "cannot resize the empty axis 0");
}
