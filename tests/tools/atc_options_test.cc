// atc's command line: ATC spellings, framework inference, per-mode checks, errors, help, ge.* keys.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/atc/options.h"
#include "test_util.h"

using openatc::ErrorCategory;
using openatc::atc::Options;
using tools_test::Capture;

namespace {
Options Parse(std::vector<const char *> args) {
  args.insert(args.begin(), "atc");
  return openatc::atc::ParseAtcOptions(static_cast<int>(args.size()), args.data());
}
std::string ErrorOf(std::vector<const char *> args) {
  openatc::Error e = Capture([&] { Parse(args); });
  CHECK(e.category() == ErrorCategory::kUsage);
  return e.what();
}
}  // namespace

TEST_CASE("tools_atc: every ATC spelling gives the same options") {
  const std::vector<std::vector<const char *>> spellings = {
      {"--model=m.json", "--output=out/m", "--soc_version=host"},
      {"--model", "m.json", "--output", "out/m", "--soc_version", "host"},
      {"-model", "m.json", "-output=out/m", "-soc_version", "host"},
      {"--model=m.json", "--output", "out/m", "--soc-version=host"},
      {"-model=m.json", "--output=out/m", "-soc-version", "host"},
  };
  for (const auto &args : spellings) {
    Options o = Parse(args);
    CHECK(o.mode == 0);
    CHECK(o.model == "m.json");
    CHECK(o.output == "out/m");
    CHECK(o.soc_version == "host");
    CHECK(o.framework == 1);
    CHECK(o.framework_inferred);
    CHECK(o.log == "error");
    CHECK(o.compress == 3);
    CHECK_FALSE(o.check_portable);
    CHECK_FALSE(o.compress_weights);
    CHECK(o.check_report == "check_result.json");
    CHECK(o.other_flags.empty());
  }
}

TEST_CASE("tools_atc: rewritten argv is one --name=value word per flag") {
  std::vector<const char *> argv = {"atc", "-soc-version", "host", "--check_portable", "--input_shape", "-1:2", "-h"};
  std::vector<std::string> words = openatc::atc::NormalizeAtcArgv(static_cast<int>(argv.size()), argv.data());
  CHECK(words == std::vector<std::string>{"atc", "--soc_version=host", "--check_portable=true",
                                          "--input_shape=-1:2", "--help=true"});
  std::vector<const char *> empty = {"atc", "--om=", "--json", ""};
  CHECK(openatc::atc::NormalizeAtcArgv(4, empty.data()) == std::vector<std::string>{"atc", "--om", "", "--json", ""});
}

TEST_CASE("tools_atc: framework is inferred from the extension") {
  struct Case {
    const char *model;
    int framework;
  };
  for (Case c : {Case{"a.json", 1}, Case{"a.air", 1}, Case{"dump.TXT", 1}, Case{"g.pbtxt", 1}, Case{"dir.x/m.onnx", 5},
                 Case{"M.ONNX", 5}}) {
    Options o = Parse({"--model", c.model, "--output", "o", "--soc_version", "host"});
    CHECK(o.framework == c.framework);
    CHECK(o.framework_inferred);
  }
  Options o = Parse({"--model", "a.json", "--framework", "5", "--output", "o", "--soc_version", "host"});
  CHECK(o.framework == 5);
  CHECK_FALSE(o.framework_inferred);
}

TEST_CASE("tools_atc: framework errors") {
  CHECK(ErrorOf({"--model", "m.pb", "--output", "o", "--soc_version", "host"}) ==
        "E10007: --framework is not given and cannot be inferred from the model file name 'm.pb'. "
        "Pass --framework 1 for GE IR (.air, .json, .txt, .pbtxt) or --framework 5 for ONNX.");
  CHECK(ErrorOf({"--model", "m.pb", "--framework=3", "--output", "o", "--soc_version", "host"}) ==
        "E10001: invalid value '3' for --framework: allowed values are 1 (GE IR: AIR, its JSON form or a GE text "
        "dump) and 5 (ONNX). Caffe (0) and TensorFlow (3) models are not supported; convert them to ONNX.");
  CHECK(ErrorOf({"--framework=one"}).rfind("E10001: invalid value 'one' for --framework", 0) == 0);
}

