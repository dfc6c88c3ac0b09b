// Dynamic AIPP (aipp_mode: dynamic): atc adds the input ascend_dynamic_aipp_data, whose 64 + 96 * N
// bytes (docs/atc-deploy-flags.md §2, "Dynamic AIPP") carry the parameters of each run; the
// buffers here are written byte by byte from that layout, the expected values by plain arithmetic.
#include <catch2/catch.hpp>

#include <cstring>

#include "aipp_util.h"

using aipp_test::CompileAndRunInputs;
using aipp_test::Model;

namespace {

uint8_t Rgb(int64_t x, int64_t y, int64_t c, int64_t n) { return static_cast<uint8_t>(16 * y + 4 * x + 50 * c + 1 + 5 * n); }

template <typename T>
void Put(std::vector<uint8_t> &b, size_t off, T v) {
  std::memcpy(b.data() + off, &v, sizeof(T));
}

// Head: RGB888 (CCE code 5), R/B swap, batch 2, a 6x5 source. Image 0: crop 4x4 at (1, 1), mean
// 10/20/30, min 0.5, var_reci 0.25; image 1: crop 3x4 at (2, 0), one column of left padding.
std::vector<uint8_t> Params(int8_t batch) {
  std::vector<uint8_t> b(64 + 96 * 2, 0);
  b[0] = 5, b[2] = 1, b[4] = static_cast<uint8_t>(batch);
  Put<int32_t>(b, 8, 6), Put<int32_t>(b, 12, 5);
  uint8_t *r0 = b.data() + 64;
  r0[0] = 1;
  Put<int32_t>(b, 64 + 8, 1), Put<int32_t>(b, 64 + 12, 1), Put<int32_t>(b, 64 + 16, 4), Put<int32_t>(b, 64 + 20, 4);
  for (size_t c = 0; c < 4; ++c) {
    Put<int16_t>(b, 64 + 56 + 2 * c, static_cast<int16_t>(10 * (c + 1)));
    Put<uint16_t>(b, 64 + 64 + 2 * c, 0x3800);  // fp16 0.5
    Put<uint16_t>(b, 64 + 72 + 2 * c, 0x3400);  // fp16 0.25
    Put<uint16_t>(b, 160 + 72 + 2 * c, 0x3C00);  // image 1: fp16 1.0
  }
  b[160] = 1, b[160 + 2] = 1;
  Put<int32_t>(b, 160 + 8, 2), Put<int32_t>(b, 160 + 12, 0), Put<int32_t>(b, 160 + 16, 3), Put<int32_t>(b, 160 + 20, 4);
  Put<int32_t>(b, 160 + 48, 1);  // padLeft
  return b;
}

std::vector<uint8_t> Images() {
  std::vector<uint8_t> img;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t y = 0; y < 5; ++y)
      for (int64_t x = 0; x < 6; ++x)
        for (int64_t c = 0; c < 3; ++c) img.push_back(Rgb(x, y, c, n));
  return img;
}

const std::string kConfig = "aipp_op {\n aipp_mode: dynamic\n max_src_image_size: 180\n}\n";

}  // namespace

TEST_CASE("aipp dynamic: per-image crop, padding and normalisation from the parameter input", "[aipp]") {
  const auto r = CompileAndRunInputs({{2, 3, 4, 4}}, kConfig, {Images(), Params(2)});
  INFO(r.atc_err << r.omrun_err);
  REQUIRE(r.omrun_exit == 0);
  REQUIRE(r.out_shape == std::vector<int64_t>{2, 3, 4, 4});
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x) {
        const size_t at = static_cast<size_t>((c * 4 + y) * 4 + x);
        CHECK(r.out[at] == (static_cast<float>(Rgb(x + 1, y + 1, 2 - c, 0) - 10 * (c + 1)) - 0.5f) * 0.25f);
        CHECK(r.out[48 + at] == (x == 0 ? 0.0f : static_cast<float>(Rgb(x - 1 + 2, y, 2 - c, 1))));
      }
}

TEST_CASE("aipp dynamic: parameters that do not fit the model are refused when the model runs", "[aipp]") {
  const auto r = CompileAndRunInputs({{2, 3, 4, 4}}, kConfig, {Images(), Params(1)});
  CHECK(r.omrun_exit == 6);
  CHECK(r.omrun_err.find("the dynamic AIPP parameters are for a batch of 1, the model input has 2") !=
        std::string::npos);
  auto wide = Params(2);
  Put<int32_t>(wide, 64 + 16, 5);  // image 0: crop 5 wide
  const auto w = CompileAndRunInputs({{2, 3, 4, 4}}, kConfig, {Images(), wide});
  CHECK(w.omrun_exit == 6);
  CHECK(w.omrun_err.find("image 0: dynamic AIPP gives 5x4x3 (WxHxC), the model input is 4x4x3") != std::string::npos);
}
