// Tests that the three encodings of one ModelDef (binary AIR, JSON, text dump) read to equal
// ir::Graphs, and the encoding sniffing of ReadGeIrFile / ReadGeIrString.
#include <catch2/catch.hpp>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "ge_ir.pb.h"
#include "test_graphs.h"

using namespace openatc;
using frontend::GeIrEncoding;
using frontend::ReadGeIrFile;
using frontend::ReadGeIrString;

namespace {

bool DescEq(const ir::TensorDesc &a, const ir::TensorDesc &b) {
  return a.name == b.name && a.dtype == b.dtype && a.format == b.format &&
         a.origin_format == b.origin_format && a.shape == b.shape &&
         a.origin_shape == b.origin_shape && a.valid == b.valid;
}

bool DescsEq(const std::vector<ir::TensorDesc> &a, const std::vector<ir::TensorDesc> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!DescEq(a[i], b[i])) return false;
  return true;
}

bool AttrEq(const ir::AttrValue &a, const ir::AttrValue &b) {
  if (a.kind != b.kind || a.i != b.i || a.f != b.f || a.b != b.b || a.s != b.s || a.dt != b.dt ||
      a.list_i != b.list_i || a.list_f != b.list_f || a.list_b != b.list_b ||
      a.list_s != b.list_s || a.list_list_i != b.list_list_i)
    return false;
  if (!a.t || !b.t) return !a.t && !b.t;
  return DescEq(a.t->desc, b.t->desc) && a.t->data.size == b.t->data.size &&
         std::memcmp(a.t->data.data, b.t->data.data, a.t->data.size) == 0;
}

void RequireGraphsEqual(const ir::Graph &a, const ir::Graph &b) {
  REQUIRE(a.name == b.name);
  REQUIRE(a.inputs == b.inputs);
  REQUIRE(a.outputs == b.outputs);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const ir::Node &x = a.nodes[i], &y = b.nodes[i];
    INFO("node " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.type == y.type);
    CHECK(x.inputs == y.inputs);
    CHECK(x.control_inputs == y.control_inputs);
    CHECK(DescsEq(x.input_descs, y.input_descs));
    CHECK(DescsEq(x.output_descs, y.output_descs));
    REQUIRE(x.attrs.size() == y.attrs.size());
    for (const auto &kv : x.attrs) {
      INFO("attr " << kv.first);
      REQUIRE(y.attrs.count(kv.first) == 1);
      CHECK(AttrEq(kv.second, y.attrs.at(kv.first)));
    }
  }
}

/// The docs/ge-ir.md §5 example plus a Const with weights and a control edge, as a ModelDef.
openatc::geir::ModelDef RichModel() {
  openatc::geir::ModelDef m;
  REQUIRE(google::protobuf::util::JsonStringToMessage(frontend_test::kSingleAddJson, &m).ok());
  auto *g = m.mutable_graph(0);
  auto *c = g->add_op();
  c->set_name("w");
  c->set_type("Const");
  auto *t = (*c->mutable_attr())["value"].mutable_t();
  t->mutable_desc()->set_dtype(openatc::geir::DT_FLOAT16);
  t->mutable_desc()->mutable_shape()->add_dim(3);
  t->set_data(std::string("\x00\x3c\x00\x40\x00\x42", 6));  // fp16 1, 2, 3
  g->mutable_op(2)->add_input("w:-1");
  (*g->mutable_op(2)->mutable_attr())["alpha"].set_f(0.25f);
  return m;
}

