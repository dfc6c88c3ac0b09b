// atc's deployment flags (docs/atc-deploy-flags.md): one case per validation rule, the exact
// error text (ATC's code, the flag named), and the table of flags that take effect.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/atc/flag_effects.h"
#include "openatc/atc/options.h"
#include "test_util.h"

using openatc::atc::Options;
using tools_test::Capture;

namespace {
// A mode-0 command line plus `extra`.
Options Parse(std::vector<const char *> extra) {
  std::vector<const char *> args = {"atc", "--model=m.json", "--output=o", "--soc_version=host"};
  args.insert(args.end(), extra.begin(), extra.end());
  return openatc::atc::ParseAtcOptions(static_cast<int>(args.size()), args.data());
}
std::string ErrorOf(std::vector<const char *> extra) {
  return Capture([&] { Parse(extra); }).what();
}
// Bare argv (no mode-0 defaults).
std::string BareErrorOf(std::vector<const char *> args) {
  args.insert(args.begin(), "atc");
  return Capture([&] { openatc::atc::ParseAtcOptions(static_cast<int>(args.size()), args.data()); }).what();
}
// A file in a fresh folder; returns its path.
std::string File(const std::string &name, const std::string &text) {
  static const std::string dir = tools_test::FreshDir("deploy_flags");
  const std::string path = dir + "/" + name;
  tools_test::WriteBytes(path, text);
  return path;
}
std::string Flag(const std::string &name, const std::string &value) { return "--" + name + "=" + value; }
}  // namespace

TEST_CASE("atc deploy: precision modes") {
  CHECK(ErrorOf({"--precision_mode=bogus"}) ==
        "E10001: invalid value 'bogus' for --precision_mode: allowed values are force_fp16, force_fp32, "
        "cube_fp16in_fp32out, allow_mix_precision, allow_fp32_to_fp16, must_keep_origin_dtype, "
        "allow_mix_precision_fp16, allow_mix_precision_bf16, allow_fp32_to_bf16. Pass one of the allowed values.");
  CHECK(ErrorOf({"--precision_mode_v2=fp32"}) ==
        "E10001: invalid value 'fp32' for --precision_mode_v2: allowed values are fp16, origin, cube_fp16in_fp32out, "
        "mixed_float16, mixed_bfloat16, cube_hif8, mixed_hif8. Pass one of the allowed values.");
  CHECK(ErrorOf({"--precision_mode=force_fp16", "--precision_mode_v2=fp16"}) ==
        "E10056: --precision_mode and --precision_mode_v2 cannot be used together. Pass only one of them.");
  CHECK(ErrorOf({"--allow_hf32=yes"}) ==
        "E10005: invalid value 'yes' for --allow_hf32: allowed values are true, false. Pass one of the allowed values.");
  CHECK(ErrorOf({"--op_select_implmode=fast"}).rfind("E10001: invalid value 'fast' for --op_select_implmode: ", 0) == 0);
  CHECK(Parse({"--precision_mode_v2=mixed_float16"}).other_flags.at("precision_mode_v2") == "mixed_float16");
}

TEST_CASE("atc deploy: --output_type") {
  CHECK(ErrorOf({"--output_type=FP17"}) ==
        "E10001: invalid value 'FP17' for --output_type: the type must be FP32, FP16, UINT8, INT8, HIF8, HIF4, "
        "FP8E5M2 or FP8E4M3FN. Pass e.g. --output_type=FP16.");
  CHECK(ErrorOf({"--output_type=conv:0:FP16"}) ==
        "E10001: --output_type names conv:0, which is not in --out_nodes. Add \"conv:0\" to --out_nodes, or pass one "
        "type for all outputs.");
  CHECK(ErrorOf({"--out_nodes=conv:0", "--output_type=conv:FP16"}) ==
        "E10001: invalid --output_type piece 'conv:FP16': expected node:index:TYPE. Write --output_type "
        "\"node:0:FP16;node2:1:FP32\".");
  CHECK(ErrorOf({"--out_nodes=conv:0", "--output_type=conv:0:FP64"}).rfind(
            "E10001: invalid --output_type piece 'conv:0:FP64': the type must be FP32, ", 0) == 0);
  CHECK(Parse({"--out_nodes=a:b:0;c:1", "--output_type=a:b:0:FP16;c:1:INT8"}).other_flags.size() == 1);
  CHECK(Parse({"--output_type=FP16"}).other_flags.at("output_type") == "FP16");
}

