// Tests of the GE IR reader's conversion: the docs/ge-ir.md §5 example, Data renumbering, NetOutput
// completion, Const tensors, attr kinds, edge spellings and JSON number/enum spellings.
#include <catch2/catch.hpp>

#include <cstring>

#include "openatc/common/dtype.h"
#include "test_graphs.h"

using namespace openatc;
using frontend::GeIrEncoding;
using frontend::ReadGeIrString;
using frontend_test::DataOp;
using frontend_test::ErrorOf;
using frontend_test::Model;

TEST_CASE("frontend_example_single_add", "[frontend]") {
  ir::Graph g = ReadGeIrString(frontend_test::kSingleAddJson, GeIrEncoding::kJson, "a.json");
  CHECK(g.name == "single_add");
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[0].name == "x1");
  CHECK(g.nodes[0].type == "Data");
  CHECK(g.nodes[1].name == "x2");
  CHECK(g.nodes[2].name == "add");
  CHECK(g.nodes[2].type == "AddCustom");
  CHECK(g.nodes[3].name == "Node_Output");
  CHECK(g.nodes[3].type == "NetOutput");
  CHECK(g.inputs == std::vector<int32_t>{0, 1});
  REQUIRE(g.outputs.size() == 1);
  CHECK(g.outputs[0] == ir::Endpoint{2, 0});

  // Data: one unconnected input with its desc, index attr kept.
  const ir::Node &x1 = g.nodes[0];
  REQUIRE(x1.inputs.size() == 1);
  CHECK_FALSE(x1.inputs[0].connected());
  REQUIRE(x1.input_descs.size() == 1);
  CHECK(x1.input_descs[0].valid);
  CHECK(x1.input_descs[0].dtype == ge::DT_FLOAT);
  CHECK(x1.attrs.at("index").kind == ir::AttrKind::kInt);
  CHECK(x1.attrs.at("index").i == 0);
  CHECK(g.nodes[1].attrs.at("index").i == 1);

  const ir::Node &add = g.nodes[2];
  REQUIRE(add.inputs.size() == 2);
  CHECK(add.inputs[0] == ir::Endpoint{0, 0});
  CHECK(add.inputs[1] == ir::Endpoint{1, 0});
  CHECK(add.control_inputs.empty());
  REQUIRE(add.input_descs.size() == 2);
  CHECK(add.input_descs[0].name == "x1");
  CHECK(add.input_descs[1].name == "x2");
  REQUIRE(add.output_descs.size() == 1);
  const ir::TensorDesc &y = add.output_descs[0];
  CHECK(y.name == "y");
  CHECK(y.dtype == ge::DT_FLOAT);  // proto 1 -> C++ 0
  CHECK(static_cast<int>(y.dtype) == 0);
  CHECK(y.format == ge::FORMAT_ND);
  CHECK(y.origin_format == ge::FORMAT_ND);
  CHECK(y.shape == std::vector<int64_t>{4, 4});
  CHECK(y.origin_shape == std::vector<int64_t>{4, 4});
  CHECK(y.valid);

  // Serializer attrs: list.s are base64-decoded bytes, list.i ints.
  REQUIRE(add.attrs.size() == 4);
  CHECK(add.attrs.at("_input_name_key").kind == ir::AttrKind::kListString);
  CHECK(add.attrs.at("_input_name_key").list_s == std::vector<std::string>{"x1", "x2"});
  CHECK(add.attrs.at("_input_name_value").kind == ir::AttrKind::kListInt);
  CHECK(add.attrs.at("_input_name_value").list_i == std::vector<int64_t>{0, 1});
  CHECK(add.attrs.at("_output_name_key").list_s == std::vector<std::string>{"y"});
  CHECK(add.attrs.at("_output_name_value").list_i == std::vector<int64_t>{0});

  const ir::Node &net = g.nodes[3];
  CHECK(net.inputs == std::vector<ir::Endpoint>{{2, 0}});
  CHECK(net.output_descs.empty());
  REQUIRE(net.input_descs.size() == 1);
  CHECK(net.input_descs[0].shape == std::vector<int64_t>{4, 4});
}

