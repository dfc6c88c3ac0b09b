// atc --singleop on the JSON files of tests/singleop/json: the OMs a valid file gives (file names
// as ATC forms them, the op node's attrs and shapes), and one file per error class with the code,
// entry, op and field the error names.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "e2e_util.h"
#include "openatc/common/dtype.h"
#include "openatc/om/model.h"
#include "openatc/om/single_op.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

std::string Json(const std::string &name) { return SourcePath("tests/singleop/json/" + name); }

bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

CommandResult Build(const std::string &json, const std::string &out, const std::string &opp = "") {
  return RunAtc({"--singleop=" + json, "--output=" + out, "--soc_version=host"}, opp);
}

const ir::Node &OpNode(const om::Model &m) {
  for (const ir::Node &n : m.graph.nodes)
    if (n.attrs.count(om::kSingleOpAttrNames)) return n;
  FAIL("no single-op node");
  return m.graph.nodes.front();
}

// The error line atc prints for a bad file: "atc: error: <code>: '<file>': <message>.\n".
std::string ErrorOf(const std::string &file, const std::string &out) {
  auto r = Build(Json("bad/" + file), out);
  CHECK(r.exit_code == 255);
  return r.err;
}

}  // namespace

TEST_CASE("atc --singleop: one OM per op, named as ATC names them", "[singleop]") {
  const std::string dir = MakeTempDir();
  const std::string out = dir + "/models";  // created by atc
  auto r = Build(Json("valid.json"), out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());  // no warning: --singleop takes effect on every target
  const std::string long_name = std::string("123456789a123456789b123456789c123456789d123456789e123456789f123456789g") +
                                "123456789h123456789i123456789j123456789k123456789l123456789m";  // 130 chars
  const std::vector<std::string> files = {
      "add_2x3.om",
      // op 1 has no name: <op index>_<type> then _<dtype>_<format>_<dims> per input and output
      // (float16 = 1, int32 = 3, ND = 2); the extra "int32" output counts in the name.
      "1_Add_1_2_3_1_2_3_1_2_3_3_2_3.om",
      "add_dyn.om", "abs_any_rank.om", "relu_attrs.om", "concat_dynamic_input.om", "clip_absent_min.om",
      long_name.substr(0, 128) + ".om"};
  for (const std::string &f : files) {
    INFO(f);
    CHECK(Exists(out + "/" + f));
    CHECK(r.out.find("OM written to: " + out + "/" + f + "\n") != std::string::npos);
  }

  const om::Model add = om::ReadFile(out + "/add_2x3.om");
  const ir::Node &a = OpNode(add);
  CHECK(a.type == "Add");
  CHECK(add.graph.inputs.size() == 2);
  CHECK(add.graph.outputs.size() == 1);
  CHECK(add.build_options.at("compile_flag") == "0");

  // The constant input is a Const node holding 1, 2, 3 as float16; the extra output is not built.
  const om::Model c = om::ReadFile(out + "/1_Add_1_2_3_1_2_3_1_2_3_3_2_3.om");
  CHECK(c.graph.inputs.size() == 1);
  CHECK(c.graph.outputs.size() == 1);
  const ir::Node &cn = OpNode(c);
  const ir::Node &k = c.graph.nodes[static_cast<size_t>(cn.inputs[1].node)];
  REQUIRE(k.type == "Const");
  const ir::Bytes &v = k.attrs.at("value").t->data;
  REQUIRE(v.size == 6);
  const _Float16 *h = reinterpret_cast<const _Float16 *>(v.data);
  CHECK(static_cast<float>(h[0]) == 1.0f);
  CHECK(static_cast<float>(h[2]) == 3.0f);

  // After {"compile_flag": 1}: fuzzy compile; the -1 dim keeps its range on the Data node.
  const om::Model dyn = om::ReadFile(out + "/add_dyn.om");
  CHECK(dyn.build_options.at("compile_flag") == "1");
  const ir::Node &d0 = dyn.graph.nodes[static_cast<size_t>(dyn.graph.inputs[0])];
  CHECK(d0.output_descs[0].shape == std::vector<int64_t>{2, -1});
  CHECK(d0.attrs.at("_input_shape_range").list_list_i == std::vector<std::vector<int64_t>>{{2, 2}, {1, 4}});

  // Every attr type, in file order, with its value.
  const om::Model relu = om::ReadFile(out + "/relu_attrs.om");
  const ir::Node &rn = OpNode(relu);
  CHECK(rn.attrs.at(om::kSingleOpAttrNames).list_s ==
        std::vector<std::string>{"b", "i", "f", "s", "lb", "li", "lf", "ls", "lli", "dt", "dn"});
  CHECK(rn.attrs.at("b").b);
  CHECK(rn.attrs.at("i").i == -7);
  CHECK(rn.attrs.at("f").f == 0.5f);
  CHECK(rn.attrs.at("s").s == "v");
  CHECK(rn.attrs.at("lb").list_b == std::vector<uint8_t>{1, 0});
  CHECK(rn.attrs.at("li").list_i == std::vector<int64_t>{1, 2, 3});
  CHECK(rn.attrs.at("lf").list_f == std::vector<float>{0.25f, -1.0f});
  CHECK(rn.attrs.at("ls").list_s == std::vector<std::string>{"a", "bc"});
  CHECK(rn.attrs.at("lli").list_list_i == std::vector<std::vector<int64_t>>{{1, 2}, {3}});
  CHECK(rn.attrs.at("dt").dt == ge::DT_FLOAT16);
  CHECK(rn.attrs.at("dn").dt == ge::DT_INT32);
  CHECK(relu.graph.nodes[static_cast<size_t>(relu.graph.inputs[0])].output_descs[0].format == ge::FORMAT_NCHW);

  // dynamic_input names the group's tensors inputs0, inputs1; the absent Clip input is unconnected.
  const om::Model concat = om::ReadFile(out + "/concat_dynamic_input.om");
  const ir::Node &cat = OpNode(concat);
  CHECK(cat.input_descs[0].name == "inputs0");
  CHECK(cat.input_descs[1].name == "inputs1");
  const om::Model clip_model = om::ReadFile(out + "/clip_absent_min.om");
  const ir::Node &clip = OpNode(clip_model);
  REQUIRE(clip.inputs.size() == 3);
  CHECK_FALSE(clip.inputs[1].connected());
  RemoveTree(dir);
}