TEST_CASE("atc deploy: value sets of --external_weight, cache mode, --save_original_model") {
  CHECK(ErrorOf({"--external_weight=3"}) ==
        "E10006: invalid value '3' for --external_weight: allowed values are 0, 1, 2. Pass one of the allowed values.");
  CHECK(ErrorOf({"--op_compiler_cache_mode=on"}) ==
        "E10001: invalid value 'on' for --op_compiler_cache_mode: allowed values are enable, disable, force. Pass one "
        "of the allowed values.");
  CHECK(ErrorOf({"--save_original_model=1"}) ==
        "E10005: invalid value '1' for --save_original_model: allowed values are true, false. Pass one of the allowed "
        "values.");
  CHECK(ErrorOf({"--is_input_adjust_hw_layout=true,no"}) ==
        "E10005: invalid value 'true,no' for --is_input_adjust_hw_layout: each entry must be true or false. Write e.g. "
        "--is_input_adjust_hw_layout=\"true,false\".");
  CHECK(ErrorOf({"--static_model_ops_lower_limit=-2"}) ==
        "E10001: invalid value '-2' for --static_model_ops_lower_limit: expected an integer >= -1. Pass e.g. "
        "--static_model_ops_lower_limit=4.");
  CHECK(Parse({"--external_weight=2", "--op_compiler_cache_mode=force"}).other_flags.size() == 2);
}

TEST_CASE("atc deploy: --keep_dtype file") {
  CHECK(ErrorOf({"--keep_dtype=/nonexistent/keep.cfg"}) ==
        "E10001: '/nonexistent/keep.cfg': --keep_dtype: the file does not exist or cannot be read. Check the path "
        "given to --keep_dtype.");
  const std::string bad = File("keep_bad.cfg", "conv1\n\n  OpType::Relu \nOpType::relu\n");
  CHECK(ErrorOf({Flag("keep_dtype", bad).c_str()}) ==
        "E10003: '" + bad + "': --keep_dtype: line 4: op type 'relu' is not PascalCase. Write op types as OpType::Relu "
        "(letters and digits, first letter upper case).");
  const std::string good = File("keep.cfg", "conv1\nOpType::MatMulV2\n");
  CHECK(Parse({Flag("keep_dtype", good).c_str()}).other_flags.at("keep_dtype") == good);
}

TEST_CASE("atc deploy: --modify_mixlist file") {
  const std::string good = File("mix.json", R"({"black-list": {"to-add": ["Conv2D"]}, "gray-list": {"to-remove": []}})");
  CHECK(ErrorOf({Flag("modify_mixlist", good).c_str()}) ==
        "E10001: --modify_mixlist needs a mixed precision mode, but --precision_mode is not given (ATC's default "
        "force_fp16). Pass --precision_mode=allow_mix_precision (or --precision_mode_v2=mixed_float16).");
  CHECK(Parse({"--precision_mode=allow_mix_precision", Flag("modify_mixlist", good).c_str()}).other_flags.size() == 2);
  const std::string key = File("mix_key.json", R"({"red-list": {"to-add": ["Conv2D"]}})");
  CHECK(ErrorOf({"--precision_mode_v2=mixed_float16", Flag("modify_mixlist", key).c_str()}) ==
        "E10001: '" + key + "': --modify_mixlist: unknown key 'red-list'. Use black-list, white-list or gray-list.");
  const std::string arr = File("mix_arr.json", R"({"white-list": {"to-add": "Conv2D"}})");
  CHECK(ErrorOf({"--precision_mode_v2=mixed_float16", Flag("modify_mixlist", arr).c_str()}) ==
        "E10001: '" + arr + "': --modify_mixlist: 'white-list.to-add' is not an array. Write a list of op types.");
  const std::string two = File("mix_two.json", R"({"white-list": {"to-add": ["Add"]}, "black-list": {"to-add": ["Add"]}})");
  CHECK(ErrorOf({"--precision_mode_v2=mixed_float16", Flag("modify_mixlist", two).c_str()}).rfind(
            "E10001: '" + two + "': --modify_mixlist: op type 'Add' has a combination of to-add / to-remove that ATC refuses.", 0) == 0);
  const std::string empty = File("mix_empty.json", "");
  CHECK(ErrorOf({"--precision_mode_v2=mixed_float16", Flag("modify_mixlist", empty).c_str()}).rfind(
            "E10001: '" + empty + "': --modify_mixlist: not a JSON object", 0) == 0);
}

