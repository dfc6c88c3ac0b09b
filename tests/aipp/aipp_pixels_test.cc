// Static AIPP per pixel (ops/Aipp.cc, inserted by atc/driver/src/aipp_insert.cc): a 4x4 image
// through an Identity model for each input format and each stage; every expected value is
// computed here by plain arithmetic from the formulas of docs/atc-deploy-flags.md §2.
#include <catch2/catch.hpp>

#include <cmath>

#include "aipp_util.h"

using aipp_test::Clamp255;
using aipp_test::CompileAndRun;
using aipp_test::FloorDiv256;
using aipp_test::Half;
using aipp_test::Model;

namespace {

const std::string kHead = "aipp_op {\n aipp_mode: static\n";

// RGB888 source pixel (x, y) channel c of a `w`-wide image: distinct values in 0..255.
uint8_t Rgb(int64_t x, int64_t y, int64_t c) { return static_cast<uint8_t>(16 * y + 4 * x + 50 * c + 1); }

std::vector<uint8_t> RgbImage(int64_t w, int64_t h) {
  std::vector<uint8_t> img;
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t c = 0; c < 3; ++c) img.push_back(Rgb(x, y, c));
  return img;
}

// NCHW index of [1, C, 4, 4].
size_t At(int64_t c, int64_t y, int64_t x) { return static_cast<size_t>((c * 4 + y) * 4 + x); }

void RequireRan(const aipp_test::Run &r) {
  INFO(r.atc_err);
  INFO(r.omrun_err);
  REQUIRE(r.atc_exit == 0);
  REQUIRE(r.omrun_exit == 0);
}

}  // namespace

TEST_CASE("aipp: RGB888_U8 with mean, min and var_reci per channel (min/var rounded to fp16)", "[aipp]") {
  const auto r = CompileAndRun({{1, 3, 4, 4}},
                               kHead + " input_format: RGB888_U8\n mean_chn_0: 10 mean_chn_1: 20 mean_chn_2: 30\n"
                                       " min_chn_0: 1.5 min_chn_1: 0.25 min_chn_2: 0\n"
                                       " var_reci_chn_0: 0.5 var_reci_chn_1: 0.1 var_reci_chn_2: 0.0078125\n}\n",
                               RgbImage(4, 4));
  RequireRan(r);
  REQUIRE(r.out_shape == std::vector<int64_t>{1, 3, 4, 4});
  const int mean[3] = {10, 20, 30};
  const float min[3] = {1.5f, 0.25f, 0.0f}, var[3] = {0.5f, Half(0.1f), 0.0078125f};
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x)
        CHECK(r.out[At(c, y, x)] == (static_cast<float>(Rgb(x, y, c) - mean[c]) - min[c]) * var[c]);
  CHECK(Half(0.1f) != 0.1f);  // the fp16 rounding is visible in channel 1
  CHECK(r.atc_err.find("insert_op_conf") == std::string::npos);  // the flag takes effect: no warning
}

TEST_CASE("aipp: rbuv_swap_switch swaps R and B of an RGB888_U8 image", "[aipp]") {
  const auto r = CompileAndRun({{1, 3, 4, 4}}, kHead + " input_format: RGB888_U8\n rbuv_swap_switch: true\n}\n",
                               RgbImage(4, 4));
  RequireRan(r);
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 4; ++x) {
      CHECK(r.out[At(0, y, x)] == Rgb(x, y, 2));
      CHECK(r.out[At(1, y, x)] == Rgb(x, y, 1));
      CHECK(r.out[At(2, y, x)] == Rgb(x, y, 0));
    }
}

TEST_CASE("aipp: CSC of an RGB888_U8 image uses the output biases (BT.601 narrow RGB -> YUV)", "[aipp]") {
  const auto r = CompileAndRun({{1, 3, 4, 4}}, kHead + " input_format: RGB888_U8\n csc_switch: true\n}\n",
                               RgbImage(4, 4));  // GE's default matrix and output_bias 16, 128, 128
  RequireRan(r);
  const int64_t m[3][3] = {{66, 129, 25}, {-38, -74, 112}, {112, -94, -18}}, ob[3] = {16, 128, 128};
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 4; ++x)
      for (int64_t i = 0; i < 3; ++i) {
        const int64_t acc = m[i][0] * Rgb(x, y, 0) + m[i][1] * Rgb(x, y, 1) + m[i][2] * Rgb(x, y, 2);
        CHECK(r.out[At(i, y, x)] == Clamp255(FloorDiv256(acc) + ob[i]));
      }
}