TEST_CASE("frontend_data_renumbering", "[frontend]") {
  // Both Data nodes keep the default index 0 (the annotated offline sample): renumber 0, 1.
  std::string json = Model(DataOp("b", "\"2\"", 0) + "," + DataOp("a", "\"2\"", 0) + "," +
                               R"({"name": "add", "type": "Add", "input": ["b:0", "a:0"]})",
                           R"("output": ["add:0"],)");
  ir::Graph g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  CHECK(g.nodes[0].attrs.at("index").i == 0);
  CHECK(g.nodes[1].attrs.at("index").i == 1);
  CHECK(g.inputs == std::vector<int32_t>{0, 1});

  // A valid permutation is kept: inputs ordered by index.
  json = Model(DataOp("b", "\"2\"", 1) + "," + DataOp("a", "\"2\"", 0) + "," +
                   R"({"name": "add", "type": "Add", "input": ["b:0", "a:0"]})",
               R"("output": ["add:0"],)");
  g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  CHECK(g.nodes[0].attrs.at("index").i == 1);
  CHECK(g.nodes[1].attrs.at("index").i == 0);
  CHECK(g.inputs == std::vector<int32_t>{1, 0});

  // Missing attr on one node and a gap: everything renumbered in node order, attr written.
  json = Model(DataOp("b", "\"2\"") + "," + DataOp("a", "\"2\"", 5) + "," +
                   R"({"name": "add", "type": "Add", "input": ["b:0", "a:0"]})",
               R"("output": ["add:0"],)");
  g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  CHECK(g.nodes[0].attrs.at("index").kind == ir::AttrKind::kInt);
  CHECK(g.nodes[0].attrs.at("index").i == 0);
  CHECK(g.nodes[1].attrs.at("index").i == 1);
  CHECK(g.inputs == std::vector<int32_t>{0, 1});
}

TEST_CASE("frontend_netoutput_from_graph_output", "[frontend]") {
  // No NetOutput; outputs from GraphDef.output; the producer has no output_desc, so its output
  // count comes from the highest index used (1) and descs are default.
  std::string json = Model(DataOp("x", "\"3\"", 0) + "," +
                               R"({"name": "split", "type": "Split2", "input": ["x:0"]})",
                           R"("output": ["split:1", "x:0"],)");
  ir::Graph g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  REQUIRE(g.nodes.size() == 3);
  const ir::Node &net = g.nodes[2];
  CHECK(net.name == "Node_Output");
  CHECK(net.type == "NetOutput");
  CHECK(net.inputs == std::vector<ir::Endpoint>{{1, 1}, {0, 0}});
  CHECK(g.outputs == std::vector<ir::Endpoint>{{1, 1}, {0, 0}});
  CHECK(g.nodes[1].output_descs.size() == 2);
  CHECK(g.nodes[1].output_descs[1].dtype == ge::DT_UNDEFINED);
  REQUIRE(net.input_descs.size() == 2);
  CHECK(net.input_descs[1].dtype == ge::DT_FLOAT);
  CHECK(net.input_descs[1].shape == std::vector<int64_t>{3});
  // Split2's input desc is derived from the producer's output desc.
  CHECK(g.nodes[1].input_descs[0].shape == std::vector<int64_t>{3});

  // A user node already named Node_Output gets a suffixed NetOutput name.
  json = Model(DataOp("Node_Output", "\"3\"", 0), R"("output": ["Node_Output:0"],)");
  g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[1].name == "Node_Output_1");
  CHECK(g.nodes[1].type == "NetOutput");
}

TEST_CASE("frontend_edges_control_and_unconnected", "[frontend]") {
  std::string json = Model(
      DataOp("x", "\"2\"", 0) + "," + DataOp("y", "\"2\"", 1) + "," +
      R"({"name": "op", "type": "Opt", "input": ["x:0", "", "y:-1", "^x", "a:b:0"]},)"
      R"({"name": "a:b", "type": "Colon", "input": ["y:0"]},)"
      R"({"name": "out", "type": "NetOutput", "input": ["op:0"]})");
  ir::Graph g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  const ir::Node &op = g.nodes[2];
  REQUIRE(op.inputs.size() == 3);
  CHECK(op.inputs[0] == ir::Endpoint{0, 0});
  CHECK_FALSE(op.inputs[1].connected());
  CHECK(op.inputs[2] == ir::Endpoint{3, 0});  // split at the LAST ':'
  CHECK(op.control_inputs == std::vector<int32_t>{1, 0});
  REQUIRE(op.input_descs.size() == 3);
  CHECK(op.input_descs[0].valid);
  CHECK_FALSE(op.input_descs[1].valid);  // absent optional input
  CHECK(op.input_descs[0].dtype == ge::DT_FLOAT);
  CHECK(g.outputs == std::vector<ir::Endpoint>{{2, 0}});
}