TEST_CASE("atc --singleop: a custom op from ASCEND_CUSTOM_OPP_PATH", "[singleop]") {
  const std::string dir = MakeTempDir();
  auto r = Build(Json("custom.json"), dir, AxpyOpp());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const om::Model m = om::ReadFile(dir + "/axpy_custom.om");
  CHECK(OpNode(m).type == "AxpyCustom");
  CHECK(m.deliverables.size() == 1);  // embedded, so aclop* needs no environment
  // Without the deliverable the type is unknown, and the error names it.
  auto missing = Build(Json("custom.json"), dir + "/x");
  CHECK(missing.exit_code == 255);
  CHECK(missing.err.find("OA1104: '" + Json("custom.json") + "': node 'axpy_custom' (AxpyCustom): entry 0 (op "
                         "'AxpyCustom'): the op type 'AxpyCustom' is not provided") != std::string::npos);
  CHECK_FALSE(Exists(dir + "/x/axpy_custom.om"));
  RemoveTree(dir);
}

TEST_CASE("atc --singleop: each malformed description names its entry and field", "[singleop]") {
  const std::string dir = MakeTempDir();
  const std::string out = dir + "/o";
  auto prefix = [&](const std::string &code, const std::string &file) {
    return "atc: error: " + code + ": '" + Json("bad/" + file) + "': ";
  };
  struct Case {
    const char *file, *code, *text;
  };
  const Case cases[] = {
      {"syntax.json", "E10025", "--singleop: the file is not valid JSON ("},
      {"number_overflow.json", "E10025", "--singleop: the file is not valid JSON ([json.exception.out_of_range.406] number overflow parsing '1e400'"},
      {"not_array.json", "E10032", "--singleop: the file must hold a JSON array of op descriptions, not an object. "},
      {"empty_op.json", "E10026", "entry 0, field 'op': the op type is empty. "},
      {"missing_op.json", "E10032", "entry 0: the required key 'op' is missing. "},
      {"bad_type.json", "E10027", "entry 0 (op 'Add'), field 'input_desc[0].type': 'float33' is not a data type. "},
      {"bad_format.json", "E10027", "entry 0 (op 'Add'), field 'input_desc[0]': 'FORMAT_MAX' is not a format (type 'float'). "},
      {"undefined_type.json", "E10027", "entry 0 (op 'Add'), field 'input_desc[0]': type 'UNDEFINED' with format 'ND': "},
      {"reserved_output.json", "E10027", "entry 0 (op 'Add'), field 'output_desc[0]': an output needs a data type and a format"},
      {"missing_shape.json", "E10032", "entry 0 (op 'Add'), field 'input_desc[0]': the required key 'shape' is missing. "},
      {"shape_not_list.json", "E10032", "entry 0 (op 'Add'), field 'input_desc[0].shape': must be an array of integers, not a string. "},
      {"attr_empty_name.json", "E10029", "entry 0 (op 'Relu'), field 'attr[0].name': the attr name is empty. "},
      {"attr_bad_type.json", "E10030", "entry 0 (op 'Relu'), field 'attr[0].type': 'undefined' is not an attr type (E13006). "},
      {"attr_no_value.json", "E10032", "entry 0 (op 'Relu'), field 'attr[0]': the required key 'value' is missing. "},
      {"attr_wrong_value.json", "E10032", "entry 0 (op 'Relu'), field 'attr[0] ('a').value[1]': must be an integer, not \"x\". "},
      {"attr_twice.json", "E10032", "entry 0 (op 'Relu'), field 'attr[1].name': the attr 'a' is given twice. "},
      {"unknown_rank_with_dims.json", "E13014", "entry 0 (op 'Relu'), field 'input_desc[0].shape': -2 (unknown rank) must be the only dim, not [-2, 3]. "},
      {"unknown_rank_with_range.json", "E13014", "entry 0 (op 'Relu'), field 'input_desc[0].shape_range': an unknown rank ([-2]) takes no shape_range. "},
      {"range_count.json", "E13014", "entry 0 (op 'Relu'), field 'input_desc[0].shape_range': 1 range(s) for the 2 unknown (-1) dim(s) of [-1, -1]. "},
      {"range_not_pair.json", "E13014", "entry 0 (op 'Relu'), field 'input_desc[0].shape_range[0]': a range is [lo, hi], not 3 values. "},
      {"const_count.json", "E13014", "entry 0 (op 'Add'), field 'input_desc[1].const_value': 3 value(s) for the shape [2] (2 elements). "},
      {"same_file.json", "E10001", "entry 1 (op 'Abs') and entry 0 would both be written to 'same.om'. "},
  };
  for (const Case &c : cases) {
    INFO(c.file);
    const std::string err = ErrorOf(c.file, out);
    CHECK(err.rfind(prefix(c.code, c.file) + c.text, 0) == 0);
    CHECK(err.find('\n') == err.size() - 1);  // one line
  }
  // Found while building: the node and op type come first, then the entry.
  const std::string few = ErrorOf("too_few_inputs.json", out);
  CHECK(few.rfind(prefix("E13014", "too_few_inputs.json") + "node 'Add' (Add): entry 0 (op 'Add'): ", 0) == 0);
  CHECK(ErrorOf("too_few_outputs.json", out) ==
        prefix("E13014", "too_few_outputs.json") +
            "node 'Add' (Add): entry 0 (op 'Add'): 0 output_desc entries, but the op has 1 outputs. Describe every "
            "output of the op.\n");
  const std::string mism = ErrorOf("output_mismatch.json", out);
  CHECK(mism == prefix("E13014", "output_mismatch.json") +
                    "node 'Add' (Add): entry 0 (op 'Add'): output_desc[0] says float32 [3], but the op produces "
                    "float32 [2]. Describe the output as the op computes it.\n");
  const std::string unknown = ErrorOf("unknown_op_type.json", out);
  CHECK(unknown.rfind(prefix("OA1104", "unknown_op_type.json") + "node 'NoSuchOp' (NoSuchOp): entry 0 (op 'NoSuchOp'): "
                                                               "the op type 'NoSuchOp' is not provided",
                      0) == 0);
  // An op type is not a path: the OM name made from it keeps no '/' (found by singleop_json_fuzz).
  const std::string path_type = ErrorOf("op_type_path.json", out);
  CHECK(path_type.rfind(prefix("OA1104", "op_type_path.json") + "node '../models/NoSuchOp' (../models/NoSuchOp): ", 0) == 0);
  CHECK_FALSE(Exists(out));  // nothing written for a file with no valid op
  RemoveTree(dir);
}

TEST_CASE("atc --singleop: a failing op does not stop the others, atc still fails", "[singleop]") {
  const std::string dir = MakeTempDir();
  auto r = Build(Json("bad/one_fails.json"), dir);
  CHECK(r.exit_code == 255);
  CHECK(r.err.find("OA1104") != std::string::npos);
  CHECK(Exists(dir + "/kept.om"));
  CHECK(r.out.find("ATC run failed") != std::string::npos);
  RemoveTree(dir);
}
