// SetAippField / CheckAippBlock: the typed fields of an `aipp_op` block, GE's value ranges and
// defaults (docs/atc-deploy-flags.md §2).
#include "aipp_fields.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>

#include "openatc/common/error.h"

namespace openatc {
namespace atc {
namespace {

enum class Kind { kInt, kUint, kFloat, kBool, kMode, kFormat, kString };

struct Field {
  Kind kind;
  double lo, hi;  ///< inclusive range for numbers
  std::function<void(AippOp &, double, const std::string &)> set;
};

[[noreturn]] void Bad(int line, const std::string &key, const std::string &what, const std::string &file,
                      const std::string &hint = "See docs/atc-deploy-flags.md for the fields and their ranges") {
  throw Error(ErrorCategory::kUsage, "E10001", "line " + std::to_string(line) + ": field '" + key + "': " + what, hint)
      .WithFile(file);
}

const std::map<std::string, int> &Formats() {
  static const std::map<std::string, int> m = {
      {"UNDEFINED", 0}, {"YUV420SP_U8", 1}, {"XRGB8888_U8", 2}, {"RGB888_U8", 3}, {"YUV400_U8", 4},
      {"NC1HWC0DI_FP16", 5}, {"NC1HWC0DI_S8", 6}, {"ARGB8888_U8", 7}, {"YUYV_U8", 8}, {"YUV422SP_U8", 9},
      {"AYUV444_U8", 10}, {"RAW10", 11}, {"RAW12", 12}, {"RAW16", 13}, {"RAW24", 14}, {"RGB16", 15},
      {"RGB20", 16}, {"RGB24", 17}, {"RGB8_IR", 18}, {"RGB16_IR", 19}, {"RGB24_IR", 20}};
  return m;
}

#define AIPP_NUM(kind, lo, hi, member) \
  Field { kind, lo, hi, [](AippOp &o, double v, const std::string &) { o.member = static_cast<decltype(o.member)>(v); } }
#define AIPP_BOOL(member) AIPP_NUM(Kind::kBool, 0, 1, member)

const std::map<std::string, Field> &Fields() {
  static const std::map<std::string, Field> m = [] {
    const double i32 = 2147483647.0, u32 = 4294967295.0;
    std::map<std::string, Field> f = {
        {"aipp_mode", AIPP_NUM(Kind::kMode, 0, 2, aipp_mode)},
        {"related_input_rank", Field{Kind::kUint, 0, u32, [](AippOp &o, double v, const std::string &) {
                                       o.related_input_rank = static_cast<uint32_t>(v);
                                       o.rank_given = true;
                                     }}},
        {"related_input_name", Field{Kind::kString, 0, 0, [](AippOp &o, double, const std::string &s) {
                                       o.related_input_name = s;
                                       o.name_given = true;
                                     }}},
        {"input_edge_idx", Field{Kind::kUint, 0, u32, [](AippOp &, double, const std::string &) {}}},
        {"max_src_image_size", AIPP_NUM(Kind::kUint, 0, u32, max_src_image_size)},
        {"support_rotation", AIPP_BOOL(support_rotation)},
        {"input_format", AIPP_NUM(Kind::kFormat, 0, 20, input_format)},
        {"src_image_size_w", AIPP_NUM(Kind::kInt, 0, 4096, src_image_size_w)},
        {"src_image_size_h", AIPP_NUM(Kind::kInt, 0, 4096, src_image_size_h)},
        {"crop", AIPP_BOOL(crop)},
        {"load_start_pos_w", AIPP_NUM(Kind::kInt, 0, 4095, load_start_pos_w)},
        {"load_start_pos_h", AIPP_NUM(Kind::kInt, 0, 4095, load_start_pos_h)},
        {"crop_size_w", AIPP_NUM(Kind::kInt, 0, 4096, crop_size_w)},
        {"crop_size_h", AIPP_NUM(Kind::kInt, 0, 4096, crop_size_h)},
        {"resize", Field{Kind::kBool, 0, 1, [](AippOp &, double, const std::string &) {}}},
        {"resize_output_w", Field{Kind::kInt, 0, i32, [](AippOp &, double, const std::string &) {}}},
        {"resize_output_h", Field{Kind::kInt, 0, i32, [](AippOp &, double, const std::string &) {}}},
        {"padding", AIPP_BOOL(padding)},
        {"left_padding_size", AIPP_NUM(Kind::kInt, 0, 32, left_padding_size)},
        {"right_padding_size", AIPP_NUM(Kind::kInt, 0, 32, right_padding_size)},
        {"top_padding_size", AIPP_NUM(Kind::kInt, 0, 32, top_padding_size)},
        {"bottom_padding_size", AIPP_NUM(Kind::kInt, 0, 32, bottom_padding_size)},
        {"padding_value", AIPP_NUM(Kind::kFloat, -65504, 65504, padding_value)},
        {"cpadding_value", Field{Kind::kFloat, -65504, 65504, [](AippOp &, double, const std::string &) {}}},
        {"single_line_mode", Field{Kind::kBool, 0, 1, [](AippOp &, double, const std::string &) {}}},
        {"rotation_angle", Field{Kind::kFloat, -360, 360, [](AippOp &, double, const std::string &) {}}},
        {"csc_switch", AIPP_BOOL(csc_switch)},
        {"rbuv_swap_switch", AIPP_BOOL(rbuv_swap_switch)},
        {"ax_swap_switch", AIPP_BOOL(ax_swap_switch)},
        {"raw_rgbir_to_f16_n", AIPP_NUM(Kind::kUint, 0, u32, raw_rgbir_to_f16_n)},
    };
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        f.emplace("matrix_r" + std::to_string(r) + "c" + std::to_string(c),
                  Field{Kind::kInt, -32677, 32676,
                        [r, c](AippOp &o, double v, const std::string &) { o.matrix[r][c] = static_cast<int32_t>(v); }});
    for (int i = 0; i < 3; ++i) {
      f.emplace("output_bias_" + std::to_string(i),
                Field{Kind::kInt, 0, 255, [i](AippOp &o, double v, const std::string &) { o.output_bias[i] = static_cast<int32_t>(v); }});
      f.emplace("input_bias_" + std::to_string(i),
                Field{Kind::kInt, 0, 255, [i](AippOp &o, double v, const std::string &) { o.input_bias[i] = static_cast<int32_t>(v); }});
    }
    for (int i = 0; i < 4; ++i) {
      const std::string n = std::to_string(i);
      f.emplace("mean_chn_" + n, Field{Kind::kInt, 0, 255, [i](AippOp &o, double v, const std::string &) { o.mean_chn[i] = static_cast<int32_t>(v); }});
      f.emplace("min_chn_" + n, Field{Kind::kFloat, 0, 255, [i](AippOp &o, double v, const std::string &) { o.min_chn[i] = static_cast<float>(v); }});
      f.emplace("var_reci_chn_" + n,
                Field{Kind::kFloat, -65504, 65504, [i](AippOp &o, double v, const std::string &) { o.var_reci_chn[i] = static_cast<float>(v); }});
    }
    return f;
  }();
  return m;
}
#undef AIPP_BOOL
#undef AIPP_NUM

// The token as a number of the field's kind; throws naming line and field.
double ValueOf(const Field &f, const std::string &key, const std::string &v, int line, const std::string &file) {
  if (f.kind == Kind::kBool) {
    if (v == "true" || v == "True" || v == "t" || v == "1") return 1;
    if (v == "false" || v == "False" || v == "f" || v == "0") return 0;
    Bad(line, key, "'" + v + "' is not true or false", file);
  }
  if (f.kind == Kind::kMode) {
    if (v == "static" || v == "1") return 1;
    if (v == "dynamic" || v == "2") return 2;
    if (v == "undefined" || v == "0") return 0;
    Bad(line, key, "aipp_mode must be configured as static or dynamic, not '" + v + "'", file);
  }
  if (f.kind == Kind::kFormat) {
    auto it = Formats().find(v);
    if (it != Formats().end()) return it->second;
    Bad(line, key, "'" + v + "' is not an input format", file,
        "Use YUV420SP_U8, XRGB8888_U8, RGB888_U8 or YUV400_U8");
  }
  errno = 0;
  char *end = nullptr;
  const double d = (f.kind == Kind::kFloat) ? std::strtod(v.c_str(), &end)
                                            : static_cast<double>(std::strtoll(v.c_str(), &end, 10));
  if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE || !std::isfinite(d))
    Bad(line, key, "'" + v + "' is not " + (f.kind == Kind::kFloat ? "a number" : "an integer"), file);
  if (d < f.lo || d > f.hi) {
    auto num = [](double x) { return std::to_string(static_cast<long long>(x)); };
    Bad(line, key, "value " + v + " is outside [" + num(f.lo) + ", " + num(f.hi) + "]", file);
  }
  return d;
}

void DefaultCsc(AippOp &op, const std::set<std::string> &given) {
  static const int32_t kYuvToBgr[3][3] = {{298, 516, 0}, {298, -100, -208}, {298, 0, 409}};
  static const int32_t kRgbToYuv[3][3] = {{66, 129, 25}, {-38, -74, 112}, {112, -94, -18}};
  const auto &m = (op.input_format == 1) ? kYuvToBgr : kRgbToYuv;
  const int32_t bias[3] = {16, 128, 128};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c)
      if (!given.count("matrix_r" + std::to_string(r) + "c" + std::to_string(c))) op.matrix[r][c] = m[r][c];
    if (!given.count("input_bias_" + std::to_string(r))) op.input_bias[r] = bias[r];
    if (!given.count("output_bias_" + std::to_string(r))) op.output_bias[r] = bias[r];
  }
}

