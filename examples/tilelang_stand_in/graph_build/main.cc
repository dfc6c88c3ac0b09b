// The TileLang offline flow's graph program (flow C, examples/tilelang_stand_in): builds
// x, y -> AddCustomOffline for N floats with GE's graph API and saves it as AIR for atc, whose
// compile runs the op's Compile (the producer) and Serialize (the kernel into the OM).
//   tilelang_graph_build <out.air> [N]     N = 4096 by default
#include <cstdio>
#include <cstdlib>

#include "add_custom.h"
#include "graph.h"
#include "ops_proto_legacy.h"
#include "types.h"

int main(int argc, char **argv) {
  const int64_t n = argc > 2 ? std::atoll(argv[2]) : 4096;
  if (argc < 2 || n <= 0) {
    std::printf("usage: %s <out.air> [N > 0]\n", argv[0]);
    return 2;
  }
  ge::TensorDesc desc(ge::Shape({n}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto x = ge::op::Data("data_x");
  x.set_attr_index(0);
  x.update_input_desc_x(desc);
  x.update_output_desc_y(desc);
  auto y = ge::op::Data("data_y");
  y.set_attr_index(1);
  y.update_input_desc_x(desc);
  y.update_output_desc_y(desc);
  auto add = ge::op::AddCustomOffline("add").set_input_x(x).set_input_y(y);
  ge::Graph graph("tilelang_stand_in_offline_graph");
  graph.SetInputs({x, y}).SetOutputs({add});
  if (graph.SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::printf("[ERROR] saving the AIR file %s failed\n", argv[1]);
    return 1;
  }
  std::printf("AIR file saved to: %s\n", argv[1]);
  return 0;
}
