// Command-line failures of atc and omrun: exit codes of README.md "atc" / "omrun" and the one error
// template ("Error codes").
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
const char *kFailLine = "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n";

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A compiled axpy float32 [2,3] model shared by the omrun cases.
struct Model {
  std::string dir, om;
  Model() : dir(MakeTempDir()), om(dir + "/m.om") {
    WriteBytes(dir + "/g.json", AxpyGraphJson("DT_FLOAT", {2, 3}, 1.0f));
    auto atc = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, AxpyOpp());
    if (atc.exit_code != 0) FAIL(atc.err);
  }
  ~Model() { RemoveTree(dir); }
  tensor_io::HostTensor Input(ge::DataType dt, std::vector<int64_t> shape, size_t elem) const {
    tensor_io::HostTensor t;
    t.dtype = dt;
    t.shape = shape;
    size_t n = 1;
    for (auto d : shape) n *= static_cast<size_t>(d);
    t.data.assign(n * elem, 0);
    return t;
  }
};
}  // namespace

TEST_CASE("atc: an unregistered op type names the type, node, roots and registered types", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", AxpyGraphJson("DT_FLOAT", {2}, 1.0f));
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, "");
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.out, kFailLine));
  CHECK(Contains(r.err, "atc: error: OA1104: '" + dir + "/g.json': node 'axpy' (AxpyCustom): op type 'AxpyCustom' "
                        "(node 'axpy') is not registered by any deliverable. OPP roots searched: none from "
                        "ASCEND_CUSTOM_OPP_PATH (unset or empty), then the built-in root '"));
  CHECK(Contains(r.err, "Registered op types: "));
  CHECK_FALSE(ReadText(dir + "/m.om").size());  // nothing written

  auto wrong_root = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                           BuildPath("tests/opp/regroot1"));
  CHECK(wrong_root.exit_code == 255);
  CHECK(Contains(wrong_root.err, "OPP roots searched: '" + BuildPath("tests/opp/regroot1") + "'"));
  CHECK(Contains(wrong_root.err, "DupOp, "));
  CHECK(Contains(wrong_root.err, "OnlyVariant1, OnlyVariant2"));
  RemoveTree(dir);
}

TEST_CASE("atc: --soc_version errors", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", AxpyGraphJson("DT_FLOAT", {2}, 1.0f));
  auto empty = RunAtc({"--model", dir + "/g.json", "--output", dir + "/m"}, AxpyOpp());
  CHECK(empty.exit_code == 255);
  CHECK(Contains(empty.err, "E10054"));
  CHECK(Contains(empty.err, "--soc_version"));

  auto ascend = RunCommand({BuildPath("bin/atc"), "--model", dir + "/g.json", "--soc_version", "ascend910b1",
                            "--output", dir + "/m"},
                           {{"ASCEND_HOME_PATH", dir + "/no-cann"}});
  CHECK(ascend.exit_code == 255);
  CHECK(Contains(ascend.err, "atc: error: OA1301: --soc_version Ascend910B1 needs CANN's RTC (libacl_rtc.so), which "
                             "was not found; searched " +
                                 dir + "/no-cann/lib64/libacl_rtc.so, /usr/local/Ascend/ascend-toolkit/latest/lib64/"
                                       "libacl_rtc.so, /usr/local/Ascend/cann/lib64/libacl_rtc.so. Install CANN and "
                                       "set ASCEND_HOME_PATH, pass --soc_version host to build for this CPU, or "
                                       "emulate the chip on this CPU with `export OPENATC_EMULATION=1` (chips: "
                                       "Ascend910B1, Ascend910_9362, Ascend310P3, Ascend310B1)."));

  auto unknown = RunAtc({"--model", dir + "/g.json", "--soc_version", "Ascend999", "--output", dir + "/m"}, AxpyOpp());
  CHECK(unknown.exit_code == 255);
  CHECK(Contains(unknown.err, "E10001: value 'Ascend999' for parameter --soc_version is not supported. Accepted: host, "
                              "Ascend310,"));
  RemoveTree(dir);
}

TEST_CASE("atc: a callback failure names node, op type, callback and deliverable", "[e2e]") {
  const std::string dir = MakeTempDir();
  // x1 float32, x2 int32: AxpyCustom::InferDataType refuses mixed dtypes.
  std::string json = AxpyGraphJson("DT_FLOAT", {2}, 1.0f);
  const std::string from = "\"name\": \"x2\", \"type\": \"Data\"";
  size_t p = json.find(from);
  REQUIRE(p != std::string::npos);
  for (int k = 0; k < 2; ++k) {
    size_t d = json.find("DT_FLOAT", p);
    json.replace(d, 8, "DT_INT32");
    p = d;
  }
  WriteBytes(dir + "/g.json", json);
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, AxpyOpp());
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.err, "OA1401: '" + dir + "/g.json': node 'axpy' (AxpyCustom): InferDataType returned GRAPH_FAILED. "
                        "See the deliverable's log above ('" +
                            AxpyOpp() + "/op_graph/lib/linux/" + opp::HostArch() + "/libaxpy_custom.so')."));
  RemoveTree(dir);
}