[[noreturn]] void BadBlock(const AippOp &op, const std::string &what, const std::string &file, const std::string &hint) {
  throw Error(ErrorCategory::kUsage, "E10001", "aipp_op block at line " + std::to_string(op.line) + ": " + what, hint)
      .WithFile(file);
}

void CheckWindow(const AippOp &op, const std::string &file) {
  const bool yuv420 = op.input_format == 1;
  if (op.src_image_size_w == 1) BadBlock(op, "src_image_size_w must be in [2, 4096]", file, "Set the image width");
  if (yuv420 && (op.src_image_size_w % 2 != 0 || op.src_image_size_h % 2 != 0))
    BadBlock(op, "src_image_size_w and src_image_size_h must be even for YUV420SP_U8", file, "Use an even image size");
  if ((op.src_image_size_w == 0 || op.src_image_size_h == 0) && (op.crop || op.padding))
    BadBlock(op, "src_image_size_w/_h may be 0 (the model's size) only when crop and padding are off", file,
             "Set src_image_size_w and src_image_size_h");
  if (!op.crop) return;
  if (yuv420 && (op.load_start_pos_w % 2 != 0 || op.load_start_pos_h % 2 != 0))
    BadBlock(op, "load_start_pos_w and load_start_pos_h must be even for YUV420SP_U8", file, "Use even crop offsets");
  if ((op.crop_size_w == 0 || op.crop_size_h == 0) && op.padding)
    BadBlock(op, "crop_size_w/_h may be 0 (the model's size) only without padding", file, "Set crop_size_w and crop_size_h");
  if (op.load_start_pos_w + op.crop_size_w > op.src_image_size_w ||
      op.load_start_pos_h + op.crop_size_h > op.src_image_size_h)
    BadBlock(op, "the crop window (load_start_pos + crop_size) reaches outside the source image", file,
             "Keep load_start_pos_w + crop_size_w <= src_image_size_w (and the same for h)");
}

}  // namespace

