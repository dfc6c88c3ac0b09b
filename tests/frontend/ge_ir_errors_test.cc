// Tests of every error path of the GE IR reader, each checking the code and message text.
#include <catch2/catch.hpp>

#include "test_graphs.h"

using namespace openatc;
using frontend::GeIrEncoding;
using frontend::ReadGeIrString;
using frontend_test::DataOp;
using frontend_test::ErrorOf;
using frontend_test::Model;

namespace {
const std::string kAddOf(const std::string &a, const std::string &b) {
  return R"({"name": "add", "type": "Add", "input": [")" + a + R"(", ")" + b + R"("]})";
}
const std::string kOut = R"("output": ["add:0"],)";
}  // namespace

TEST_CASE("frontend_error_category_and_context", "[frontend]") {
  try {
    ReadGeIrString(Model(DataOp("x", "1", 0) + "," + kAddOf("x:0", "y:0"), kOut),
                   GeIrEncoding::kJson, "model.json");
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kGraph);
    CHECK(e.code() == "OA1004");
    CHECK(e.file() == "model.json");
    CHECK(e.node() == "add");
    CHECK(e.op_type() == "Add");
  }
}

TEST_CASE("frontend_error_unknown_input_with_suggestion", "[frontend]") {
  std::string ops = DataOp("input_a", "1", 0) + "," + DataOp("input_b", "1", 1) + "," +
                    kAddOf("input_a:0", "inptu_b:0");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1004: 'g.json': node 'add' (Add): input 1 ('inptu_b:0') names node 'inptu_b', which "
        "does not exist. Did you mean 'input_b'? Inputs must name a node of this graph.");
  // Nothing close: generic hint. Also for a control edge.
  ops = DataOp("x", "1", 0) + "," + kAddOf("x:0", "^completely_different");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1004: 'g.json': node 'add' (Add): control input '^completely_different' names node "
        "'completely_different', which does not exist. Inputs must name a node of this graph as "
        "'node:index'.");
  // Unknown node in GraphDef.output.
  CHECK(ErrorOf(Model(DataOp("x", "1", 0), R"("output": ["xx:0"],)")) ==
        "OA1004: 'g.json': graph output 0 ('xx:0') names node 'xx', which does not exist. Did "
        "you mean 'x'? Inputs must name a node of this graph.");
}

TEST_CASE("frontend_error_bad_edges", "[frontend]") {
  std::string ops = DataOp("x", "1", 0) + "," + kAddOf("x:0", "x:1");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1005: 'g.json': node 'add' (Add): input 1 ('x:1') uses output 1 of node 'x' (Data), "
        "which declares only 1 output(s). Use an output index below the producer's output count.");
  ops = DataOp("x", "1", 0) + "," + kAddOf("x:0", "x");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1005: 'g.json': node 'add' (Add): input 1 'x' has no output index. Write it as "
        "'node:index' (e.g. 'x:0'), or 'x:-1' for a control edge.");
  ops = DataOp("x", "1", 0) + "," + kAddOf("x:0", "x:one");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1005: 'g.json': node 'add' (Add): input 1 'x:one' has an output index that is not an "
        "integer. Write it as 'node:index' with a decimal index.");
  // Huge index on a node without output_desc: refused, no huge allocation.
  ops = DataOp("x", "1", 0) + "," + R"({"name": "n", "type": "N", "input": ["x:0"]},)" +
        kAddOf("n:0", "n:99999999999");
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1005: 'g.json': node 'add' (Add): input 1 ('n:99999999999') uses output 99999999999 "
        "of node 'n' (N), which is beyond the supported 65536 outputs. Use an output index below "
        "the producer's output count.");
}

TEST_CASE("frontend_error_names_and_types", "[frontend]") {
  std::string ops = DataOp("x", "1", 0) + "," + DataOp("x", "1", 1);
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) ==
        "OA1002: 'g.json': node 'x' (Data): the node name is used twice (nodes #0 and #1). Node "
        "names must be unique within a graph; rename one of them.");
  CHECK(ErrorOf(Model(R"({"type": "Data"})")) ==
        "OA1002: 'g.json': node #0 (op Data) has an empty name. Give every node a unique "
        "non-empty name.");
  CHECK(ErrorOf(Model(R"({"name": "n"})")) ==
        "OA1003: 'g.json': node 'n': the node has an empty op type. Set 'type' to the op type "
        "(e.g. \"Data\", \"AddCustom\").");
  CHECK(ErrorOf(R"({"name": "m"})") ==
        "OA1001: 'g.json': the model has no graph. A GE IR file needs graph[0], the root graph.");
  CHECK(ErrorOf(R"({"graph": [{"name": "main"}]})") ==
        "OA1001: 'g.json': graph 'main' has no nodes. Add at least one Data node and the ops "
        "that consume it.");
}