TEST_CASE("atc deploy: --op_precision_mode and --raw_ge_options files") {
  const std::string bad = File("opm.ini", "[ByOpType]\nConv2D=high_precision\n[ByNodeName]\nconv1 = fastest\n");
  CHECK(ErrorOf({Flag("op_precision_mode", bad).c_str()}).rfind(
            "E10001: '" + bad + "': --op_precision_mode: line 4: 'fastest' is not a precision mode. Use high_precision, ", 0) == 0);
  const std::string sec = File("opm_sec.ini", "[ByType]\n");
  CHECK(ErrorOf({Flag("op_precision_mode", sec).c_str()}) ==
        "E10001: '" + sec + "': --op_precision_mode: line 1: unknown section [ByType]. Use [ByOpType] or [ByNodeName].");
  const std::string good = File("opm_good.ini", "# per op\n[ByOpType]\nConv2D=high_precision\n[ByNodeName]\nc1=keep_fp16\n");
  CHECK(Parse({Flag("op_precision_mode", good).c_str()}).other_flags.size() == 1);
  CHECK(ErrorOf({"--raw_ge_options=/nonexistent/ge.json"}) ==
        "E10001: '/nonexistent/ge.json': --raw_ge_options: the file does not exist or cannot be read. Check the path "
        "given to --raw_ge_options.");
  const std::string notjson = File("ge.json", "[1, 2");
  CHECK(ErrorOf({Flag("raw_ge_options", notjson).c_str()}) ==
        "E10001: '" + notjson + "': --raw_ge_options: not a JSON object. Write the GE options as a JSON object.");
}