TEST_CASE("tools_atc: required parameters per mode") {
  openatc::Error e = Capture([] { Parse({"--model=m.json", "--output=o"}); });
  CHECK(e.code() == "E10054");
  CHECK(e.Format("atc") ==
        "atc: error: E10054: the required parameter --soc_version is empty. Pass --soc_version host to build for "
        "this CPU.");
  CHECK(ErrorOf({"--soc_version=host"}) ==
        "E10054: the required parameter --model is empty. Pass --model <graph file> (.air, .json, .txt, .pbtxt or "
        ".onnx).");
  CHECK(ErrorOf({"--model=m.json", "--soc_version=host"}) ==
        "E10054: the required parameter --output is empty. Pass --output <path prefix>; .om is appended.");
  // Mode 3 needs no --output.
  Options pre = Parse({"--mode=3", "--model=m.onnx", "--soc_version=host", "--check_report=r.json"});
  CHECK(pre.mode == 3);
  CHECK(pre.framework == 5);
  CHECK(pre.check_report == "r.json");
  CHECK(ErrorOf({"--mode=1", "--json=x.json"}) ==
        "E10054: the required parameter --om is empty. Pass --om <model.om> (or a source model with --framework).");
  CHECK(ErrorOf({"--mode=1", "--om=x.om"}) ==
        "E10054: the required parameter --json is empty. Pass --json <output file>.");
  CHECK(ErrorOf({"--mode=5", "--json=x.json"}) ==
        "E10054: the required parameter --om is empty. Pass --om <GE text dump, e.g. ge_proto_*.txt>.");
  CHECK(ErrorOf({"--mode=6"}) == "E10054: the required parameter --om is empty. Pass --om <model.om>.");
  Options show = Parse({"--mode=6", "--om=x.om"});
  CHECK(show.mode == 6);
  CHECK(show.om == "x.om");
  CHECK(show.framework == -1);
  Options tojson = Parse({"--mode=1", "--om=x.om", "--json=x.json"});
  CHECK(tojson.json == "x.json");
  CHECK(tojson.framework == -1);
  Options src = Parse({"--mode=1", "--om=g.onnx", "--json=x.json"});
  CHECK(src.framework == 5);
  // An empty value counts as not given.
  CHECK(ErrorOf({"--model=m.json", "--output=o", "--soc_version="}).rfind("E10054: the required parameter --soc_version", 0) == 0);
}

TEST_CASE("tools_atc: modes") {
  CHECK(ErrorOf({"--mode=7"}) ==
        "E10001: --mode=7 (OM2 package) is not supported by OpenATC. Use --mode=0 to build an .om file.");
  CHECK(ErrorOf({"--mode", "30"}) ==
        "E10001: --mode=30 (nano .exeom for Ascend035) is not supported by OpenATC. Use --mode=0 to build an .om "
        "file.");
  CHECK(ErrorOf({"--mode=2"}) ==
        "E10001: invalid value '2' for --mode: allowed values are 0, 1, 3, 5, 6. See 'atc --help' for what each "
        "mode does.");
  CHECK(ErrorOf({"--mode=x"}) == "E10001: invalid value 'x' for --mode: expected an integer. See 'atc --help'.");
  // The last of repeated flags wins.
  CHECK(Parse({"--mode=1", "--mode=6", "--om=a.om"}).mode == 6);
}

TEST_CASE("tools_atc: spelling errors") {
  CHECK(ErrorOf({"--foo"}) == "OA0001: unknown command line flag '--foo'. Try 'atc --help' for the list of flags.");
  CHECK(ErrorOf({"--foo-bar=1"}) ==
        "OA0001: unknown command line flag '--foo-bar'. Try 'atc --help' for the list of flags.");
  CHECK(ErrorOf({"-x"}) == "OA0001: unknown command line flag '-x'. Try 'atc --help' for the list of flags.");
  CHECK(ErrorOf({"model.json"}) ==
        "OA0002: unexpected argument 'model.json': atc takes no positional arguments. Give every value after its "
        "flag, e.g. --model=model.json.");
  CHECK(ErrorOf({"--soc_version=host", "--model"}) ==
        "E10001: the flag --model is missing its value. Write --model=<value> or --model <value>.");
}