TEST_CASE("frontend_const_and_attr_kinds", "[frontend]") {
  // Const: 2 x int32 {7, -1} = base64 of 07000000 ffffffff = "BwAAAP////8=".
  std::string json = Model(
      R"({"name": "c", "type": "Const", "attr": {"value": {"t": {
           "desc": {"dtype": "DT_INT32", "shape": {"dim": ["2"]}, "layout": "ND"},
           "data": "BwAAAP////8="}}}},)"
      R"({"name": "op", "type": "Custom", "input": ["c:0"], "attr": {
           "s": {"s": "aGk="}, "i": {"i": "-5"}, "f": {"f": 1.5}, "b": {"b": true},
           "bt": {"bt": "AAEC"}, "dt": {"dt": "9"},
           "ls": {"list": {"s": ["YQ==", "YmM="]}}, "lf": {"list": {"f": [0.5, 2]}},
           "lb": {"list": {"b": [true, false], "valType": "VT_LIST_BOOL"}},
           "ldt": {"list": {"dt": ["0", "1"], "valType": "VT_LIST_DATA_TYPE"}},
           "empty": {"list": {"valType": "VT_LIST_FLOAT"}},
           "lli": {"listListInt": {"listListI": [{"listI": ["1", "2"]}, {}]}},
           "_internal_graph": {"g": {"name": "sub"}}}})",
      R"("output": ["op:0"],)");
  ir::Graph g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  const ir::Node &c = g.nodes[0];
  REQUIRE(c.output_descs.size() == 1);
  CHECK(c.output_descs[0].dtype == ge::DT_INT32);
  CHECK(c.output_descs[0].shape == std::vector<int64_t>{2});
  const ir::AttrValue &v = c.attrs.at("value");
  REQUIRE(v.kind == ir::AttrKind::kTensor);
  REQUIRE(v.t->data.size == 8);
  int32_t vals[2];
  std::memcpy(vals, v.t->data.data, 8);
  CHECK(vals[0] == 7);
  CHECK(vals[1] == -1);

  const auto &a = g.nodes[1].attrs;
  CHECK(a.count("_internal_graph") == 0);  // internal attr of an unsupported kind: dropped
  CHECK(a.at("s").kind == ir::AttrKind::kString);
  CHECK(a.at("s").s == "hi");
  CHECK(a.at("i").i == -5);
  CHECK(a.at("f").f == 1.5f);
  CHECK(a.at("b").kind == ir::AttrKind::kBool);
  CHECK(a.at("b").b);
  CHECK(a.at("bt").kind == ir::AttrKind::kBytes);
  CHECK(a.at("bt").s == std::string("\x00\x01\x02", 3));
  CHECK(a.at("dt").kind == ir::AttrKind::kDataType);
  CHECK(a.at("dt").dt == ge::DT_INT64);  // C++ value 9
  CHECK(a.at("ls").kind == ir::AttrKind::kListString);  // inferred without valType
  CHECK(a.at("ls").list_s == std::vector<std::string>{"a", "bc"});
  CHECK(a.at("lf").kind == ir::AttrKind::kListFloat);
  CHECK(a.at("lf").list_f == std::vector<float>{0.5f, 2.0f});
  CHECK(a.at("lb").list_b == std::vector<uint8_t>{1, 0});
  CHECK(a.at("ldt").kind == ir::AttrKind::kListDataType);
  CHECK(a.at("ldt").list_i == std::vector<int64_t>{0, 1});
  CHECK(a.at("empty").kind == ir::AttrKind::kListFloat);
  CHECK(a.at("empty").list_f.empty());
  CHECK(a.at("lli").kind == ir::AttrKind::kListListInt);
  CHECK(a.at("lli").list_list_i == std::vector<std::vector<int64_t>>{{1, 2}, {}});
}