TEST_CASE("atc deploy: gear lists") {
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=a,b"}) ==
        "E10003: invalid value 'a,b' for --dynamic_batch_size: only digits and ',' are allowed. Write the gears as "
        "\"1,2,4\".");
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=1,0"}) ==
        "E10038: invalid value '1,0' for --dynamic_batch_size: gear values must be positive integers. Write the gears "
        "as \"1,2,4\".");
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=4,"}) ==
        "E10035: --dynamic_batch_size needs at least 2 gears. List two or more gears, e.g. --dynamic_batch_size=\"1,2\".");
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2,1"}) ==
        "E10039: --dynamic_batch_size lists the gear 1 twice. List each gear once.");
  CHECK(ErrorOf({"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=224,224;448"}) ==
        "E10020: --dynamic_image_size: every gear is \"h,w\" (2 values). Write e.g. \"224,224;448,448\".");
  CHECK(ErrorOf({"--input_shape=x:-1,-1", "--dynamic_dims=1,2;x"}) ==
        "E10001: invalid value '1,2;x' for --dynamic_dims: only digits and ',' and ';' are allowed. Write the gears "
        "as \"1,2;4,8\".");
  CHECK(Parse({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2,4,"}).other_flags.size() == 1);
  CHECK(Parse({"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=224,224; 448,448"}).other_flags.size() == 1);
  CHECK(Parse({"--input_shape=x:-1,3;y:2,-1", "--dynamic_dims=1,2;4,8"}).other_flags.size() == 1);
}

TEST_CASE("atc deploy: a gear flag needs -1 in --input_shape where it sets dims") {
  CHECK(ErrorOf({"--dynamic_batch_size=1,2"}) ==
        "E10004: --dynamic_batch_size needs --input_shape with -1 for the dims the gears set. Pass e.g. --input_shape "
        "\"x:-1,3,224,224\".");
  CHECK(ErrorOf({"--input_shape=x:1,3", "--dynamic_batch_size=1,2"}) ==
        "E10031: --dynamic_batch_size needs an input whose first dim is -1 in --input_shape. Write e.g. --input_shape "
        "\"x:-1,3,224,224\".");
  CHECK(ErrorOf({"--input_shape=x:-1,-1", "--dynamic_batch_size=1,2"}) ==
        "E10018: --dynamic_batch_size: input 'x' has -1 at dim 1 of --input_shape; only the first (batch) dim may be "
        "-1. Write the batch dim as -1 and the other dims fixed, e.g. \"x:-1,3,224,224\".");
  CHECK(ErrorOf({"--input_shape=x:1~4,3", "--dynamic_batch_size=1,2"}) ==
        "E10040: --input_shape may not hold a range (lo~hi) together with --dynamic_batch_size. Write -1 for the dims "
        "the gears set.");
  CHECK(ErrorOf({"--input_shape=x:-1,3,-1,-1", "--dynamic_image_size=2,2;4,4"}) ==
        "E10019: --dynamic_image_size: input 'x' must be 4-D with -1 exactly at H and W (NCHW) in --input_shape. Write "
        "e.g. \"x:1,3,-1,-1\".");
  CHECK(Parse({"--input_shape=x:1,-1,-1,3", "--input_format=NHWC", "--dynamic_image_size=2,2;4,4"}).other_flags.size() ==
        2);
  CHECK(ErrorOf({"--input_shape=x:-1,-1,-1", "--dynamic_dims=1,2;4,8"}) ==
        "E10003: --dynamic_dims: a gear has 2 value(s) but --input_shape has 3 -1 dim(s). Give each gear one value per "
        "-1 of --input_shape, in order.");
  CHECK(ErrorOf({"--input_shape=x:2,3", "--dynamic_dims=1;2"}) ==
        "E10003: --dynamic_dims needs at least one -1 in --input_shape. Write e.g. --input_shape \"x:-1,3,-1\".");
}

TEST_CASE("atc deploy: at most one gear flag") {
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2", "--dynamic_dims=1;2"}) ==
        "E10009: --dynamic_batch_size and --dynamic_dims cannot be used together. Use one of --dynamic_batch_size, "
        "--dynamic_image_size, --dynamic_dims.");
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2", "--input_shape_range=x:[1~2,3]"}) ==
        "E10009: --dynamic_batch_size and --input_shape_range cannot be used together. Use one of "
        "--dynamic_batch_size, --dynamic_image_size, --dynamic_dims.");
  CHECK(ErrorOf({"--input_shape_range=x:1~2,3"}) ==
        "E10001: invalid --input_shape_range piece 'x:1~2,3': expected name:[d0,d1,...]. Write e.g. "
        "\"x:[1~4,3,224,224]\" (or better --input_shape \"x:1~4,3,224,224\").");
  CHECK(ErrorOf({"--input_shape_range=x:[1~a,3]"}) ==
        "E10001: invalid --input_shape_range piece 'x:[1~a,3]': dims must be integers, -1 or lo~hi. Write e.g. "
        "\"x:[1~4,3,224,224]\".");
  CHECK(Parse({"--input_shape_range=x:[1~2,3];y:[-1]"}).other_flags.size() == 1);
  CHECK(ErrorOf({"--input_shape_range=x:[1];x:[2]"}) ==
        "E10001: invalid --input_shape_range piece 'x:[2]': input 'x' is given twice. Name each input once.");
}

TEST_CASE("atc deploy: --input_shape_range overrides --input_shape for the inputs it names") {
  const auto shapes = Parse({"--input_shape=x:1,3;y:2", "--input_shape_range=x:[1~4,3];z:[-1]"}).input_shapes;
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].name == "x");
  CHECK(shapes[0].dims == std::vector<int64_t>{-1, 3});
  CHECK(shapes[0].ranges == std::vector<std::pair<int64_t, int64_t>>{{1, 4}, {3, 3}});
  CHECK(shapes[1].name == "y");
  CHECK(shapes[1].dims == std::vector<int64_t>{2});
  CHECK(shapes[2].name == "z");
  CHECK(shapes[2].ranges == std::vector<std::pair<int64_t, int64_t>>{{0, -1}});
}

