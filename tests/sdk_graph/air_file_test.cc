// ge::Graph::SaveToFile / LoadFromFile (sdk/register/src/air_*.cc, docs/ge-ir.md): the AIR written
// for the compilable_add_custom sample's graph (exact ModelDef contents), identical bytes on every
// run and after a round trip, control edges and dynamic inputs, clean failures, and the AIR
// compiling with atc to the same OM as the JSON form of the same graph.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <string>
#include <vector>

#include "ge_ir.pb.h"
#include "graph/graph.h"
#include "graph/operator_reg.h"
#include "openatc/register/attr_value.h"
#include "ops_proto_legacy.h"
#include "run_command.h"

namespace ge {
// The prototype of examples/compilable_add_custom's op (its deliverable compiles the graph).
REG_OP(AddCustom)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AddCustom);
REG_OP(AirConcat)
    .DYNAMIC_INPUT(x, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(axis, Int, 1)
    .ATTR(mode, String, "fast")
    .ATTR(scales, ListFloat, {0.5f})
    .OP_END_FACTORY_REG(AirConcat);
}  // namespace ge

namespace {
using namespace openatc::testing;
using openatc::reg::LastSdkError;
bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

struct TempDir {
  std::string path = MakeTempDir();
  ~TempDir() { RemoveTree(path); }
};

// The graph GE's compilable_add_custom graph_build builds: data -> add1(data, data) -> add2(add1, data).
ge::Graph SingleAdd() {
  using namespace ge;
  TensorDesc desc(Shape(std::vector<int64_t>{4, 4}), FORMAT_ND, DT_FLOAT);
  auto data = op::Data("data");
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  auto add1 = op::AddCustom("add1").set_input_x1(data).set_input_x2(data);
  auto add2 = op::AddCustom("add2").set_input_x1(add1).set_input_x2(data);
  Graph graph("GraphBuildGraph1");
  graph.SetInputs({data}).SetOutputs({add2});
  return graph;
}

openatc::geir::ModelDef Parse(const std::string &bytes) {
  openatc::geir::ModelDef m;
  REQUIRE(m.ParseFromString(bytes));
  return m;
}

std::vector<std::string> Strings(const openatc::geir::OpDef &op, const char *key) {
  const auto &l = op.attr().at(key).list();
  return {l.s().begin(), l.s().end()};
}

std::vector<int64_t> Ints(const openatc::geir::OpDef &op, const char *key) {
  const auto &l = op.attr().at(key).list();
  return {l.i().begin(), l.i().end()};
}

std::vector<std::string> Listing(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}
}  // namespace

TEST_CASE("air: SaveToFile writes the sample graph as GE lays it out", "[air]") {
  TempDir dir;
  const std::string air = dir.path + "/single_add.air";
  REQUIRE(SingleAdd().SaveToFile(air.c_str()) == ge::GRAPH_SUCCESS);
  const openatc::geir::ModelDef m = Parse(ReadText(air));
  CHECK(m.name().empty());
  CHECK(m.version() == 0U);
  CHECK(m.attr().size() == 7U);
  CHECK(m.attr().at("target_type").s() == "MINI");
  CHECK(m.attr().at("memory_size").value_case() == openatc::geir::AttrDef::kI);
  CHECK(m.attr().at("stream_num").i() == 0);
  REQUIRE(m.graph_size() == 1);
  const auto &g = m.graph(0);
  CHECK(g.name() == "GraphBuildGraph1");
  CHECK(std::vector<std::string>(g.input().begin(), g.input().end()) == std::vector<std::string>{"data:0"});
  CHECK(std::vector<std::string>(g.output().begin(), g.output().end()) == std::vector<std::string>{"add2:0"});
  REQUIRE(g.op_size() == 3);
  const auto &data = g.op(0);
  CHECK(data.name() == "data");
  CHECK(data.type() == "Data");
  CHECK(std::vector<std::string>(data.input().begin(), data.input().end()) == std::vector<std::string>{""});
  CHECK(data.attr().at("index").i() == 0);
  CHECK(Strings(data, "_input_name_key") == std::vector<std::string>{"x"});
  CHECK(Strings(data, "_output_name_key") == std::vector<std::string>{"y"});
  CHECK(Strings(data, "_ir_attr_names") == std::vector<std::string>{"index"});
  REQUIRE(data.output_desc_size() == 1);
  const auto &y = data.output_desc(0);
  CHECK(y.dtype() == openatc::geir::DT_FLOAT);
  CHECK(std::vector<int64_t>(y.shape().dim().begin(), y.shape().dim().end()) == std::vector<int64_t>{4, 4});
  CHECK(y.layout() == "ND");
  CHECK(y.attr().at("origin_format").s() == "ND");
  CHECK(y.attr().at("format_for_int").i() == 2);
  CHECK(y.attr().at("origin_data_type").s() == "DT_FLOAT");
  CHECK(std::vector<int64_t>(y.attr().at("origin_shape").list().i().begin(),
                             y.attr().at("origin_shape").list().i().end()) == std::vector<int64_t>{4, 4});
  const auto &add1 = g.op(1);
  const auto &add2 = g.op(2);
  CHECK(add1.name() == "add1");
  CHECK(add1.type() == "AddCustom");
  CHECK(std::vector<std::string>(add1.input().begin(), add1.input().end()) ==
        std::vector<std::string>{"data:0", "data:0"});
  CHECK(add2.name() == "add2");
  CHECK(std::vector<std::string>(add2.input().begin(), add2.input().end()) ==
        std::vector<std::string>{"add1:0", "data:0"});
  CHECK(Strings(add2, "_input_name_key") == std::vector<std::string>{"x1", "x2"});
  CHECK(Ints(add2, "_input_name_value") == std::vector<int64_t>{0, 1});
  CHECK(Strings(add2, "_ir_inputs_key") == std::vector<std::string>{"x1", "x2"});
  CHECK(Ints(add2, "_ir_inputs_value") == std::vector<int64_t>{0, 0});
  CHECK(add2.attr().count("_ir_attr_names") == 0U);
  CHECK(add2.input_desc_size() == 2);
  CHECK(add2.output_desc_size() == 1);
}