TEST_CASE("frontend_tensor_desc_formats", "[frontend]") {
  // format_for_int wins over layout; origin_format_for_int over origin_format; origin_shape.
  std::string json = Model(
      R"({"name": "x", "type": "Data", "input": [""], "attr": {"index": {"i": 0}},
          "outputDesc": [{"dtype": "DT_FLOAT16", "shape": {"dim": [1, 16, 4, 4]}, "layout": "NCHW",
            "attr": {"format_for_int": {"i": 1}, "origin_format_for_int": {"i": 0},
                     "origin_format": {"s": "TkQ="}, "origin_shape": {"list": {"i": [1, 4, 4, 16],
                     "valType": "VT_LIST_INT"}}}}]},)"
      R"({"name": "y", "type": "Data", "input": [""],
          "outputDesc": [{"dtype": "DT_BF16", "shape": {"dim": []}, "layout": "NHWC",
            "attr": {"origin_format": {"s": "TkQ="}}}]})",
      R"("output": ["x:0", "y:0"],)");
  ir::Graph g = ReadGeIrString(json, GeIrEncoding::kJson, "g.json");
  const ir::TensorDesc &x = g.nodes[0].output_descs[0];
  CHECK(x.dtype == ge::DT_FLOAT16);
  CHECK(x.format == ge::FORMAT_NHWC);
  CHECK(x.origin_format == ge::FORMAT_NCHW);
  CHECK(x.shape == std::vector<int64_t>{1, 16, 4, 4});
  CHECK(x.origin_shape == std::vector<int64_t>{1, 4, 4, 16});
  const ir::TensorDesc &y = g.nodes[1].output_descs[0];
  CHECK(y.dtype == ge::DT_BF16);
  CHECK(y.format == ge::FORMAT_NHWC);
  CHECK(y.origin_format == ge::FORMAT_ND);  // origin_format "ND" (base64 "TkQ=")
  CHECK(y.shape.empty());
  CHECK(y.origin_shape.empty());
}

TEST_CASE("frontend_json_number_spellings", "[frontend]") {
  // int64 as JSON numbers instead of strings, enums as numbers (proto DT_FLOAT = 1), snake_case.
  std::string json = R"({"graph": [{"name": "g", "output": ["x:0"], "op": [
      {"name": "x", "type": "Data", "input": [""], "attr": {"index": {"i": 0}},
       "input_desc": [{"dtype": 1, "shape": {"dim": [4, 4]}, "layout": "ND"}],
       "output_desc": [{"dtype": 1, "shape": {"dim": [4, 4]}, "layout": "ND"}]}]}]})";
  std::string json_strings = R"({"graph": [{"name": "g", "output": ["x:0"], "op": [
      {"name": "x", "type": "Data", "input": [""], "attr": {"index": {"i": "0"}},
       "inputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": ["4", "4"]}, "layout": "ND"}],
       "outputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": ["4", "4"]}, "layout": "ND"}]}]}]})";
  for (const std::string &j : {json, json_strings}) {
    ir::Graph g = ReadGeIrString(j, GeIrEncoding::kJson, "g.json");
    REQUIRE(g.nodes.size() == 2);
    CHECK(g.nodes[0].output_descs[0].dtype == ge::DT_FLOAT);
    CHECK(g.nodes[0].output_descs[0].shape == std::vector<int64_t>{4, 4});
    CHECK(g.nodes[0].input_descs[0].shape == std::vector<int64_t>{4, 4});
    CHECK(g.nodes[0].attrs.at("index").i == 0);
  }
  // Proto DT_INT32 is 7 on the wire but C++ 3; DT_INT64 is 8 / C++ 9.
  std::string j2 = Model(R"({"name": "x", "type": "Data", "input": [""],
      "outputDesc": [{"dtype": 7}]}, {"name": "z", "type": "Data", "input": [""],
      "outputDesc": [{"dtype": "DT_INT64"}]})", R"("output": ["x:0", "z:0"],)");
  ir::Graph g = ReadGeIrString(j2, GeIrEncoding::kJson, "g.json");
  CHECK(g.nodes[0].output_descs[0].dtype == ge::DT_INT32);
  CHECK(static_cast<int>(g.nodes[0].output_descs[0].dtype) == 3);
  CHECK(static_cast<int>(g.nodes[1].output_descs[0].dtype) == 9);
}