TEST_CASE("frontend_error_cycle", "[frontend]") {
  std::string ops = DataOp("x", "1", 0) + "," +
                    R"({"name": "a", "type": "A", "input": ["x:0", "c:0"]},)"
                    R"({"name": "b", "type": "B", "input": ["a:0"]},)"
                    R"({"name": "c", "type": "C", "input": ["b:0"]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["c:0"],)")) ==
        "OA1006: 'g.json': node 'a' (A): the node is on a cycle: a -> b -> c -> a. Break the "
        "cycle; a GE graph must be acyclic.");
  // A control-edge self loop is a cycle too.
  ops = DataOp("x", "1", 0) + "," + R"({"name": "a", "type": "A", "input": ["x:0", "a:-1"]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["a:0"],)")) ==
        "OA1006: 'g.json': node 'a' (A): the node is on a cycle: a -> a. Break the cycle; a GE "
        "graph must be acyclic.");
}

TEST_CASE("frontend_error_desc_mismatch", "[frontend]") {
  std::string ops = DataOp("x", "\"4\"", 0) + "," +
                    R"({"name": "add", "type": "Add", "input": ["x:0"],
                        "inputDesc": [{"dtype": "DT_FLOAT16", "shape": {"dim": [4]}}]})";
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1007: 'g.json': node 'add' (Add): input 0 comes from output 0 of node 'x' (Data), "
        "which is DT_FLOAT, but the input desc says DT_FLOAT16. Make the input_desc dtype equal "
        "to the producer's output_desc dtype.");
  ops = DataOp("x", "\"4\"", 0) + "," +
        R"({"name": "add", "type": "Add", "input": ["x:0"],
            "inputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": [2, 2]}}]})";
  CHECK(ErrorOf(Model(ops, kOut)) ==
        "OA1008: 'g.json': node 'add' (Add): input 0 comes from output 0 of node 'x' (Data), "
        "which has shape [4], but the input desc says [2, 2]. Make the input_desc shape equal to "
        "the producer's output_desc shape.");
  // Unknown dims are not compared.
  ops = DataOp("x", "\"4\"", 0) + "," +
        R"({"name": "add", "type": "Add", "input": ["x:0"],
            "inputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": [-1]}}]})";
  CHECK(ErrorOf(Model(ops, kOut)) == "");
}

TEST_CASE("frontend_error_const", "[frontend]") {
  // 2 x int32 needs 8 bytes; data has 3 ("AAEC").
  std::string c = R"({"name": "w", "type": "Const", "attr": {"value": {"t": {
      "desc": {"dtype": "DT_INT32", "shape": {"dim": ["2"]}}, "data": "AAEC"}}}})";
  CHECK(ErrorOf(Model(c, R"("output": ["w:0"],)")) ==
        "OA1011: 'g.json': node 'w' (Const): attr 'value' holds 3 bytes, but its DT_INT32 shape "
        "[2] needs 2 x 4 bytes. Make the data size equal to element count x element size.");
  CHECK(ErrorOf(Model(R"({"name": "w", "type": "Constant", "attr": {"value": {"i": 1}}})",
                      R"("output": ["w:0"],)")) ==
        "OA1011: 'g.json': node 'w' (Constant): the constant has no tensor attr 'value'. Give it "
        "attr \"value\": {\"t\": {\"desc\": ..., \"data\": base64}}.");
}

TEST_CASE("frontend_error_outputs", "[frontend]") {
  CHECK(ErrorOf(Model(DataOp("x", "1", 0))) ==
        "OA1012: 'g.json': the graph has no outputs. Add a NetOutput node or list the outputs in "
        "graph.output (\"node:index\").");
  std::string ops = DataOp("x", "1", 0) + "," +
                    R"({"name": "o1", "type": "NetOutput", "input": ["x:0"]},)"
                    R"({"name": "o2", "type": "NetOutput", "input": ["x:0"]})";
  CHECK(ErrorOf(Model(ops)) ==
        "OA1012: 'g.json': node 'o2' (NetOutput): the graph has a second NetOutput node (the "
        "first is 'o1'). Keep exactly one NetOutput node; its inputs are the model outputs.");
  ops = DataOp("x", "1", 0) + "," + DataOp("y", "1", 1) + "," +
        R"({"name": "o", "type": "NetOutput", "input": ["x:0"]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["y:0"],)")) ==
        "OA1012: 'g.json': node 'o' (NetOutput): GraphDef.output (1 entries) does not match the "
        "NetOutput node's inputs (1 entries, in order). Make graph.output list the NetOutput "
        "inputs in the same order, or drop graph.output.");
  // Agreeing GraphDef.output is fine.
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) == "");
}

