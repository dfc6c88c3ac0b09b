// The --insert_op_conf parser (openatc/atc/aipp_config.h): values, GE's defaults, and an error
// naming line and field for each rule.
#include <string>

#include <catch2/catch.hpp>

#include "openatc/atc/aipp_config.h"
#include "test_util.h"

using openatc::atc::AippOp;
using openatc::atc::ParseAippConfig;

namespace {
std::string ErrorOf(const std::string &text) {
  return tools_test::Capture([&] { ParseAippConfig(text, "a.cfg"); }).what();
}
}  // namespace

TEST_CASE("aipp config: a static block with comments, both spellings and every value kind") {
  const auto ops = ParseAippConfig(
      "# preprocessing\n"
      "aipp_op {\n"
      "  aipp_mode : static   # after a value\n"
      "  related_input_rank: 1\n"
      "  input_format: YUV420SP_U8\n"
      "  src_image_size_w: 224\n  src_image_size_h: 224\n"
      "  crop: true\n  load_start_pos_w: 2\n  crop_size_w: 220\n  crop_size_h: 200\n"
      "  csc_switch: true\n  matrix_r0c0: 256\n"
      "  mean_chn_0: 127\n  min_chn_1: 0.5\n  var_reci_chn_2: 0.0078125\n  padding_value: -1.5\n"
      "}\n"
      "aipp_op: < aipp_mode: dynamic related_input_rank: 0 max_src_image_size: 752640 >\n",
      "a.cfg");
  REQUIRE(ops.size() == 2);
  const AippOp &s = ops[0];
  CHECK(s.line == 2);
  CHECK(s.aipp_mode == 1);
  CHECK(s.related_input_rank == 1);
  CHECK(s.input_format == 1);
  CHECK(s.src_image_size_w == 224);
  CHECK(s.crop);
  CHECK(s.load_start_pos_w == 2);
  CHECK(s.crop_size_w == 220);
  CHECK(s.crop_size_h == 200);
  // GE's YUV420SP default matrix except the given entry; biases default to 16, 128, 128.
  CHECK(s.matrix[0][0] == 256);
  CHECK(s.matrix[0][1] == 516);
  CHECK(s.matrix[2][2] == 409);
  CHECK(s.input_bias[0] == 16);
  CHECK(s.input_bias[2] == 128);
  CHECK(s.mean_chn[0] == 127);
  CHECK(s.min_chn[1] == 0.5f);
  CHECK(s.var_reci_chn[2] == 0.0078125f);
  CHECK(s.var_reci_chn[0] == 1.0f);
  CHECK(s.padding_value == -1.5f);
  CHECK(ops[1].aipp_mode == 2);
  CHECK(ops[1].max_src_image_size == 752640u);
  CHECK(ops[1].line == 19);
}

TEST_CASE("aipp config: defaults only where GE fills them") {
  const auto rgb = ParseAippConfig("aipp_op { aipp_mode: static input_format: RGB888_U8 csc_switch: true }", "a.cfg");
  CHECK(rgb[0].matrix[0][0] == 66);
  CHECK(rgb[0].matrix[2][2] == -18);
  CHECK(rgb[0].output_bias[1] == 128);
  const auto off = ParseAippConfig("aipp_op { aipp_mode: static input_format: RGB888_U8 crop: false crop_size_w: 9 }", "a.cfg");
  CHECK(off[0].matrix[0][0] == 0);
  CHECK(off[0].crop_size_w == 0);  // crop: false zeroes the window
}

TEST_CASE("aipp config: syntax errors name the line") {
  CHECK(ErrorOf("aipp_op {\n aipp_mode static\n}") ==
        "E10001: 'a.cfg': line 2: field 'aipp_mode': expected ':' after the name. Write the AIPP config as `aipp_op { "
        "key: value ... }` blocks (protobuf text format).");
  CHECK(ErrorOf("aipp {\n}") ==
        "E10001: 'a.cfg': line 1: expected 'aipp_op', found 'aipp' (the only top-level field of the file). Write the "
        "AIPP config as `aipp_op { key: value ... }` blocks (protobuf text format).");
  CHECK(ErrorOf("\naipp_op {\n aipp_mode: static\n") ==
        "E10001: 'a.cfg': line 2: the aipp_op block opened here is not closed with '}'. Write the AIPP config as "
        "`aipp_op { key: value ... }` blocks (protobuf text format).");
  CHECK(ErrorOf("aipp_op { related_input_name: \"x }").rfind("E10001: 'a.cfg': line 1: a string is not closed", 0) == 0);
  CHECK(ErrorOf("aipp_op { aipp_mode: static @ }").rfind("E10001: 'a.cfg': line 1: unexpected character '@'", 0) == 0);
}

