// Builds x, y -> AxpbCustom -> z with GE's graph API (op::Data from ops_proto_legacy.h, the
// prototype from axpb_custom.h), runs it once with ge::Session::RunGraph and prints z on one
// line: "z = v0 v1 ...". Include spellings as GE's session_run programs use them (bare
// "ge_api.h", "graph.h", "tensor.h", "types.h", "ops_proto_legacy.h"). Exit 0 on success.
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "axpb_custom.h"
#include "ge_api.h"
#include "graph.h"
#include "ops_proto_legacy.h"
#include "tensor.h"
#include "types.h"

namespace {
ge::TensorDesc Desc() { return ge::TensorDesc(ge::Shape({2, 3}), ge::FORMAT_ND, ge::DT_FLOAT); }

ge::op::Data Input(const char *name, int64_t index) {
  ge::op::Data data(name);
  data.set_attr_index(index);
  data.update_input_desc_x(Desc());
  data.update_output_desc_y(Desc());
  return data;
}

ge::Tensor Floats(const std::vector<float> &v) {
  return ge::Tensor(Desc(), reinterpret_cast<const uint8_t *>(v.data()), v.size() * sizeof(float));
}

int Run() {
  auto x = Input("x", 0);
  auto y = Input("y", 1);
  ge::op::AxpbCustom axpb("axpb");
  axpb.set_input_x(x).set_input_y(y);
  ge::Graph graph("ge_shaped");
  graph.SetInputs({x, y}).SetOutputs({axpb});

  ge::Session session(std::map<ge::AscendString, ge::AscendString>{});
  std::vector<ge::Tensor> outputs;
  if (session.AddGraph(1, graph) != ge::SUCCESS ||
      session.RunGraph(1, {Floats({1, 2, 3, 4, 5, 6}), Floats({10, 20, 30, 40, 50, 60})}, outputs) != ge::SUCCESS ||
      outputs.size() != 1) {
    std::fprintf(stderr, "session_run: %s\n", ge::GEGetErrorMsg().c_str());
    return 1;
  }
  std::vector<float> z(outputs[0].GetSize() / sizeof(float));
  std::memcpy(z.data(), outputs[0].GetData(), z.size() * sizeof(float));
  std::printf("z =");
  for (float v : z) std::printf(" %g", v);
  std::printf("\n");
  return 0;
}
}  // namespace

int main() {
  if (ge::GEInitialize(std::map<ge::AscendString, ge::AscendString>{}) != ge::SUCCESS) {
    std::fprintf(stderr, "session_run: GEInitialize: %s\n", ge::GEGetErrorMsg().c_str());
    return 1;
  }
  const int rc = Run();
  (void)ge::GEFinalize();
  return rc;
}
