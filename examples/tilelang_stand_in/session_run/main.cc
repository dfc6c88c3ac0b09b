// The TileLang flows' online program (flows A and B, examples/tilelang_stand_in): builds
// x, y -> TL_OP [-> TL_OP with y again] for N floats with GE's graph API, then GEInitialize,
// aclrtCreateStream, AddGraph, CompileGraph, LoadGraph on the stream, device buffers,
// ExecuteGraphWithStreamAsync, stream sync, copy back, exact check (inputs.h).
//   tilelang_session_run [N] [nodes]    N = 4096 and nodes = 1 by default; nodes 1 or 2
// Exit 0 when the check passes, 1 otherwise.
#include <cstdlib>
#include <map>
#include <string>

#include "../inputs.h"
#include "acl/acl_rt.h"
#include "add_custom.h"
#include "ge/ge_api.h"
#include "graph.h"
#include "ops_proto_legacy.h"
#include "tensor.h"
#include "types.h"

namespace {
bool Check(aclError ret, const char *what) {
  if (ret != ACL_SUCCESS) std::printf("[ERROR] %s failed, error code: %d\n", what, ret);
  return ret == ACL_SUCCESS;
}

ge::Graph BuildGraph(int64_t n, int nodes) {
  ge::TensorDesc desc(ge::Shape({n}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto x = ge::op::Data("data_x");
  x.set_attr_index(0);
  x.update_input_desc_x(desc);
  x.update_output_desc_y(desc);
  auto y = ge::op::Data("data_y");
  y.set_attr_index(1);
  y.update_input_desc_x(desc);
  y.update_output_desc_y(desc);
  auto first = ge::op::TL_OP("add").set_input_x(x).set_input_y(y);
  ge::Graph graph("tilelang_stand_in_graph");
  if (nodes == 1) {
    graph.SetInputs({x, y}).SetOutputs({first});
  } else {
    auto second = ge::op::TL_OP("add_again").set_input_x(first).set_input_y(y);
    graph.SetInputs({x, y}).SetOutputs({second});
  }
  return graph;
}

gert::Tensor DeviceTensor(int64_t n, void *addr) {
  return gert::Tensor({{n}, {n}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm, ge::DT_FLOAT, addr);
}

/** Compiles, loads and runs the graph once on `stream`; fills `z`. */
bool RunOnce(ge::Session &session, aclrtStream stream, int64_t n, int nodes, std::vector<float> &z) {
  if (session.AddGraph(1, BuildGraph(n, nodes)) != ge::SUCCESS) return false;
  std::printf("CompileGraph...\n");
  std::fflush(stdout);
  if (session.CompileGraph(1) != ge::SUCCESS || session.LoadGraph(1, {}, stream) != ge::SUCCESS) return false;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  const std::vector<float> hx = InputX(n), hy = InputY(n);
  void *d[3] = {nullptr, nullptr, nullptr};
  bool ok = true;
  for (void *&p : d) ok = ok && Check(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  ok = ok && Check(aclrtMemcpy(d[0], bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy") &&
       Check(aclrtMemcpy(d[1], bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  if (ok) {
    std::vector<gert::Tensor> inputs;
    inputs.push_back(DeviceTensor(n, d[0]));
    inputs.push_back(DeviceTensor(n, d[1]));
    std::vector<gert::Tensor> outputs;
    outputs.push_back(DeviceTensor(n, d[2]));
    z.assign(static_cast<size_t>(n), 0.0f);
    ok = session.ExecuteGraphWithStreamAsync(1, stream, inputs, outputs) == ge::SUCCESS &&
         Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream") &&
         Check(aclrtMemcpy(z.data(), bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
  }
  for (void *p : d)
    if (p != nullptr) aclrtFree(p);
  return ok;
}
}  // namespace

int main(int argc, char **argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 4096;
  const int nodes = argc > 2 ? std::atoi(argv[2]) : 1;
  if (n <= 0 || (nodes != 1 && nodes != 2)) {
    std::printf("usage: %s [N > 0] [nodes: 1 or 2]\n", argv[0]);
    return 2;
  }
  const std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "1"}};
  if (ge::GEInitialize(options) != ge::SUCCESS) {
    std::printf("[ERROR] GEInitialize failed: %s\n", ge::GEGetErrorMsg().c_str());
    return 1;
  }
  aclrtStream stream = nullptr;
  if (!Check(aclrtCreateStream(&stream), "aclrtCreateStream")) return 1;
  std::vector<float> z;
  bool ok = false;
  {
    ge::Session session(options);
    ok = RunOnce(session, stream, n, nodes, z);
    if (!ok) std::printf("[ERROR] running the graph failed: %s\n", ge::GEGetErrorMsg().c_str());
  }
  (void)aclrtDestroyStream(stream);
  (void)ge::GEFinalize();
  return ok && CheckSum(z, nodes) ? 0 : 1;
}
