// CheckSingleOp / CheckDeploymentFlags: ATC's rules for the deployment flags beyond one value's
// allowed set (docs/atc-deploy-flags.md §1-§5), with ATC's error codes.
#include "flag_checks.h"

#include <set>
#include <string>
#include <vector>

#include "config_files.h"
#include "openatc/atc/aipp_config.h"
#include "openatc/common/error.h"
#include "parse_util.h"

namespace openatc {
namespace atc {
namespace {

[[noreturn]] void Fail(const char *code, const std::string &what, const std::string &hint) {
  throw Error(ErrorCategory::kUsage, code, what, hint);
}

std::vector<std::string> Pieces(const std::string &text, char sep) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t pos = text.find(sep, begin);
    if (pos == std::string::npos) pos = text.size();
    if (pos > begin) parts.push_back(text.substr(begin, pos - begin));
    begin = pos + 1;
  }
  return parts;
}

void CheckPrecisionAndFiles(const Options &o) {
  const std::string v1 = FlagValue(o, "precision_mode"), v2 = FlagValue(o, "precision_mode_v2");
  if (!v1.empty() && !v2.empty())
    Fail("E10056", "--precision_mode and --precision_mode_v2 cannot be used together", "Pass only one of them");
  if (o.other_flags.count("modify_mixlist")) {
    static const std::set<std::string> kMixed = {"allow_mix_precision", "allow_mix_precision_fp16",
                                                 "allow_mix_precision_bf16", "mixed_float16", "mixed_bfloat16",
                                                 "mixed_hif8"};
    if (!kMixed.count(v1) && !kMixed.count(v2))
      Fail("E10001", "--modify_mixlist needs a mixed precision mode, but --precision_mode is " +
                         (v1.empty() && v2.empty() ? std::string("not given (ATC's default force_fp16)") : "'" + v1 + v2 + "'"),
           "Pass --precision_mode=allow_mix_precision (or --precision_mode_v2=mixed_float16)");
  }
  for (const char *flag : {"keep_dtype", "modify_mixlist", "op_precision_mode", "raw_ge_options"})
    if (o.other_flags.count(flag)) CheckConfigFile(flag, o.other_flags.at(flag));
}

void CheckOutputType(const Options &o) {
  const std::string v = FlagValue(o, "output_type");
  if (v.empty()) return;
  static const std::set<std::string> kTypes = {"FP32", "FP16", "UINT8", "INT8", "HIF8", "HIF4", "FP8E5M2", "FP8E4M3FN"};
  const std::string types = "FP32, FP16, UINT8, INT8, HIF8, HIF4, FP8E5M2 or FP8E4M3FN";
  if (v.find(':') == std::string::npos) {
    if (!kTypes.count(v)) Fail("E10001", "invalid value '" + v + "' for --output_type: the type must be " + types, "Pass e.g. --output_type=FP16");
    return;
  }
  std::set<std::pair<std::string, int>> outs;
  for (const OutNode &n : o.out_nodes) outs.insert({n.node, n.index});
  for (const std::string &piece : Pieces(v, ';')) {
    const size_t c2 = piece.rfind(':');
    const size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : piece.rfind(':', c2 - 1);
    int64_t idx = 0;
    if (c1 == std::string::npos || c1 == 0 || !ParseStrictInt64(piece.substr(c1 + 1, c2 - c1 - 1), &idx) || idx < 0)
      Fail("E10001", "invalid --output_type piece '" + piece + "': expected node:index:TYPE",
           "Write --output_type \"node:0:FP16;node2:1:FP32\"");
    const std::string type = piece.substr(c2 + 1), node = piece.substr(0, c1);
    if (!kTypes.count(type)) Fail("E10001", "invalid --output_type piece '" + piece + "': the type must be " + types, "Pass e.g. \"" + node + ":" + std::to_string(idx) + ":FP16\"");
    if (!outs.count({node, static_cast<int>(idx)}))
      Fail("E10001", "--output_type names " + node + ":" + std::to_string(idx) + ", which is not in --out_nodes",
           "Add \"" + node + ":" + std::to_string(idx) + "\" to --out_nodes, or pass one type for all outputs");
  }
}

void CheckAipp(const Options &o) {
  const std::string path = FlagValue(o, "insert_op_conf");
  if (!o.other_flags.count("insert_op_conf")) return;
  const std::vector<AippOp> ops = ReadAippConfigFile(path);
  if (o.other_flags.count("dynamic_dims"))
    Fail("E10001", "the dynamic dims function does not support AIPP (--dynamic_dims with --insert_op_conf)",
         "Use --dynamic_batch_size or --dynamic_image_size, or drop one of the two flags");
  if (!o.other_flags.count("dynamic_image_size")) return;
  for (const AippOp &op : ops)
    if (op.crop || op.padding || op.src_image_size_w != 0 || op.src_image_size_h != 0)
      throw Error(ErrorCategory::kUsage, "E10052",
                  "aipp_op block at line " + std::to_string(op.line) +
                      ": with --dynamic_image_size, crop and padding must be off and src_image_size_w/_h 0",
                  "Remove crop, padding and the source image size from the block")
          .WithFile(path);
}

void CheckBoolList(const Options &o, const char *flag) {
  for (const std::string &v : Pieces(FlagValue(o, flag), ','))
    if (v != "true" && v != "false")
      Fail("E10005", "invalid value '" + FlagValue(o, flag) + "' for --" + flag + ": each entry must be true or false",
           std::string("Write e.g. --") + flag + "=\"true,false\"");
}

void CheckShapeRange(const Options &o) { (void)ParseInputShapeRange(FlagValue(o, "input_shape_range")); }

}  // namespace