TEST_CASE("aipp: XRGB8888_U8 drops the X byte, first with ax_swap_switch, last without", "[aipp]") {
  std::vector<uint8_t> img;
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 4; ++x)
      for (int64_t b = 0; b < 4; ++b) img.push_back(static_cast<uint8_t>(64 * b + 4 * y + x));
  for (bool ax : {true, false}) {
    const auto r = CompileAndRun(
        {{1, 3, 4, 4}}, kHead + " input_format: XRGB8888_U8\n ax_swap_switch: " + (ax ? "true" : "false") + "\n}\n", img);
    RequireRan(r);
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x)
        for (int64_t c = 0; c < 3; ++c) CHECK(r.out[At(c, y, x)] == 64 * (c + (ax ? 1 : 0)) + 4 * y + x);
  }
}

TEST_CASE("aipp: YUV400_U8 feeds a one-channel input", "[aipp]") {
  std::vector<uint8_t> img;
  for (int v = 0; v < 16; ++v) img.push_back(static_cast<uint8_t>(15 * v));
  const auto r = CompileAndRun({{1, 1, 4, 4}}, kHead + " input_format: YUV400_U8\n mean_chn_0: 100\n var_reci_chn_0: 0.25\n}\n", img);
  RequireRan(r);
  REQUIRE(r.out.size() == 16);
  for (int v = 0; v < 16; ++v) CHECK(r.out[static_cast<size_t>(v)] == (15 * v - 100) * 0.25f);
}

TEST_CASE("aipp: YUV420SP_U8 with the BT.601 narrow YUV -> RGB matrix; NV21 through the U/V swap", "[aipp]") {
  // Y plane 4x4, then the UV plane: 2 rows of 2 (U, V) pairs, U first (NV12).
  std::vector<uint8_t> img;
  for (int v = 0; v < 16; ++v) img.push_back(static_cast<uint8_t>(16 + 14 * v));
  const uint8_t uv[8] = {90, 200, 128, 128, 30, 60, 240, 10};
  img.insert(img.end(), uv, uv + 8);
  const std::string csc = " input_format: YUV420SP_U8\n src_image_size_w: 4 src_image_size_h: 4\n csc_switch: true\n"
                          " matrix_r0c0: 298 matrix_r0c1: 0 matrix_r0c2: 409\n"
                          " matrix_r1c0: 298 matrix_r1c1: -100 matrix_r1c2: -208\n"
                          " matrix_r2c0: 298 matrix_r2c1: 516 matrix_r2c2: 0\n"
                          " input_bias_0: 16 input_bias_1: 128 input_bias_2: 128\n";
  const int64_t m[3][3] = {{298, 0, 409}, {298, -100, -208}, {298, 516, 0}}, ib[3] = {16, 128, 128};
  for (bool swap : {false, true}) {
    const auto r = CompileAndRun({{1, 3, 4, 4}}, kHead + csc + (swap ? " rbuv_swap_switch: true\n" : "") + "}\n", img);
    RequireRan(r);
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) {
        const int64_t pair = (y / 2) * 4 + (x / 2) * 2;
        const int64_t yuv[3] = {img[static_cast<size_t>(y * 4 + x)], uv[pair + (swap ? 1 : 0)], uv[pair + (swap ? 0 : 1)]};
        for (int64_t i = 0; i < 3; ++i) {
          int64_t acc = 0;
          for (int64_t j = 0; j < 3; ++j) acc += m[i][j] * (yuv[j] - ib[j]);
          CHECK(r.out[At(i, y, x)] == Clamp255(FloorDiv256(acc)));
        }
      }
  }
}

TEST_CASE("aipp: crop takes a window of a larger source image", "[aipp]") {
  const auto r = CompileAndRun({{1, 3, 4, 4}},
                               kHead + " input_format: RGB888_U8\n src_image_size_w: 7 src_image_size_h: 5\n crop: true\n"
                                       " load_start_pos_w: 2 load_start_pos_h: 1 crop_size_w: 4 crop_size_h: 4\n}\n",
                               RgbImage(7, 5));
  RequireRan(r);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) CHECK(r.out[At(c, y, x)] == Rgb(x + 2, y + 1, c));
}

