// AIPP acceptance on a real model (issue 15): ultraface-rfb-320's test input is (x - 127) / 128
// of a photo, NCHW; the uint8 photo is recovered exactly by inverting that, fed as an RGB888_U8
// NHWC image to the model compiled with a static AIPP of mean 127 and var_reci 1/128, and must
// give the fp32 reference outputs. Label `models`; skipped without ../shared/models.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cmath>
#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc::testing;
namespace tio = openatc::tensor_io;

TEST_CASE("aipp: ultraface-rfb-320 on the uint8 photo through static AIPP matches its fp32 reference", "[aipp]") {
  const std::string root = SourcePath("../shared/models/ultraface-rfb-320");
  struct stat st {};
  if (::stat((root + "/model.onnx").c_str(), &st) != 0) {
    WARN("skipped: " << root << " is absent");
    return;
  }
  const tio::HostTensor in = tio::LoadTensorFile(root + "/test_data_set_0/input_0.pb", "input 0", ge::DT_FLOAT, {-1, -1, -1, -1});
  REQUIRE(in.shape == std::vector<int64_t>{1, 3, 240, 320});
  std::vector<float> v(in.data.size() / 4);
  std::memcpy(v.data(), in.data.data(), in.data.size());
  std::string image(240 * 320 * 3, '\0');  // NHWC
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t p = 0; p < 240 * 320; ++p) {
      const float x = v[static_cast<size_t>(c * 240 * 320 + p)] * 128.0f + 127.0f;
      if (x != std::round(x) || x < 0.0f || x > 255.0f) FAIL("input value " << x << " is not (u8 - 127) / 128");
      image[static_cast<size_t>(p * 3 + c)] = static_cast<char>(static_cast<uint8_t>(x));
    }
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/photo.bin", image);
  WriteBytes(dir + "/aipp.cfg",
             "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 320\n src_image_size_h: 240\n"
             " mean_chn_0: 127\n mean_chn_1: 127\n mean_chn_2: 127\n"
             " var_reci_chn_0: 0.0078125\n var_reci_chn_1: 0.0078125\n var_reci_chn_2: 0.0078125\n}\n");
  const auto atc = RunAtc({"--model", root + "/model.onnx", "--framework", "5", "--soc_version", "host", "--output",
                           dir + "/m", "--insert_op_conf", dir + "/aipp.cfg"},
                          "");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  const auto run = RunOmrun({dir + "/m.om", "--input", dir + "/photo.bin", "--expected_output",
                             root + "/test_data_set_0/output_0.pb," + root + "/test_data_set_0/output_1.pb", "--atol",
                             "1e-4", "--rtol", "1e-3"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  RemoveTree(dir);
}