std::string WriteTemp(const std::string &name, const std::string &bytes) {
  std::string path = "frontend_tmp_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("frontend_three_encodings_equal", "[frontend]") {
  openatc::geir::ModelDef m = RichModel();
  std::string binary, json, text;
  REQUIRE(m.SerializeToString(&binary));
  REQUIRE(google::protobuf::util::MessageToJsonString(m, &json).ok());
  REQUIRE(google::protobuf::TextFormat::PrintToString(m, &text));

  ir::Graph gb = ReadGeIrString(binary, GeIrEncoding::kBinary, "m.air");
  ir::Graph gj = ReadGeIrString(json, GeIrEncoding::kJson, "m.json");
  ir::Graph gt = ReadGeIrString(text, GeIrEncoding::kText, "m.txt");
  RequireGraphsEqual(gb, gj);
  RequireGraphsEqual(gb, gt);

  // Spot checks of the extra parts (hand values).
  REQUIRE(gb.nodes.size() == 5);
  CHECK(gb.nodes[4].name == "w");
  CHECK(gb.nodes[4].output_descs[0].dtype == ge::DT_FLOAT16);
  CHECK(gb.nodes[4].attrs.at("value").t->data.size == 6);
  CHECK(gb.nodes[2].control_inputs == std::vector<int32_t>{4});
  CHECK(gb.nodes[2].attrs.at("alpha").f == 0.25f);

  // kAuto: content sniffing without a known extension.
  RequireGraphsEqual(gb, ReadGeIrString(binary, GeIrEncoding::kAuto, "model"));
  RequireGraphsEqual(gb, ReadGeIrString("  \n" + json, GeIrEncoding::kAuto, "model"));
  RequireGraphsEqual(gb, ReadGeIrString(text, GeIrEncoding::kAuto, "model"));

  // Files, sniffed by extension and by content.
  for (auto [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"m.air", binary}, {"m.json", json}, {"m.txt", text}, {"m.pbtxt", text},
           {"m_bin", binary}, {"m_json", json}, {"m_text", text}}) {
    INFO(name);
    std::string path = WriteTemp(name, bytes);
    RequireGraphsEqual(gb, ReadGeIrFile(path));
    std::remove(path.c_str());
  }
}

TEST_CASE("frontend_file_errors", "[frontend]") {
  try {
    ReadGeIrFile("frontend_tmp_does_not_exist.air");
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kIo);
    CHECK(std::string(e.what()) ==
          "OA1014: 'frontend_tmp_does_not_exist.air': cannot open the graph file: No such file or directory. "
          "Check the path "
          "given to --model and that the file is readable.");
  }
  try {
    ReadGeIrFile(".");
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()) ==
          "OA1014: '.': the graph path is a directory. Pass the graph file itself (.air, .json, "
          ".txt) to --model.");
  }
  // A .json extension forces JSON even when the content is not.
  std::string path = WriteTemp("bad.json", "graph { }");
  try {
    ReadGeIrFile(path);
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.code() == "E10041");
    CHECK(e.file() == path);
    CHECK(std::string(e.what()).find("the JSON graph does not parse") != std::string::npos);
  }
  std::remove(path.c_str());
  // Neither binary nor text.
  std::string what;
  try {
    ReadGeIrString("\x01\x02 not a graph", GeIrEncoding::kAuto, "blob");
  } catch (const Error &e) {
    what = e.what();
  }
  CHECK(what ==
        "E10041: 'blob': the file parses neither as binary AIR nor as a text dump (text: line "
        "1, column 1: Invalid control characters encountered in text). Check that the file is a "
        "GE IR graph "
        "(ge.proto.ModelDef) in binary AIR, JSON or text form.");
}

