// Static AIPP blocks that do not fit the model input are refused by atc, naming the config file,
// the Data node and the block; the image input of the OM is what omrun then checks files against.
#include <catch2/catch.hpp>

#include "aipp_util.h"

using aipp_test::CompileAndRun;

namespace {
const std::string kHead = "aipp_op {\n aipp_mode: static\n";
const std::vector<uint8_t> kImage(48, 9);  // a 4x4 RGB888 image

std::string Err(const std::string &config, const std::vector<int64_t> &dims = {1, 3, 4, 4}) {
  const auto r = CompileAndRun({dims}, config, kImage);
  CHECK(r.atc_exit == 255);
  // The temp folder differs per run: compare from the code on, and the file name's tail.
  const size_t code = r.atc_err.find("error: ");
  REQUIRE(code != std::string::npos);
  CHECK(r.atc_err.find("/aipp.cfg'") != std::string::npos);
  const size_t after_file = r.atc_err.find("/aipp.cfg': ");
  return r.atc_err.substr(code + 7, 8) + (after_file == std::string::npos ? r.atc_err : r.atc_err.substr(after_file + 12));
}
}  // namespace

TEST_CASE("aipp: a block whose output size is not the model input's is refused", "[aipp]") {
  CHECK(Err(kHead + " input_format: RGB888_U8\n src_image_size_w: 5 src_image_size_h: 4\n}\n") ==
        "E10001: node 'img' (Data): aipp_op block at line 1: AIPP gives a 5x4 (WxH) image but the model input is 4x4. "
        "Make (crop ? crop_size : src_image_size) + padding equal the model input's W and H.\n");
  CHECK(Err(kHead + " input_format: RGB888_U8\n src_image_size_w: 4 src_image_size_h: 4\n crop: true\n"
                    " load_start_pos_w: 1 crop_size_w: 4 crop_size_h: 4\n}\n") ==
        "E10001: aipp_op block at line 1: the crop window (load_start_pos + crop_size) reaches outside the source "
        "image. Keep load_start_pos_w + crop_size_w <= src_image_size_w (and the same for h).\n");  // the parser's check
}

TEST_CASE("aipp: the input must exist and have the format's channels", "[aipp]") {
  CHECK(Err(kHead + " input_format: RGB888_U8\n related_input_rank: 1\n}\n") ==
        "E10052: aipp_op block at line 1: related_input_rank 1 is not an input of the model (it has 1 input(s)). Name "
        "a model input: related_input_rank counts the inputs from 0.\n");
  CHECK(Err(kHead + " input_format: YUV400_U8\n}\n") ==
        "E10001: node 'img' (Data): aipp_op block at line 1: input_format 4 gives 1 channel(s) but the model input has 3 "
        "(shape [1, 3, 4, 4], NCHW). Fix the aipp_op block of --insert_op_conf.\n");
  CHECK(Err(kHead + " input_format: RGB888_U8\n}\n", {1, 3, -1, 4}) ==
        "E10001: node 'img' (Data): static AIPP needs a 4-dim input of known dims, the input has shape [1, 3, -1, 4]. "
        "Give the input's shape with --input_shape, e.g. \"img:1,3,224,224\".\n");
}

TEST_CASE("aipp: --input_shape gives the model dims; the OM input is the uint8 image omrun checks", "[aipp]") {
  // The graph declares -1 for H; --input_shape fixes it, AIPP then turns the input into the image.
  auto ok = CompileAndRun({{1, 3, -1, 4}}, kHead + " input_format: RGB888_U8\n}\n", kImage, {"--input_shape", "img:1,3,4,4"});
  INFO(ok.atc_err << ok.omrun_err);
  REQUIRE(ok.omrun_exit == 0);
  CHECK(ok.out == std::vector<float>(48, 9.0f));
  auto small = CompileAndRun({{1, 3, 4, 4}}, kHead + " input_format: RGB888_U8\n}\n", std::vector<uint8_t>(47, 9));
  CHECK(small.omrun_exit == 3);
  CHECK(small.omrun_err.find("47 bytes") != std::string::npos);
}

TEST_CASE("aipp: input formats beyond the documented four are refused on the host", "[aipp]") {
  CHECK(Err(kHead + " input_format: YUYV_U8\n}\n") ==
        "E10001: node 'img' (Data): aipp_op block at line 1: input_format 8 is not supported on the host. Use "
        "YUV420SP_U8, XRGB8888_U8, RGB888_U8 or YUV400_U8.\n");
}