void SetAippField(AippOp &op, const std::string &key, const std::string &value, bool quoted, int line,
                  const std::string &file) {
  auto it = Fields().find(key);
  if (it == Fields().end())
    Bad(line, key, "not a field of aipp_op", file, "Check the spelling against docs/atc-deploy-flags.md");
  const Field &f = it->second;
  if ((f.kind == Kind::kString) != quoted)
    Bad(line, key, quoted ? "expected a value without quotes" : "expected a quoted string", file);
  if (key == "resize" && (value == "true" || value == "True" || value == "t" || value == "1"))
    Bad(line, key, "resize is reserved and not supported", file, "Remove resize or set it to false");
  const double number = (f.kind == Kind::kString) ? 0.0 : ValueOf(f, key, value, line, file);
  f.set(op, number, value);
}

void CheckAippBlock(AippOp &op, const std::set<std::string> &given, const std::string &file) {
  if (op.aipp_mode != 1 && op.aipp_mode != 2)
    BadBlock(op, "aipp_mode must be configured as static or dynamic", file, "Add `aipp_mode: static`");
  if (op.aipp_mode == 2) {
    if (op.max_src_image_size == 0)
      BadBlock(op, "a dynamic block needs max_src_image_size > 0", file,
               "Set max_src_image_size to the largest image's byte size");
    return;
  }
  if (op.input_format == 0)
    BadBlock(op, "a static block needs input_format", file, "Add e.g. `input_format: RGB888_U8`");
  if (!op.crop) op.load_start_pos_w = op.load_start_pos_h = op.crop_size_w = op.crop_size_h = 0;
  if (!op.padding) op.left_padding_size = op.right_padding_size = op.top_padding_size = op.bottom_padding_size = 0;
  CheckWindow(op, file);
  if (op.csc_switch) DefaultCsc(op, given);
}

}  // namespace atc
}  // namespace openatc