TEST_CASE("frontend_ge_style_text_dump", "[frontend]") {
  // Hand-written in the style of GE's ge_proto_*.txt dumps (snake_case names, map entries as
  // key/value blocks, enum names); same graph as the docs/ge-ir.md §5 example minus the serializer
  // attrs.
  const char *dump = R"TXT(
graph {
  name: "single_add"
  input: "x1:0"
  input: "x2:0"
  output: "add:0"
  op {
    name: "x1"
    type: "Data"
    input: ""
    attr { key: "index" value { i: 0 } }
    input_desc { dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
    output_desc { dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
  }
  op {
    name: "x2"
    type: "Data"
    input: ""
    attr { key: "index" value { i: 1 } }
    input_desc { dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
    output_desc { dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
  }
  op {
    name: "add"
    type: "AddCustom"
    input: "x1:0"
    input: "x2:0"
    input_desc { name: "x1" dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
    input_desc { name: "x2" dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND" }
    output_desc { name: "y" dtype: DT_FLOAT shape { dim: 4 dim: 4 } layout: "ND"
      attr { key: "format_for_int" value { i: 2 } } }
  }
}
)TXT";
  ir::Graph g = ReadGeIrString(dump, GeIrEncoding::kAuto, "ge_proto_single_add.txt");
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[3].name == "Node_Output");  // built from graph.output
  CHECK(g.nodes[3].inputs == std::vector<ir::Endpoint>{{2, 0}});
  CHECK(g.inputs == std::vector<int32_t>{0, 1});
  CHECK(g.outputs == std::vector<ir::Endpoint>{{2, 0}});
  CHECK(g.nodes[2].output_descs[0].format == ge::FORMAT_ND);
  CHECK(g.nodes[2].output_descs[0].shape == std::vector<int64_t>{4, 4});
  CHECK(g.nodes[2].inputs == std::vector<ir::Endpoint>{{0, 0}, {1, 0}});
}

TEST_CASE("frontend_deep_nesting_is_refused", "[frontend]") {
  // 1000 nested graph attrs: every encoding fails cleanly with E10041 (recursion bounded).
  openatc::geir::ModelDef m;
  openatc::geir::GraphDef *g = m.add_graph();
  for (int k = 0; k < 1000; ++k) g = (*g->mutable_attr())["a"].mutable_g();
  std::string binary, json, text;
  REQUIRE(m.SerializeToString(&binary));
  REQUIRE(google::protobuf::TextFormat::PrintToString(m, &text));
  // protobuf's JSON printer refuses this depth, so the JSON is spelled out.
  json = R"({"graph": [)";
  for (int k = 0; k < 1000; ++k) json += R"({"attr": {"a": {"g": )";
  json += "{}";
  for (int k = 0; k < 1000; ++k) json += "}}}";
  json += "]}";
  for (auto [enc, bytes] : std::vector<std::pair<GeIrEncoding, std::string>>{
           {GeIrEncoding::kBinary, binary}, {GeIrEncoding::kJson, json},
           {GeIrEncoding::kText, text}}) {
    std::string code;
    try {
      ReadGeIrString(bytes, enc, "deep");
    } catch (const Error &e) {
      code = e.code();
    }
    CHECK(code == "E10041");
  }
}

TEST_CASE("frontend_mutated_inputs_throw_only_openatc_errors", "[frontend]") {
  // Deterministic byte mutations of a valid AIR and JSON file: each read either succeeds or
  // throws openatc::Error (never another exception type; ASan/UBSan builds check for crashes).
  openatc::geir::ModelDef m = RichModel();
  std::string binary, json;
  REQUIRE(m.SerializeToString(&binary));
  REQUIRE(google::protobuf::util::MessageToJsonString(m, &json).ok());
  uint64_t state = 12345;
  auto next = [&state]() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  int other_exceptions = 0, ok = 0, errors = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = iter % 2 ? binary : json;
    int flips = 1 + next() % 4;
    for (int k = 0; k < flips; ++k) bytes[next() % bytes.size()] = static_cast<char>(next());
    try {
      ReadGeIrString(bytes, iter % 2 ? GeIrEncoding::kBinary : GeIrEncoding::kJson, "fuzz");
      ++ok;
    } catch (const Error &e) {
      ++errors;
      CHECK(e.category() == ErrorCategory::kGraph);
    } catch (...) {
      ++other_exceptions;
    }
  }
  CHECK(other_exceptions == 0);
  CHECK(ok + errors == 3000);
  CHECK(errors > 0);
}