TEST_CASE("tools_atc: --input_shape") {
  Options o = Parse({"--model=m.json", "--output=o", "--soc_version=host", "--input_shape", "x:1,3,-1;s:;r:1~10,4;"});
  CHECK(o.input_shape == "x:1,3,-1;s:;r:1~10,4;");
  REQUIRE(o.input_shapes.size() == 3);
  CHECK(o.input_shapes[0].name == "x");
  CHECK(o.input_shapes[0].dims == std::vector<int64_t>{1, 3, -1});
  CHECK(o.input_shapes[0].ranges == std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 3}, {0, -1}});
  CHECK_FALSE(o.input_shapes[0].scalar);
  CHECK(o.input_shapes[1].name == "s");
  CHECK(o.input_shapes[1].scalar);
  CHECK(o.input_shapes[1].dims.empty());
  CHECK(o.input_shapes[2].dims == std::vector<int64_t>{-1, 4});
  CHECK(o.input_shapes[2].ranges == std::vector<std::pair<int64_t, int64_t>>{{1, 10}, {4, 4}});
  // Names with ':' split at the last one; a separate value starting with '-' is still the value.
  auto named = openatc::atc::ParseInputShape("scope:x:2~-1");
  REQUIRE(named.size() == 1);
  CHECK(named[0].name == "scope:x");
  CHECK(named[0].ranges == std::vector<std::pair<int64_t, int64_t>>{{2, -1}});
  Options dash = Parse({"--model=m.json", "--output=o", "--soc_version=host", "--input_shape", "-x:2"});
  CHECK(dash.input_shapes.at(0).name == "-x");

  const std::string hint =
      " Write --input_shape \"name:d0,d1;name2:d0\" with integer dims, -1 for an unknown dim or lo~hi for a range, "
      "e.g. \"x:1,3,224,224\".";
  CHECK(ErrorOf({"--input_shape=x:1,a"}) ==
        "E10001: invalid --input_shape piece 'x:1,a': dim 'a' is not an integer, -1 or a lo~hi range." + hint);
  CHECK(ErrorOf({"--input_shape", "-1,3"}) ==
        "E10001: invalid --input_shape piece '-1,3': no ':' between the input name and its dims." + hint);
  CHECK(ErrorOf({"--input_shape=x:5~2"}) ==
        "E10001: invalid --input_shape piece 'x:5~2': range '5~2' needs 0 <= lo <= hi (hi = -1 for no upper "
        "bound)." + hint);
  CHECK(ErrorOf({"--input_shape=x:1~"}) ==
        "E10001: invalid --input_shape piece 'x:1~': range '1~' is not lo~hi with integer bounds." + hint);
  CHECK(ErrorOf({"--input_shape=:1"}) == "E10001: invalid --input_shape piece ':1': the input name is empty." + hint);
  CHECK(ErrorOf({"--input_shape=x:-3"}) ==
        "E10001: invalid --input_shape piece 'x:-3': dim '-3' is negative (only -1 means unknown)." + hint);
  CHECK(ErrorOf({"--input_shape=x:1;x:2"}) ==
        "E10001: invalid --input_shape piece 'x:2': input 'x' is given twice." + hint);
  CHECK(ErrorOf({"--input_shape=x:1,,2"}) ==
        "E10001: invalid --input_shape piece 'x:1,,2': dim '' is not an integer, -1 or a lo~hi range." + hint);
}

TEST_CASE("tools_atc: --out_nodes") {
  Options o = Parse({"--model=m.json", "--output=o", "--soc_version=host", "--out_nodes=conv1:0;a:b:2"});
  REQUIRE(o.out_nodes.size() == 2);
  CHECK(o.out_nodes[0].node == "conv1");
  CHECK(o.out_nodes[0].index == 0);
  CHECK(o.out_nodes[1].node == "a:b");
  CHECK(o.out_nodes[1].index == 2);
  CHECK(o.out_nodes_text == "conv1:0;a:b:2");
  CHECK(ErrorOf({"--out_nodes=conv1"}) ==
        "E10001: invalid --out_nodes piece 'conv1': no ':' between the node name and the output index. Write "
        "--out_nodes \"node:idx;node2:idx\", e.g. \"conv1:0;add:1\".");
  CHECK(ErrorOf({"--out_nodes=conv1:-1"}) ==
        "E10001: invalid --out_nodes piece 'conv1:-1': output index '-1' is not an integer in 0..65535. Write "
        "--out_nodes \"node:idx;node2:idx\", e.g. \"conv1:0;add:1\".");
}

