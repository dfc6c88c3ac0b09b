// Graph building as the compilable_add_custom sample's graph_build does
// (docs/custom-op-lifecycle.md §11), the internal graph view, Shape/TensorDesc/Tensor, and their
// error paths.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/operator_reg.h"
#include "graph/tensor.h"
#include "openatc/register/graph_view.h"
#include "ops_proto_legacy.h"

namespace ge {
REG_OP(GraphAdd)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(GraphAdd);
}  // namespace ge

namespace {
using openatc::reg::LastSdkError;
bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("sdk_graph: sample-style graph build and view", "[graph]") {
  using namespace ge;
  std::vector<int64_t> shape_vec = {4, 4};
  TensorDesc desc(Shape(shape_vec), FORMAT_ND, DT_FLOAT);
  auto data = op::Data("data");
  CHECK(data.update_input_desc_x(desc) == GRAPH_SUCCESS);
  CHECK(data.update_output_desc_y(desc) == GRAPH_SUCCESS);
  auto add1 = op::GraphAdd("add1").set_input_x1(data).set_input_x2(data);
  auto add2 = op::GraphAdd("add2").set_input_x1(add1).set_input_x2(data);
  std::vector<Operator> inputs{data};
  std::vector<Operator> outputs{add2};
  Graph graph1("GraphBuildGraph1");
  graph1.SetInputs(inputs).SetOutputs(outputs);
  CHECK(graph1.IsValid());
  CHECK(graph1.GetOpCount() == 3U);

  const openatc::reg::GraphView v = openatc::reg::ViewGraph(graph1);
  CHECK(v.name == "GraphBuildGraph1");
  REQUIRE(v.nodes.size() == 3U);
  CHECK(v.nodes[0].name == "data");
  CHECK(v.nodes[0].type == "Data");
  CHECK(v.nodes[1].name == "add1");
  CHECK(v.nodes[2].name == "add2");
  CHECK(v.inputs == std::vector<size_t>{0});
  CHECK(v.outputs == std::vector<std::pair<size_t, uint32_t>>{{2, 0}});
  CHECK(v.nodes[2].inputs[0].src_node == 1);
  CHECK(v.nodes[2].inputs[1].src_node == 0);
  CHECK(v.nodes[1].inputs[0].src_node == 0);
  CHECK(v.nodes[1].inputs[1].src_output == 0U);
  CHECK(v.nodes[0].inputs[0].src_node == -1);
  CHECK(v.nodes[0].outputs[0].desc_set);
  CHECK(v.nodes[0].outputs[0].desc.GetShape().GetDims() == shape_vec);
  CHECK_FALSE(v.nodes[1].outputs[0].desc_set);
  REQUIRE(v.nodes[0].attrs.size() == 1U);
  CHECK(v.nodes[0].attrs[0].first == "index");
  CHECK(std::get<int64_t>(v.nodes[0].attrs[0].second) == 0);
}

TEST_CASE("sdk_graph: graph and edge error paths", "[graph]") {
  using namespace ge;
  Graph unnamed;
  unnamed.SetInputs({});
  CHECK(Contains(LastSdkError(), "Graph::SetInputs: the graph has no name (default-constructed)"));
  AscendString name;
  CHECK(unnamed.GetName(name) == GRAPH_FAILED);
  CHECK(unnamed.GetOpCount() == 0U);

  auto data = op::Data("data");
  Graph g("g");
  g.SetOutputs({{data, {0, 5}}});
  CHECK(Contains(LastSdkError(), "node 'data' has 1 outputs, so output index 5 is skipped"));
  CHECK(openatc::reg::ViewGraph(g).outputs.size() == 1U);
  g.SetInputs({Operator()});
  CHECK(Contains(LastSdkError(), "Graph::SetInputs: operator 0 of the list is empty"));

  auto add = op::GraphAdd("add");
  Operator empty;
  add.set_input_x1(empty);
  CHECK(Contains(LastSdkError(), "Operator::SetInput (source): the operator is empty"));
  add.SetInput("zz", data);
  CHECK(Contains(LastSdkError(), "node 'add' (op type GraphAdd) has no input named 'zz'"));
  add.set_input_x1(data, 3);
  CHECK(Contains(LastSdkError(), "node 'data' (op type Data) has 1 outputs, so output 3 cannot feed input 'x1'"));
  add.set_input_x1_by_name(data, "nope");
  CHECK(Contains(LastSdkError(), "node 'data' (op type Data) has no output named 'nope'"));
  add.set_input_x1(add);
  CHECK(Contains(LastSdkError(), "cannot take its own output as input 'x1'"));
  CHECK(add.UpdateInputDesc("zz", TensorDesc()) == GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "Operator::UpdateInputDesc: node 'add' (op type GraphAdd) has no input named 'zz'"));
  CHECK(add.GetInputDesc(9).GetDataType() == DT_FLOAT);
  CHECK(Contains(LastSdkError(), "Operator::GetInputDesc: index 9 is out of range; node 'add' (op type GraphAdd) has 2 inputs"));
  CHECK(empty.GetName(name) == GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "Operator::GetName: the operator is empty"));
  add.set_input_x1_by_name(data, "y");
  CHECK(openatc::reg::ViewGraph(Graph("h").SetOutputs({add})).nodes.size() == 2U);

  // A cycle is reported by the view; then the loop is broken so the nodes can be freed.
  auto p = op::GraphAdd("p");
  auto q = op::GraphAdd("q");
  p.set_input_x1(q);
  q.set_input_x1(p);
  Graph cyc("cyc");
  cyc.SetOutputs({q});
  CHECK_THROWS_WITH(openatc::reg::ViewGraph(cyc), Catch::Contains("the graph has a cycle through node"));
  CHECK(cyc.GetOpCount() == 0U);
  p.set_input_x1(data);
  CHECK(cyc.GetOpCount() == 3U);
}

