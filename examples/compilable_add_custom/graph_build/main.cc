// graph_build for compilable_add_custom: builds GraphBuildGraph1 with GE's graph API
// (add1 = AddCustom(data, data), add2 = AddCustom(add1, data), fp32 [4,4]) and writes it as AIR
// with Graph::SaveToFile, the file `atc --model <air> --framework=1` compiles.
//   compilable_add_graph_build [out.air]      (default: ./single_add.air, as GE's program writes)
#include <cstdio>
#include <vector>

#include "add_custom.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "ops_proto_legacy.h"

namespace {
ge::graphStatus BuildSingleAdd(ge::Graph &graph, const char *path) {
  const ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{4, 4}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto data = ge::op::Data("data");
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  auto add1 = ge::op::AddCustom("add1").set_input_x1(data).set_input_x2(data);
  auto add2 = ge::op::AddCustom("add2").set_input_x1(add1).set_input_x2(data);
  std::vector<ge::Operator> inputs{data};
  std::vector<ge::Operator> outputs{add2};
  graph.SetInputs(inputs).SetOutputs(outputs);
  return graph.SaveToFile(path);
}
}  // namespace

int main(int argc, char *argv[]) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [out.air]\n", argv[0]);
    return 2;
  }
  const char *path = argc == 2 ? argv[1] : "./single_add.air";
  ge::Graph graph("GraphBuildGraph1");
  if (BuildSingleAdd(graph, path) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "[ERROR] graph_build: cannot write %s\n", path);
    return 1;
  }
  std::printf("[INFO] graph_build: GraphBuildGraph1 written to %s\n", path);
  return 0;
}