TEST_CASE("frontend_error_attrs_and_descs", "[frontend]") {
  std::string ops = DataOp("x", "1", 0) + "," +
                    R"({"name": "n", "type": "N", "input": ["x:0"],
                        "attr": {"fn": {"func": {"name": "f"}}}})";
  CHECK(ErrorOf(Model(ops, R"("output": ["n:0"],)")) ==
        "OA1009: 'g.json': node 'n' (N): attribute kind not supported: attr 'fn' is a func "
        "(NamedAttrs). Supported kinds are s, i, f, b, bt, dt, t, list (s/i/f/b/dt) and "
        "list_list_int; remove the attr or express it with one of these.");
  ops = R"({"name": "x", "type": "Data", "outputDesc": [{"dtype": 99}]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) ==
        "OA1010: 'g.json': node 'x' (Data): output_desc 0 has an unknown dtype number 99. Use a "
        "ge.proto DataType name such as \"DT_FLOAT\".");
  ops = R"({"name": "x", "type": "Data", "outputDesc": [{"dtype": 1, "layout": "NCWH"}]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) ==
        "OA1010: 'g.json': node 'x' (Data): output_desc 0 has an unknown layout 'NCWH'. Use a GE "
        "format serial name such as \"ND\" or \"NCHW\".");
  ops = R"({"name": "x", "type": "Data", "outputDesc": [{"dtype": 1, "shape": {"dim": [2, -3]}}]})";
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) ==
        "OA1010: 'g.json': node 'x' (Data): output_desc 0 has an invalid shape [2, -3] (dim 1). "
        "Dims must be >= 0, -1 for an unknown dim, or a single -2 for unknown rank.");
  ops = R"({"name": "x", "type": "Data", "attr": {"index": {"s": "MA=="}}})";
  CHECK(ErrorOf(Model(ops, R"("output": ["x:0"],)")) ==
        "OA1013: 'g.json': node 'x' (Data): attr 'index' of the Data node is not an int. Set "
        "\"index\": {\"i\": \"<position in the model inputs>\"}.");
}

TEST_CASE("frontend_error_parse_failures", "[frontend]") {
  CHECK(ErrorOf("{\n  \"name\": x}") ==
        "E10041: 'g.json': the JSON graph does not parse: Unexpected token (at line 2, column "
        "11). Fix the JSON (the proto3 JSON mapping of ge.proto.ModelDef in schemas/ge_ir.proto; README.md, "
        "\"Graph files\", points at an example).");
  CHECK(ErrorOf("{\"name\": \"a\",\n  \"version\": ") ==
        "E10041: 'g.json': the JSON graph does not parse: Unexpected end of string. Expected a "
        "value (at line 2, column 14, the end of the input). Fix the JSON (the proto3 JSON mapping "
        "of ge.proto.ModelDef in schemas/ge_ir.proto; README.md, \"Graph files\", points at an example).");
  CHECK(ErrorOf(R"({"graph": [{"op": [{"name": "a", "bogusField": 3}]}]})") ==
        "E10041: 'g.json': the JSON graph does not parse: (graph[0].op[0]) bogusField: Cannot "
        "find field. Fix the JSON (the proto3 JSON mapping of ge.proto.ModelDef "
        "in schemas/ge_ir.proto; README.md, \"Graph files\", points at an example).");
  CHECK(ErrorOf("graph {\n  name: \"g\"\n  nodes: 3\n}", GeIrEncoding::kText) ==
        "E10041: 'g.json': the text graph does not parse: line 3, column 8: Message type "
        "\"openatc.geir.GraphDef\" has no field named \"nodes\". Fix the protobuf text dump of "
        "ge.proto.ModelDef.");
  CHECK(ErrorOf(std::string("\x0a\x05\x61", 3), GeIrEncoding::kBinary) ==
        "E10041: 'g.json': the file is not a valid binary ge.proto.ModelDef (AIR); protobuf "
        "could not decode its 3 bytes. Check that the file is a GE IR graph (ge.proto.ModelDef) "
        "in binary AIR, JSON or text form.");
}