TEST_CASE("tools_atc: log, compress and bool flags") {
  std::vector<const char *> base = {"--model=m.json", "--output=o", "--soc_version=host"};
  auto with = [&](std::vector<const char *> extra) {
    std::vector<const char *> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  CHECK(Parse(with({"--log=DEBUG"})).log == "debug");
  CHECK(Parse(with({"--log", "null"})).log == "null");
  CHECK(ErrorOf(with({"--log=verbose"})) ==
        "E10001: invalid value 'verbose' for --log: allowed values are debug, info, warning, error, null. Pass one "
        "of the allowed values.");
  CHECK(Parse(with({"--compress=0"})).compress == 0);
  CHECK(Parse(with({"--compress", "22"})).compress == 22);
  CHECK(ErrorOf(with({"--compress=23"})) ==
        "E10001: invalid value '23' for --compress: expected a zstd level in 0..22. 0 turns compression off; 3 is "
        "the default.");
  CHECK(ErrorOf(with({"--compress=3x"})) ==
        "E10001: invalid value '3x' for --compress: expected an integer. See 'atc --help'.");
  Options b = Parse(with({"--check_portable", "--compress_weights=TRUE"}));
  CHECK(b.check_portable);
  CHECK(b.compress_weights);
  CHECK_FALSE(Parse(with({"--check_portable=false"})).check_portable);
  CHECK(ErrorOf(with({"--check_portable=maybe"})) ==
        "E10001: invalid value 'maybe' for --check_portable: expected true or false. Write --check_portable or "
        "--check_portable=false.");
}

TEST_CASE("tools_atc: other ATC flags are kept, typed and checked") {
  Options o = Parse({"--model=m.json", "--output=o", "--soc_version=Ascend910B1", "--precision_mode=force_fp32",
                     "--jit-compile", "0", "-raw_ge_options_ignore_unsupported", "--op_debug_level=2",
                     "--input_format=NCHW", "--core_type=VectorCore"});
  CHECK(o.other_flags == std::map<std::string, std::string>{{"precision_mode", "force_fp32"},
                                                            {"jit_compile", "0"},
                                                            {"raw_ge_options_ignore_unsupported", "true"},
                                                            {"op_debug_level", "2"},
                                                            {"input_format", "NCHW"},
                                                            {"core_type", "VectorCore"}});
  CHECK(ErrorOf({"--disable_reuse_memory=yes"}) ==
        "E10001: invalid value 'yes' for --disable_reuse_memory: expected an integer. See 'atc --help'.");
  CHECK(ErrorOf({"--input_format=XYZ"}) ==
        "E10001: invalid value 'XYZ' for --input_format: allowed values are NCHW, NHWC, ND, NCDHW, NDHWC. Pass one "
        "of the allowed values.");
  CHECK(ErrorOf({"--op_debug_level=5"}) ==
        "E10001: invalid value '5' for --op_debug_level: allowed values are 0, 1, 2, 3, 4. Pass one of the allowed "
        "values.");
  CHECK(ErrorOf({"--auto_tune_mode=GA"}) ==
        "E10001: --auto_tune_mode is deprecated and no longer supported. Remove --auto_tune_mode from the command "
        "line.");
  // Every docs/atc-flags.md §5 flag plus the five "also accepted" ones is known.
  for (const char *flag : {"--weight=w", "--input_hint_shape=0:[1]", "--deterministic=1", "--host_env_os=linux",
                           "--host_env_cpu=x86_64", "--export_compile_stat=2", "--multi_stream_parallel_mode=cv",
                           "--oo_constant_folding=false", "--oo_dead_code_elimination=true",
                           "--topo_sorting_mode=3", "--build_config=x", "--enable_scope_fusion_passes=p"}) {
    Options one = Parse({"--model=m.json", "--output=o", "--soc_version=host", flag});
    CHECK(one.other_flags.size() == 1);
  }
}

TEST_CASE("tools_atc: --help skips the other checks") {
  Options h = Parse({"-h"});
  CHECK(h.help);
  CHECK(Parse({"--help", "--mode=6"}).help);
  CHECK(ErrorOf({"--help", "--nope"}).rfind("OA0001:", 0) == 0);
}

TEST_CASE("tools_atc: help text golden") { tools_test::CheckGolden("atc_help.txt", openatc::atc::AtcHelpText()); }

TEST_CASE("tools_atc: ge option keys") {
  Options o = Parse({"--model=m.onnx", "--output=o", "--soc_version=host", "--precision_mode=force_fp32",
                     "--input_shape=x:1,2", "--out_nodes=n:0", "--core_type=VectorCore", "--op_debug_level=1",
                     "--log=info"});
  CHECK(openatc::atc::GeOptionKeys(o) == std::map<std::string, std::string>{
                                             {"ge.socVersion", "host"},
                                             {"ge.frameworkType", "5"},
                                             {"input_shape", "x:1,2"},
                                             {"ge.outputNodeName", "n:0"},
                                             {"log", "info"},
                                             {"ge.jit_compile", "1"},
                                             {"ge.exec.disableReuseMemory", "0"},
                                             {"ge.exec.precision_mode", "force_fp32"},
                                             {"ge.engineType", "VectorEngine"},
                                             {"ge.opDebugLevel", "1"},
                                         });
  Options j = Parse({"--model=m.json", "--output=o", "--soc_version=Ascend910B1", "--jit_compile=0",
                     "--disable_reuse_memory=1"});
  auto keys = openatc::atc::GeOptionKeys(j);
  CHECK(keys.at("ge.jit_compile") == "0");
  CHECK(keys.at("ge.exec.disableReuseMemory") == "1");
  CHECK(keys.at("ge.socVersion") == "Ascend910B1");
  CHECK(keys.count("ge.exec.precision_mode") == 0);
}