TEST_CASE("atc deploy: --singleop rules") {
  const std::string ops = File("ops.json", "[]");
  // Alone: its own required flags, never "--model is empty".
  CHECK(BareErrorOf({"--singleop=x.json"}) ==
        "E10054: the required parameter --output is empty. Pass --output <folder> for the single-op OMs.");
  CHECK(BareErrorOf({"--singleop=x.json", "--output=d"}) ==
        "E10054: the required parameter --soc_version is empty. Pass --soc_version host to build for this CPU.");
  CHECK(BareErrorOf({"--singleop=/nonexistent/ops.json", "--output=d", "--soc_version=host"}) ==
        "E10023: '/nonexistent/ops.json': --singleop: the file does not exist or cannot be read. Check the path "
        "given to --singleop.");
  const std::string hint = "--singleop builds one OM per op description of the JSON file; drop the flag to compile a model.";
  CHECK(ErrorOf({Flag("singleop", ops).c_str()}) == "E10001: --singleop cannot be used with --model. " + hint);
  CHECK(BareErrorOf({Flag("singleop", ops).c_str(), "--framework=5"}) ==
        "E10001: --singleop cannot be used with --framework. " + hint);
  CHECK(BareErrorOf({Flag("singleop", ops).c_str(), "--insert_op_conf=a.cfg"}) ==
        "E10001: --singleop cannot be used with --insert_op_conf. " + hint);
  CHECK(BareErrorOf({Flag("singleop", ops).c_str(), "--display_model_info=1"}) ==
        "E10001: --singleop cannot be used with --display_model_info=1. " + hint);
  CHECK(BareErrorOf({Flag("singleop", ops).c_str(), "--mode=6"}) == "E10001: --singleop cannot be used with --mode=6. " + hint);
  std::vector<const char *> ok = {"atc", "--output=d", "--soc_version=host"};
  const std::string flag = Flag("singleop", ops);
  ok.push_back(flag.c_str());
  CHECK(openatc::atc::ParseAtcOptions(static_cast<int>(ok.size()), ok.data()).other_flags.at("singleop") == ops);
}

TEST_CASE("atc deploy: --insert_op_conf is read and checked") {
  CHECK(ErrorOf({"--insert_op_conf=/nonexistent/aipp.cfg"}) ==
        "E10001: '/nonexistent/aipp.cfg': --insert_op_conf: the AIPP config file cannot be read. Check the path given "
        "to --insert_op_conf.");
  const std::string garbage = File("garbage.cfg", "aipp_op {\n  aipp_mode: static\n  colour: 3\n}\n");
  CHECK(ErrorOf({Flag("insert_op_conf", garbage).c_str()}) ==
        "E10001: '" + garbage + "': line 3: field 'colour': not a field of aipp_op. Check the spelling against "
        "docs/atc-deploy-flags.md.");
  const std::string crop = File("crop.cfg", "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n crop: true\n"
                                            " src_image_size_w: 8\n src_image_size_h: 8\n crop_size_w: 4\n crop_size_h: 4\n}\n");
  CHECK(ErrorOf({"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=2,2;4,4", Flag("insert_op_conf", crop).c_str()}) ==
        "E10052: '" + crop + "': aipp_op block at line 1: with --dynamic_image_size, crop and padding must be off and "
        "src_image_size_w/_h 0. Remove crop, padding and the source image size from the block.");
  CHECK(ErrorOf({"--input_shape=x:-1,3", "--dynamic_dims=1;2", Flag("insert_op_conf", crop).c_str()}) ==
        "E10001: the dynamic dims function does not support AIPP (--dynamic_dims with --insert_op_conf). Use "
        "--dynamic_batch_size or --dynamic_image_size, or drop one of the two flags.");
  CHECK(Parse({Flag("insert_op_conf", crop).c_str()}).other_flags.count("insert_op_conf") == 1);
}

TEST_CASE("atc deploy: flags that take effect, per target") {
  Options o = Parse({"--oo_constant_folding=false", "--jit_compile=0", "--deterministic=1"});
  CHECK(openatc::atc::FlagsWithoutEffect(o, openatc::TargetKind::kHost) ==
        std::vector<std::string>{"deterministic", "jit_compile"});
  CHECK(openatc::atc::FlagsWithoutEffect(o, openatc::TargetKind::kAscendEmulated) ==
        std::vector<std::string>{"deterministic"});
  openatc::Target chip;
  chip.kind = openatc::TargetKind::kAscendEmulated;
  chip.soc_version = "Ascend910B1";
  CHECK(openatc::atc::FlagEffectWarnings(o, &chip) ==
        std::vector<std::string>{"--deterministic is recorded in the OM's build record but has no effect on the "
                                 "Ascend910B1 (emulated) target"});
  openatc::Target host;
  CHECK(openatc::atc::FlagEffectWarnings(o, &host).size() == 2);
  o.mode = 6;
  CHECK(openatc::atc::FlagEffectWarnings(o, nullptr) ==
        std::vector<std::string>{"--deterministic has no effect with --mode=6", "--jit_compile has no effect with --mode=6",
                                 "--oo_constant_folding has no effect with --mode=6"});
}