const char *AllowedValueCode(const std::string &flag) {
  if (flag == "allow_hf32" || flag == "save_original_model") return "E10005";
  if (flag == "external_weight") return "E10006";
  return "E10001";
}

std::string FlagValue(const Options &o, const std::string &name) {
  auto it = o.other_flags.find(name);
  return it == o.other_flags.end() ? std::string() : it->second;
}

void CheckSingleOp(const Options &o) {
  const std::string hint = "--singleop builds one OM per op description of the JSON file; drop the flag to compile a model";
  if (o.mode != 0) Fail("E10001", "--singleop cannot be used with --mode=" + std::to_string(o.mode), hint);
  for (const char *flag : {"model", "framework"}) {
    const bool given = std::string(flag) == "model" ? !o.model.empty() : o.framework != -1;
    if (given) Fail("E10001", std::string("--singleop cannot be used with --") + flag, hint);
  }
  if (o.other_flags.count("insert_op_conf")) Fail("E10001", "--singleop cannot be used with --insert_op_conf", hint);
  if (FlagValue(o, "display_model_info") == "1")
    Fail("E10001", "--singleop cannot be used with --display_model_info=1", hint);
  if (o.output.empty())
    Fail("E10054", "the required parameter --output is empty", "Pass --output <folder> for the single-op OMs");
  if (o.soc_version.empty())
    Fail("E10054", "the required parameter --soc_version is empty", "Pass --soc_version host to build for this CPU");
  ReadFlagFile("singleop", FlagValue(o, "singleop"), "E10023");
}

void CheckDeploymentFlags(const Options &o) {
  CheckGearFlags(o);
  CheckPrecisionAndFiles(o);
  CheckOutputType(o);
  CheckAipp(o);
  for (const char *flag : {"is_input_adjust_hw_layout", "is_output_adjust_hw_layout"}) CheckBoolList(o, flag);
  CheckShapeRange(o);
  const std::string limit = FlagValue(o, "static_model_ops_lower_limit");
  int64_t n = 0;
  if (!limit.empty() && (!ParseStrictInt64(limit, &n) || n < -1))
    Fail("E10001", "invalid value '" + limit + "' for --static_model_ops_lower_limit: expected an integer >= -1",
         "Pass e.g. --static_model_ops_lower_limit=4");
}

}  // namespace atc
}  // namespace openatc