TEST_CASE("air: the same graph gives the same bytes, also after LoadFromFile", "[air]") {
  TempDir dir;
  const std::string a = dir.path + "/a.air", b = dir.path + "/b.air", c = dir.path + "/c.air";
  REQUIRE(SingleAdd().SaveToFile(a.c_str()) == ge::GRAPH_SUCCESS);
  REQUIRE(SingleAdd().SaveToFile(b.c_str()) == ge::GRAPH_SUCCESS);
  CHECK(ReadText(a) == ReadText(b));
  ge::Graph loaded;
  REQUIRE(loaded.LoadFromFile(a.c_str()) == ge::GRAPH_SUCCESS);
  ge::AscendString name;
  REQUIRE(loaded.GetName(name) == ge::GRAPH_SUCCESS);
  CHECK(std::string(name.GetString()) == "GraphBuildGraph1");
  CHECK(loaded.GetOpCount() == 3U);
  REQUIRE(loaded.SaveToFile(c.c_str()) == ge::GRAPH_SUCCESS);
  CHECK(ReadText(a) == ReadText(c));
}

TEST_CASE("air: control edges, dynamic and optional inputs, attrs and targets round trip", "[air]") {
  using namespace ge;
  TensorDesc desc(Shape(std::vector<int64_t>{2, 3}), FORMAT_NCHW, DT_FLOAT16);
  auto d0 = op::Data("d0").set_attr_index(1);
  auto d1 = op::Data("d1").set_attr_index(0);
  d0.update_output_desc_y(desc);
  auto cat = op::AirConcat("cat").create_dynamic_input_x(2).set_dynamic_input_x(0, d0).set_dynamic_input_x(1, d1);
  cat.set_attr_axis(-2).set_attr_scales({1.5f, 2.0f});
  cat.AddControlInput(d1);
  auto side = op::AirConcat("side").create_dynamic_input_x(1).set_dynamic_input_x(0, d1);
  Graph graph("ctl");
  graph.SetInputs({d1, d0}).SetOutputs({cat}).SetTargets({side});
  TempDir dir;
  const std::string a = dir.path + "/a.air", b = dir.path + "/b.air";
  REQUIRE(graph.SaveToFile(a.c_str()) == GRAPH_SUCCESS);
  const openatc::geir::ModelDef m = Parse(ReadText(a));
  const auto &g = m.graph(0);
  REQUIRE(g.op_size() == 4);
  CHECK(g.op(0).name() == "d1");
  CHECK(g.op(1).name() == "d0");
  CHECK(g.op(1).attr().at("index").i() == 1);
  CHECK(g.op(1).output_desc(0).dtype() == openatc::geir::DT_FLOAT16);
  CHECK(g.op(1).output_desc(0).layout() == "NCHW");
  const auto &c = g.op(2);
  CHECK(c.name() == "cat");
  CHECK(std::vector<std::string>(c.input().begin(), c.input().end()) ==
        std::vector<std::string>{"d0:0", "d1:0", "", "d1:-1"});
  CHECK(Strings(c, "_input_name_key") == std::vector<std::string>{"x0", "x1", "bias"});
  CHECK(Strings(c, "_ir_inputs_key") == std::vector<std::string>{"x", "bias"});
  CHECK(Ints(c, "_ir_inputs_value") == std::vector<int64_t>{2, 1});
  CHECK(Strings(c, "_opt_input") == std::vector<std::string>{"bias"});
  CHECK(Strings(c, "_ir_attr_names") == std::vector<std::string>{"axis", "mode", "scales"});
  CHECK(c.attr().at("axis").i() == -2);
  CHECK(c.attr().at("mode").s() == "fast");
  CHECK(std::vector<float>(c.attr().at("scales").list().f().begin(), c.attr().at("scales").list().f().end()) ==
        std::vector<float>{1.5f, 2.0f});
  CHECK(g.op(3).name() == "side");
  CHECK(g.output_size() == 1);
  ge::Graph loaded;
  REQUIRE(loaded.LoadFromFile(a.c_str()) == GRAPH_SUCCESS);
  REQUIRE(loaded.SaveToFile(b.c_str()) == GRAPH_SUCCESS);
  CHECK(ReadText(a) == ReadText(b));
}