TEST_CASE("aipp: padding comes last and is not normalised", "[aipp]") {
  const auto r = CompileAndRun({{1, 3, 4, 4}},
                               kHead + " input_format: RGB888_U8\n src_image_size_w: 2 src_image_size_h: 3\n padding: true\n"
                                       " top_padding_size: 1 bottom_padding_size: 0 left_padding_size: 1"
                                       " right_padding_size: 1\n padding_value: 7\n mean_chn_0: 1 mean_chn_1: 1"
                                       " mean_chn_2: 1\n var_reci_chn_0: 2 var_reci_chn_1: 2 var_reci_chn_2: 2\n}\n",
                               RgbImage(2, 3));
  RequireRan(r);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) {
        const bool pad = y < 1 || x < 1 || x > 2;
        CHECK(r.out[At(c, y, x)] == (pad ? 7.0f : (Rgb(x - 1, y - 1, c) - 1) * 2.0f));
      }
}

TEST_CASE("aipp: an NHWC model input gets NHWC features; a uint8 input skips the normalisation", "[aipp]") {
  const std::string cfg = kHead + " input_format: RGB888_U8\n mean_chn_0: 1 mean_chn_1: 2 mean_chn_2: 3\n}\n";
  const auto nhwc = CompileAndRun({{1, 4, 4, 3}, "DT_FLOAT", "NHWC"}, cfg, RgbImage(4, 4));
  RequireRan(nhwc);
  REQUIRE(nhwc.out_shape == std::vector<int64_t>{1, 4, 4, 3});
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 4; ++x)
      for (int64_t c = 0; c < 3; ++c) CHECK(nhwc.out[static_cast<size_t>((y * 4 + x) * 3 + c)] == Rgb(x, y, c) - 1 - c);
  const auto u8 = CompileAndRun({{1, 3, 4, 4}, "DT_UINT8"}, cfg, RgbImage(4, 4));
  RequireRan(u8);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) CHECK(u8.out[At(c, y, x)] == Rgb(x, y, c));
}

TEST_CASE("aipp: a batch of two images", "[aipp]") {
  std::vector<uint8_t> img = RgbImage(4, 4);
  for (uint8_t v : RgbImage(4, 4)) img.push_back(static_cast<uint8_t>(255 - v));
  const auto r = CompileAndRun({{2, 3, 4, 4}}, kHead + " input_format: RGB888_U8\n}\n", img);
  RequireRan(r);
  REQUIRE(r.out.size() == 96);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) CHECK(r.out[48 + At(c, y, x)] == 255 - Rgb(x, y, c));
}

TEST_CASE("aipp: YUV420SP_U8 with the BT.601 matrix matches the textbook float conversion within 2", "[aipp]") {
  // An 8x6 NV12 image with Y over [16, 235] and U, V over [16, 240]; the reference is the
  // BT.601 narrow-range formula in floating point (R = 1.164 (Y - 16) + 1.596 (V - 128), ...),
  // independent of the fixed-point matrix the chip uses; the fixed-point floor differs by < 2.
  const int64_t w = 8, h = 6;
  std::vector<uint8_t> img;
  for (int64_t i = 0; i < w * h; ++i) img.push_back(static_cast<uint8_t>(16 + (i * 37) % 220));
  for (int64_t i = 0; i < w * h / 2; ++i) img.push_back(static_cast<uint8_t>(16 + (i * 53 + 11) % 225));
  const auto r = CompileAndRun({{1, 3, h, w}},
                               kHead + " input_format: YUV420SP_U8\n src_image_size_w: 8 src_image_size_h: 6\n"
                                       " csc_switch: true\n matrix_r0c0: 298 matrix_r0c1: 0 matrix_r0c2: 409\n"
                                       " matrix_r1c0: 298 matrix_r1c1: -100 matrix_r1c2: -208\n"
                                       " matrix_r2c0: 298 matrix_r2c1: 516 matrix_r2c2: 0\n"
                                       " input_bias_0: 16 input_bias_1: 128 input_bias_2: 128\n}\n",
                               img);
  RequireRan(r);
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x) {
      const double Y = img[static_cast<size_t>(y * w + x)];
      const size_t uv = static_cast<size_t>(w * h + (y / 2) * w + (x / 2) * 2);
      const double U = img[uv], V = img[uv + 1];
      const double rgb[3] = {1.164 * (Y - 16) + 1.596 * (V - 128),
                             1.164 * (Y - 16) - 0.391 * (U - 128) - 0.813 * (V - 128),
                             1.164 * (Y - 16) + 2.018 * (U - 128)};
      for (int64_t c = 0; c < 3; ++c) {
        const double want = rgb[c] < 0 ? 0 : (rgb[c] > 255 ? 255 : rgb[c]);
        CHECK(std::abs(r.out[static_cast<size_t>((c * h + y) * w + x)] - want) < 2.0);
      }
    }
}