TEST_CASE("sdk_graph: Shape, TensorDesc, Tensor", "[graph]") {
  using namespace ge;
  Shape s({2, 3});
  CHECK(s.GetDimNum() == 2U);
  CHECK(s.GetShapeSize() == 6);
  CHECK(s.GetDim(5) == 0);
  CHECK(s.SetDim(1, 4) == GRAPH_SUCCESS);
  CHECK(s.GetDims() == std::vector<int64_t>{2, 4});
  CHECK(s.SetDim(2, 1) == GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "Shape::SetDim: index 2 is out of range for a rank-2 shape"));
  CHECK(Shape().GetShapeSize() == 0);
  CHECK(Shape({2, -1}).GetShapeSize() == -1);
  CHECK(Shape({0, 5}).GetShapeSize() == 0);
  CHECK(Shape({INT64_MAX, 2}).GetShapeSize() == -1);
  Shape u({3, 3});
  u.SetUnknownDimNum();
  CHECK(u.GetDims() == std::vector<int64_t>{-1, -1});

  TensorDesc d(Shape({2}), FORMAT_NCHW, DT_INT32);
  TensorDesc copy = d;
  copy.SetDataType(DT_INT8);
  CHECK(d.GetDataType() == DT_INT32);  // deep copy
  CHECK(d.GetOriginFormat() == FORMAT_NCHW);
  d.SetName("in0");
  AscendString name;
  CHECK(d.GetName(name) == GRAPH_SUCCESS);
  CHECK(name == "in0");
  CHECK(d.GetRealDimCnt() == 1);

  Tensor t(d);
  const int32_t values[2] = {7, 9};
  CHECK(t.SetData(reinterpret_cast<const uint8_t *>(values), sizeof(values)) == GRAPH_SUCCESS);
  CHECK(t.GetSize() == 8U);
  CHECK(t.IsValid() == GRAPH_SUCCESS);
  Tensor shared = t;
  Tensor cloned = t.Clone();
  reinterpret_cast<int32_t *>(t.GetData())[0] = 1;
  CHECK(reinterpret_cast<const int32_t *>(shared.GetData())[0] == 1);  // copies share data
  CHECK(reinterpret_cast<const int32_t *>(cloned.GetData())[0] == 7);
  CHECK(t.GetTensorDesc().GetShape().GetDims() == std::vector<int64_t>{2});
  CHECK(t.SetData(nullptr, 4) == GRAPH_PARAM_INVALID);
  CHECK(Contains(LastSdkError(), "Tensor::SetData: data is null but size is 4 bytes"));
  CHECK(t.SetData(std::vector<uint8_t>{1, 2, 3}) == GRAPH_SUCCESS);
  CHECK(t.IsValid() == GRAPH_FAILED);
  CHECK(Tensor().GetData() == nullptr);
}