TEST_CASE("omrun: bad inputs are refused with exit code 3 naming the input", "[e2e]") {
  Model m;
  auto good = m.Input(ge::DT_FLOAT, {2, 3}, 4);
  tensor_io::WriteNpy(m.dir + "/good.npy", good);

  auto count = RunOmrun({m.om, "--input", m.dir + "/good.npy"});
  CHECK(count.exit_code == 3);
  CHECK(Contains(count.err, "the model has 2 input(s) but --input lists 1 file(s)"));

  tensor_io::WriteNpy(m.dir + "/int.npy", m.Input(ge::DT_INT32, {2, 3}, 4));
  auto dtype = RunOmrun({m.om, "--input", m.dir + "/good.npy," + m.dir + "/int.npy"});
  CHECK(dtype.exit_code == 3);
  CHECK(Contains(dtype.err, "x2"));

  tensor_io::WriteNpy(m.dir + "/shape.npy", m.Input(ge::DT_FLOAT, {3, 2}, 4));
  auto shape = RunOmrun({m.om, "--input", m.dir + "/shape.npy," + m.dir + "/good.npy"});
  CHECK(shape.exit_code == 3);
  CHECK(Contains(shape.err, "x1"));

  WriteBytes(m.dir + "/short.bin", std::string(23, '\0'));
  auto size = RunOmrun({m.om, "--input", m.dir + "/good.npy," + m.dir + "/short.bin"});
  CHECK(size.exit_code == 3);
  CHECK(Contains(size.err, "short.bin"));

  auto missing = RunOmrun({m.om, "--input", m.dir + "/none.npy," + m.dir + "/good.npy"});
  CHECK(missing.exit_code == 3);
  CHECK(Contains(missing.err, "none.npy"));

  WriteBytes(m.dir + "/raw.bin", std::string(24, '\0'));
  auto ok = RunOmrun({m.om, "--input", m.dir + "/good.npy," + m.dir + "/raw.bin"});
  CHECK(ok.exit_code == 0);
}

TEST_CASE("omrun: usage errors exit 2, non-OM files exit 4, random inputs are announced", "[e2e]") {
  Model m;
  CHECK(RunOmrun({}).exit_code == 2);
  CHECK(RunOmrun({m.om, "--outfmt", "XML"}).exit_code == 2);
  WriteBytes(m.dir + "/text.om", "hello, this is not an OM");
  auto not_om = RunOmrun({m.dir + "/text.om"});
  CHECK(not_om.exit_code == 4);
  CHECK(Contains(not_om.err, "not an OM file"));
  auto random = RunOmrun({m.om});
  CHECK(random.exit_code == 0);
  CHECK(Contains(random.err, "random"));
  auto info = RunOmrun({m.om, "--info"});
  CHECK(info.exit_code == 0);
  CHECK(Contains(info.out, "target: host"));
  CHECK(Contains(info.out, "[0] x1 float32 [2, 3]"));
}

TEST_CASE("atc: a shape that is empty at compile time is refused naming the node and the fix (OA1106)", "[e2e]") {
  const std::string dir = MakeTempDir();
  const std::string desc = R"({ "dtype": "DT_FLOAT", "shape": { "dim": ["8", "2048"] }, "layout": "ND" })";
  auto data = [&](const std::string &name, int index, bool with_desc) {
    return R"({ "name": ")" + name + R"(", "type": "Data", "input": [""], "attr": { "index": { "i": ")" +
           std::to_string(index) + "\" } }" +
           (with_desc ? R"(, "inputDesc": [)" + desc + R"(], "outputDesc": [)" + desc + "]" : std::string()) + " }";
  };
  auto graph = [&](bool x_desc, const std::string &add_output_desc) {
    return R"({ "name": "g", "graph": [ { "name": "g", "output": ["add:0"], "op": [ )" + data("x", 0, x_desc) + ", " +
           data("y", 1, true) + R"(, { "name": "add", "type": "AddCustom", "input": ["x:0", "y:0"])" +
           add_output_desc + " } ] } ] }";
  };
  const std::string opp = BuildPath("examples/triton_add_custom/opp");  // AddCustom: Execute only

  SECTION("an op nothing infers, whose outputDesc has a dtype but no dims") {
    WriteBytes(dir + "/g.json", graph(true, R"(, "outputDesc": [ { "dtype": "DT_FLOAT", "layout": "ND" } ])"));
    auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, opp);
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: OA1106: '" + dir + "/g.json': node 'add' (AddCustom): the shape of output 0 "
                          "is empty at compile time: the op has no ShapeInferOp and no IMPL_OP InferShape, and the "
                          "graph's outputDesc gives no dims, while an input has shape [8, 2048]. Give the node an "
                          "outputDesc with the output's \"shape\": {\"dim\": [...]}, or implement "
                          "ShapeInferOp::InferShape (or IMPL_OP(AddCustom).InferShape) in the deliverable"));
    CHECK_FALSE(ReadText(dir + "/m.om").size());
  }
  SECTION("a Data node without any tensor desc") {
    WriteBytes(dir + "/g.json", graph(false, R"(, "outputDesc": [ )" + desc + " ]"));
    auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, opp);
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: OA1106: '" + dir + "/g.json': node 'x' (Data): the Data node has no tensor "
                          "desc: its dtype and shape are empty at compile time. Give the Data node an outputDesc (or "
                          "inputDesc) with a \"dtype\" and a \"shape\": {\"dim\": [...]} (\"dim\": [] is a scalar); "
                          "--input_shape sets dims only"));
  }
  SECTION("the same op with the output's dims compiles") {
    WriteBytes(dir + "/g.json", graph(true, R"(, "outputDesc": [ )" + desc + " ]"));
    auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, opp);
    INFO(r.err);
    CHECK(r.exit_code == 0);
  }
  RemoveTree(dir);
}
