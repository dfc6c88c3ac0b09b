/**
 * @file openatc/atc/aipp_config.h
 * The `--insert_op_conf` AIPP file (docs/atc-flags.md "AIPP"): protobuf text format of GE's
 * `InsertNewOps` message, any number of `aipp_op { key: value ... }` blocks, `#` comments.
 * This header only parses and checks the file; inserting the preprocessing node is a later
 * stage of issue 15.
 *
 * Errors: openatc::Error, category kUsage, with the file set and the line and field named:
 *   E10001  a syntax error, an unknown key, a value of the wrong type or out of its range, a
 *           missing required key (aipp_mode; input_format for static), a key given twice
 *   E10052  two blocks for the same input, or related_input_rank and related_input_name mixed
 */
#ifndef OPENATC_ATC_AIPP_CONFIG_H_
#define OPENATC_ATC_AIPP_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace openatc {
namespace atc {

/// One `aipp_op` block after defaults (GE's fill rule: CSC matrix and biases only for static
/// blocks with csc_switch on; var_reci always 1.0). Enum values are GE's proto numbers.
struct AippOp {
  int line = 0;                   ///< line of the block's opening `{`
  int aipp_mode = 0;              ///< 1 static, 2 dynamic
  uint32_t related_input_rank = 0;
  std::string related_input_name;
  bool rank_given = false, name_given = false;
  uint32_t max_src_image_size = 0;
  bool support_rotation = false;
  int input_format = 0;           ///< 1 YUV420SP_U8, 2 XRGB8888_U8, 3 RGB888_U8, 4 YUV400_U8, ... 20
  int32_t src_image_size_w = 0, src_image_size_h = 0;
  bool crop = false;
  int32_t load_start_pos_w = 0, load_start_pos_h = 0, crop_size_w = 0, crop_size_h = 0;
  bool padding = false;
  int32_t left_padding_size = 0, right_padding_size = 0, top_padding_size = 0, bottom_padding_size = 0;
  float padding_value = 0.0f;
  bool csc_switch = false, rbuv_swap_switch = false, ax_swap_switch = false;
  int32_t matrix[3][3] = {};      ///< matrix_r<i>c<j>
  int32_t output_bias[3] = {}, input_bias[3] = {};
  int32_t mean_chn[4] = {};
  float min_chn[4] = {};
  float var_reci_chn[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  uint32_t raw_rgbir_to_f16_n = 0;
};

/// Parses and checks the text of an AIPP config; `file` names it in errors.
std::vector<AippOp> ParseAippConfig(const std::string &text, const std::string &file);

/// Reads `path` (E10001 naming it when it cannot be read) and calls ParseAippConfig.
std::vector<AippOp> ReadAippConfigFile(const std::string &path);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_AIPP_CONFIG_H_