TEST_CASE("aipp config: field values, types and ranges") {
  const std::string head = "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n";
  const std::string hint = ". See docs/atc-deploy-flags.md for the fields and their ranges.";
  CHECK(ErrorOf(head + " mean_chn_0: 256\n}") == "E10001: 'a.cfg': line 4: field 'mean_chn_0': value 256 is outside [0, 255]" + hint);
  CHECK(ErrorOf(head + " matrix_r1c2: -32678\n}") ==
        "E10001: 'a.cfg': line 4: field 'matrix_r1c2': value -32678 is outside [-32677, 32676]" + hint);
  CHECK(ErrorOf(head + " left_padding_size: 33\n}") ==
        "E10001: 'a.cfg': line 4: field 'left_padding_size': value 33 is outside [0, 32]" + hint);
  CHECK(ErrorOf(head + " crop: yes\n}") == "E10001: 'a.cfg': line 4: field 'crop': 'yes' is not true or false" + hint);
  CHECK(ErrorOf(head + " mean_chn_1: 1.5\n}") == "E10001: 'a.cfg': line 4: field 'mean_chn_1': '1.5' is not an integer" + hint);
  CHECK(ErrorOf(head + " src_image_size_w: -2\n}") ==
        "E10001: 'a.cfg': line 4: field 'src_image_size_w': value -2 is outside [0, 4096]" + hint);
  CHECK(ErrorOf(head + " related_input_name: data\n}") ==
        "E10001: 'a.cfg': line 4: field 'related_input_name': expected a quoted string" + hint);
  CHECK(ErrorOf(head + " var_reci_chn_0: 0.5\n var_reci_chn_0: 0.25\n}") ==
        "E10001: 'a.cfg': line 5: field 'var_reci_chn_0' cannot be configured repeatedly in one aipp_op block. Write "
        "the AIPP config as `aipp_op { key: value ... }` blocks (protobuf text format).");
  CHECK(ErrorOf(head + " resize: true\n}") ==
        "E10001: 'a.cfg': line 4: field 'resize': resize is reserved and not supported. Remove resize or set it to false.");
  CHECK(ErrorOf("aipp_op { aipp_mode: static input_format: BGR }") ==
        "E10001: 'a.cfg': line 1: field 'input_format': 'BGR' is not an input format. Use YUV420SP_U8, XRGB8888_U8, "
        "RGB888_U8 or YUV400_U8.");
  CHECK(ErrorOf("aipp_op { aipp_mode: auto }") ==
        "E10001: 'a.cfg': line 1: field 'aipp_mode': aipp_mode must be configured as static or dynamic, not 'auto'" + hint);
}

TEST_CASE("aipp config: block rules") {
  CHECK(ErrorOf("aipp_op { input_format: RGB888_U8 }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: aipp_mode must be configured as static or dynamic. Add `aipp_mode: "
        "static`.");
  CHECK(ErrorOf("aipp_op { aipp_mode: static }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: a static block needs input_format. Add e.g. `input_format: "
        "RGB888_U8`.");
  CHECK(ErrorOf("aipp_op { aipp_mode: dynamic }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: a dynamic block needs max_src_image_size > 0. Set "
        "max_src_image_size to the largest image's byte size.");
  CHECK(ErrorOf("aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 7 src_image_size_h: 8 }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: src_image_size_w and src_image_size_h must be even for "
        "YUV420SP_U8. Use an even image size.");
  CHECK(ErrorOf("aipp_op { aipp_mode: static input_format: RGB888_U8 crop: true crop_size_w: 4 crop_size_h: 4 }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: src_image_size_w/_h may be 0 (the model's size) only when crop and "
        "padding are off. Set src_image_size_w and src_image_size_h.");
  CHECK(ErrorOf("aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 8 src_image_size_h: 8\n"
                " crop: true load_start_pos_w: 6 crop_size_w: 4 crop_size_h: 4 }") ==
        "E10001: 'a.cfg': aipp_op block at line 1: the crop window (load_start_pos + crop_size) reaches outside the "
        "source image. Keep load_start_pos_w + crop_size_w <= src_image_size_w (and the same for h).");
}

TEST_CASE("aipp config: one block per input, rank and name not mixed") {
  const std::string block = "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 0 }\n";
  CHECK(ErrorOf(block + "\n" + block) ==
        "E10052: 'a.cfg': line 3: cannot insert AIPP twice at the same position (input rank 0). Give each aipp_op "
        "block its own related_input_rank.");
  CHECK(ErrorOf(block + "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_name: \"y\" }") ==
        "E10052: 'a.cfg': related_input_name and related_input_rank are mixed across the aipp_op blocks. Name every "
        "block's input the same way (related_input_rank for GE IR and ONNX models).");
  CHECK(ParseAippConfig(block + "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }", "a.cfg").size() == 2);
  CHECK(ParseAippConfig("", "a.cfg").empty());
}