TEST_CASE("air: failures are clean and leave nothing behind", "[air]") {
  TempDir dir;
  const std::string sub = dir.path + "/taken";
  REQUIRE(RunCommand({"/bin/mkdir", sub}).exit_code == 0);
  // The target is an existing folder: the rename fails, the temp file is removed.
  CHECK(SingleAdd().SaveToFile(sub.c_str()) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "Graph::SaveToFile('" + sub + "'): cannot write the file ("));
  CHECK(Contains(LastSdkError(), "nothing was written"));
  CHECK(Listing(dir.path) == std::vector<std::string>{"taken"});
  CHECK(Listing(sub).empty());
  const std::string missing = dir.path + "/no/such/dir/x.air";
  CHECK(SingleAdd().SaveToFile(missing.c_str()) == ge::GRAPH_FAILED);
  CHECK(Listing(dir.path) == std::vector<std::string>{"taken"});
  CHECK(ge::Graph().SaveToFile((dir.path + "/x.air").c_str()) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "the graph has no name"));
  CHECK(Listing(dir.path) == std::vector<std::string>{"taken"});

  ge::Graph g = SingleAdd();
  CHECK(g.LoadFromFile((dir.path + "/absent.air").c_str()) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "cannot read the file"));
  const std::string junk = dir.path + "/junk.air";
  WriteBytes(junk, std::string("\xff\xff\xff\xff garbage", 12));
  CHECK(g.LoadFromFile(junk.c_str()) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "not an AIR file (binary ge.proto.ModelDef)"));
  openatc::geir::ModelDef bad;
  auto *op = bad.add_graph()->add_op();
  op->set_name("n");
  op->set_type("AddCustom");
  op->add_input("ghost:0");
  const std::string bad_path = dir.path + "/bad.air";
  WriteBytes(bad_path, bad.SerializeAsString());
  CHECK(g.LoadFromFile(bad_path.c_str()) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "node 'n' (op type AddCustom): input 'ghost:0' names node 'ghost', which is not in the graph"));
  CHECK(g.GetOpCount() == 3U);  // unchanged by the failed loads
}

// The OM records atc's options, --model's path among them, so both forms are compiled from the same
// path (no extension: atc tells binary from JSON by content). The .air name the samples use is
// accepted as well.
TEST_CASE("air: atc compiles the AIR to the same OM as the JSON form of the graph", "[air][atc]") {
  TempDir dir;
  const std::string model = dir.path + "/graph";
  const std::map<std::string, std::string> env = {
      {"ASCEND_CUSTOM_OPP_PATH", BuildPath("examples/compilable_add_custom/opp")}};
  auto atc = [&](const std::string &in, const std::string &out) {
    auto r = RunCommand({BuildPath("bin/atc"), "--model", in, "--framework=1", "--soc_version", "host", "--output",
                         dir.path + "/" + out}, env);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return ReadText(dir.path + "/" + out + ".om");
  };
  REQUIRE(SingleAdd().SaveToFile(model.c_str()) == ge::GRAPH_SUCCESS);
  const std::string air_bytes = ReadText(model);
  const std::string from_air = atc(model, "from_air");
  WriteBytes(model, ReadText(SourcePath("tests/sdk_graph/single_add_air.json")));
  const std::string from_json = atc(model, "from_json");
  CHECK(from_air.size() > 1000U);
  CHECK(from_air == from_json);
  WriteBytes(dir.path + "/single_add.air", air_bytes);
  CHECK(atc(dir.path + "/single_add.air", "named").size() > 1000U);  // atc takes the samples' file name too
}
