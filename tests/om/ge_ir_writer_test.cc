// The mode-1 graph writer (frontend::WriteGeIrJson): the JSON it writes reads back with the GE IR
// front end (ReadGeIrString / ReadGeIrFile) to the same graph, field by field: every AttrKind,
// Const bytes, control edges, absent optional inputs, formats, origin shapes, dtypes without a
// proto name. Expected values are the graph built by hand in om_test_util.cc.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/frontend/ge_ir_writer.h"

using namespace openatc;

namespace {
om::Model WithGraph(ir::Graph g) {
  om::Model m;
  m.graph = std::move(g);
  return m;
}
}  // namespace

// The test graph, adjusted for two rules of the GE IR reader: a Const's output desc is its
// value's desc (docs/ge-ir.md §4), and protobuf's JSON parser reads -0.0 as
// +0.0 (checked separately below).
static ir::Graph TestGraph() {
  ir::Graph g = omtest::MakeSmallModel().graph;
  g.nodes[1].output_descs[0] = g.nodes[1].attrs.at("value").t->desc;
  g.nodes[2].attrs.at("a_float").f = 0.0f;
  return g;
}

TEST_CASE("ge ir writer: -0.0 float attrs read back as 0 (protobuf JSON parser)", "[om][frontend]") {
  ir::Graph g = TestGraph();
  g.nodes[2].attrs.at("a_float").f = -0.0f;
  const std::string json = frontend::WriteGeIrJson(g);
  CHECK(json.find("\"f\": -0") != std::string::npos);  // written with its sign
  const ir::Graph back = frontend::ReadGeIrString(json, frontend::GeIrEncoding::kJson, "g.json");
  CHECK(back.nodes[2].attrs.at("a_float").f == 0.0f);
}

TEST_CASE("ge ir writer: names that are not UTF-8 are refused", "[om][frontend]") {
  ir::Graph g = TestGraph();
  g.nodes[2].type = std::string("Add\xff", 4);
  try {
    frontend::WriteGeIrJson(g);
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()) ==
          "OA1015: node 'add': cannot write the graph as JSON: the node name or op type is not "
          "valid UTF-8, which JSON cannot hold. Rename it with UTF-8 text; the binary AIR form can "
          "keep such names.");
  }
  g = TestGraph();
  g.nodes[2].attrs["\xc0\xaf"] = g.nodes[2].attrs.at("a_int");  // an overlong '/'
  CHECK_THROWS_WITH(frontend::WriteGeIrJson(g),
                    Catch::Contains("OA1015: node 'add' (AddCustom): cannot write the graph as JSON: "
                                    "the name of an attr is not valid UTF-8"));
  g = TestGraph();
  g.nodes[0].name = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";  // valid 2-, 3-, 4-byte forms
  g.nodes[0].output_descs[0].name = "\xed\xa0\x80";          // a surrogate: refused
  CHECK_THROWS_WITH(frontend::WriteGeIrJson(g), Catch::Contains("the name of an output desc is not valid UTF-8"));
}

TEST_CASE("ge ir writer: every part of a graph survives JSON and the reader", "[om][frontend]") {
  const ir::Graph g = TestGraph();
  const std::string json = frontend::WriteGeIrJson(g, {{"_om_note", "ignored by the reader"}});
  CHECK(json.back() == '\n');
  // snake_case proto field names, dtype names, control edge spelling, the graph attr.
  CHECK(json.find("\"input_desc\"") != std::string::npos);
  CHECK(json.find("\"output_desc\"") != std::string::npos);
  CHECK(json.find("\"dtype\": \"DT_FLOAT\"") != std::string::npos);
  CHECK(json.find("\"w:-1\"") != std::string::npos);
  CHECK(json.find("\"_om_note\"") != std::string::npos);
  const ir::Graph back = frontend::ReadGeIrString(json, frontend::GeIrEncoding::kJson, "g.json");
  omtest::CheckModelsEqual(WithGraph(g), WithGraph(back));
  // Writing the re-read graph gives the same text: a fixed point.
  CHECK(frontend::WriteGeIrJson(back, {{"_om_note", "ignored by the reader"}}) == json);
}

TEST_CASE("ge ir writer: formats and dtypes without a serial name use the int attrs", "[om][frontend]") {
  ir::Graph g = TestGraph();
  // A value inside ge::Format's range (below FORMAT_MAX) that has no serial name.
  const auto odd = static_cast<ge::Format>(200);
  g.nodes[2].output_descs[0].format = odd;
  g.nodes[2].output_descs[0].origin_format = odd;
  g.nodes[2].output_descs[0].origin_shape = {7};
  g.nodes[3].input_descs[0] = g.nodes[2].output_descs[0];
  const std::string json = frontend::WriteGeIrJson(g);
  CHECK(json.find("format_for_int") != std::string::npos);
  const ir::Graph back = frontend::ReadGeIrString(json, frontend::GeIrEncoding::kJson, "g.json");
  CHECK(back.nodes[2].output_descs[0].format == odd);
  CHECK(back.nodes[2].output_descs[0].origin_format == odd);
  CHECK(back.nodes[2].output_descs[0].origin_shape == std::vector<int64_t>{7});
  omtest::CheckModelsEqual(WithGraph(g), WithGraph(back));
}

TEST_CASE("ge ir writer: undescribed outputs stay undescribed (fuzzer finding)", "[om][frontend]") {
  // ge_ir_fuzz found a graph whose Data node declares no output_desc while its consumer has an
  // explicit input_desc [2]; written with an explicit default output desc it no longer read.
  const char *src = std::getenv("OPENATC_SOURCE_DIR");
  REQUIRE(src != nullptr);
  const ir::Graph g = frontend::ReadGeIrFile(std::string(src) +
                                             "/tests/om/fuzz_regressions/ge_ir_implicit_output_desc.air");
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[0].output_descs.size() == 1);
  CHECK(g.nodes[0].output_descs[0].shape.empty());
  CHECK(g.nodes[2].input_descs[0].shape == std::vector<int64_t>{2});
  const std::string json = frontend::WriteGeIrJson(g);
  const ir::Graph back = frontend::ReadGeIrString(json, frontend::GeIrEncoding::kJson, "g.json");
  omtest::CheckModelsEqual(WithGraph(g), WithGraph(back));
}
