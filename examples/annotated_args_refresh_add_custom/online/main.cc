// The online session program of annotated_args_refresh_add_custom (host port of the sample's
// session_run flow), written against ge/ge_api.h and acl/acl_rt.h only: builds two graphs
// (x, y [4096, 4096] float32 -> AnnotatedAddCustom / NoRefreshAddCustom -> z), compiles and
// loads each in one ge::Session, then runs each 5 warm-up and ITERS timed times through
// ExecuteGraphWithStreamAsync, alternating between two buffer sets. AnnotatedAddCustom's launch
// is retargeted to each set from its declaration; NoRefreshAddCustom's fixed addresses make the
// runtime copy through its own buffers. Prints the sample's [Perf] lines and a precision check.
//
//   ASCEND_CUSTOM_OPP_PATH=<build>/examples/annotated_args_refresh_add_custom/online/opp
//     annotated_args_refresh_add_custom_online [ITERS]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#include "acl/acl_rt.h"
#include "add_custom_ir.h"
#include "ge/ge_api.h"
#include "graph.h"
#include "ops_proto_legacy.h"
#include "tensor.h"
#include "types.h"

namespace {
constexpr uint32_t kAnnotatedGraph = 0;
constexpr uint32_t kNoRefreshGraph = 1;
constexpr int64_t kDim0 = 4096;
constexpr int64_t kDim1 = 4096;
constexpr int64_t kElements = kDim0 * kDim1;
constexpr size_t kBytes = static_cast<size_t>(kElements) * sizeof(float);
constexpr int kWarmup = 5;

ge::Graph BuildGraph(const char *name, bool annotated) {
  ge::TensorDesc desc(ge::Shape({kDim0, kDim1}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto x = ge::op::Data("data_x");
  x.update_input_desc_x(desc);
  x.update_output_desc_y(desc);
  auto y = ge::op::Data("data_y");
  y.update_input_desc_x(desc);
  y.update_output_desc_y(desc);
  std::vector<ge::Operator> outputs;
  if (annotated) {
    outputs.push_back(ge::op::AnnotatedAddCustom("annotated_add").set_input_x(x).set_input_y(y));
  } else {
    outputs.push_back(ge::op::NoRefreshAddCustom("no_refresh_add").set_input_x(x).set_input_y(y));
  }
  ge::Graph graph(name);
  graph.SetInputs({x, y}).SetOutputs(outputs);
  return graph;
}

gert::Tensor DeviceTensor(void *addr) {
  return gert::Tensor({{kDim0, kDim1}, {kDim0, kDim1}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm,
                      ge::DT_FLOAT, addr);
}

bool Check(aclError ret, const char *what) {
  if (ret != ACL_SUCCESS) std::printf("[ERROR] %s failed, error code: %d (%s)\n", what, ret, aclGetRecentErrMsg());
  return ret == ACL_SUCCESS;
}

// Two sets of device buffers with the same random x, y; timed runs alternate between them.
struct Buffers {
  void *x[2] = {}, *y[2] = {}, *z[2] = {};
  std::vector<float> host_x, host_y;
  bool Init() {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    host_x.resize(kElements);
    host_y.resize(kElements);
    for (int64_t i = 0; i < kElements; ++i) {
      host_x[i] = dist(rng);
      host_y[i] = dist(rng);
    }
    for (int s = 0; s < 2; ++s) {
      if (!Check(aclrtMalloc(&x[s], kBytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
          !Check(aclrtMalloc(&y[s], kBytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
          !Check(aclrtMalloc(&z[s], kBytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
          !Check(aclrtMemcpy(x[s], kBytes, host_x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy") ||
          !Check(aclrtMemcpy(y[s], kBytes, host_y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) {
        return false;
      }
    }
    return true;
  }
  ~Buffers() {
    for (int s = 0; s < 2; ++s)
      for (void *p : {x[s], y[s], z[s]})
        if (p != nullptr) aclrtFree(p);
  }
};

bool Execute(ge::Session &session, uint32_t id, aclrtStream stream, Buffers &b, int s) {
  std::vector<gert::Tensor> inputs;
  inputs.push_back(DeviceTensor(b.x[s]));
  inputs.push_back(DeviceTensor(b.y[s]));
  std::vector<gert::Tensor> outputs;
  outputs.push_back(DeviceTensor(b.z[s]));
  if (session.ExecuteGraphWithStreamAsync(id, stream, inputs, outputs) != ge::SUCCESS) {
    std::printf("[ERROR] ExecuteGraphWithStreamAsync failed: %s\n", ge::GEGetErrorMsg().c_str());
    return false;
  }
  return true;
}

// Warm-up, timed runs and the precision check of one graph; returns the timed microseconds or -1.
double Benchmark(ge::Session &session, uint32_t id, aclrtStream stream, int iters, const char *label) {
  Buffers b;
  if (!b.Init()) return -1.0;
  for (int i = 0; i < kWarmup; ++i)
    if (!Execute(session, id, stream, b, i % 2)) return -1.0;
  if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return -1.0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i)
    if (!Execute(session, id, stream, b, i % 2)) return -1.0;
  if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return -1.0;
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  // Both sets were written (warm-up alternates too): check each against x + y.
  float max_error = 0.0f;
  std::vector<float> host_z(kElements);
  for (int s = 0; s < 2; ++s) {
    if (!Check(aclrtMemcpy(host_z.data(), kBytes, b.z[s], kBytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy"))
      return -1.0;
    for (int64_t i = 0; i < kElements; ++i)
      max_error = std::fmax(max_error, std::fabs(host_z[i] - (b.host_x[i] + b.host_y[i])));
  }
  if (max_error > 1e-5f) {
    std::printf("[ERROR] %s: Precision check failed, max_error=%g\n", label, max_error);
    return -1.0;
  }
  std::printf("[INFO] %s: Precision check passed, max_error=%g\n", label, max_error);
  return us;
}

// Adds, compiles and loads graph `id`; `added` collects the ids AddGraph accepted (to remove later).
bool Setup(ge::Session &session, uint32_t id, const ge::Graph &graph, aclrtStream stream,
           std::vector<uint32_t> *added) {
  const std::map<ge::AscendString, ge::AscendString> load_options;
  const bool ok_add = session.AddGraph(id, graph) == ge::SUCCESS;
  if (ok_add) added->push_back(id);
  if (!ok_add || session.CompileGraph(id) != ge::SUCCESS || session.LoadGraph(id, load_options, stream) != ge::SUCCESS) {
    std::printf("[ERROR] setting up graph %u failed: %s\n", id, ge::GEGetErrorMsg().c_str());
    return false;
  }
  return true;
}
}  // namespace

int main(int argc, char **argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 100;
  if (iters <= 0) {
    std::printf("usage: %s [iters > 0]\n", argv[0]);
    return 2;
  }
  const std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "1"}};
  if (ge::GEInitialize(options) != ge::SUCCESS) {
    std::printf("[ERROR] GEInitialize failed: %s\n", ge::GEGetErrorMsg().c_str());
    return 1;
  }
  aclrtStream stream = nullptr;
  if (!Check(aclrtCreateStream(&stream), "aclrtCreateStream")) return 1;
  int rc = 0;
  {
    ge::Session session(options);
    std::vector<uint32_t> added;
    if (!Setup(session, kAnnotatedGraph, BuildGraph("annotated_graph", true), stream, &added) ||
        !Setup(session, kNoRefreshGraph, BuildGraph("no_refresh_graph", false), stream, &added)) {
      rc = 1;
    } else {
      std::printf("[INFO] [Perf] input shape: [%lld, %lld], float32, %zuMB\n", static_cast<long long>(kDim0),
                  static_cast<long long>(kDim1), kBytes / (1024 * 1024));
      std::printf("[INFO] [Perf] iters: %d\n", iters);
      const double annotated = Benchmark(session, kAnnotatedGraph, stream, iters, "AnnotatedAddCustom");
      const double no_refresh = Benchmark(session, kNoRefreshGraph, stream, iters, "NoRefreshAddCustom");
      if (annotated < 0.0 || no_refresh < 0.0) {
        rc = 1;
      } else {
        std::printf("[INFO] [Perf] AnnotatedAddCustom: %.1f us (avg %.1f us/iter)\n", annotated, annotated / iters);
        std::printf("[INFO] [Perf] NoRefreshAddCustom: %.1f us (avg %.1f us/iter)\n", no_refresh, no_refresh / iters);
        std::printf("[INFO] [Perf] Annotated speedup: %.2f x\n", no_refresh / annotated);
      }
    }
    for (uint32_t id : added) (void)session.RemoveGraph(id);
  }
  (void)aclrtDestroyStream(stream);
  if (ge::GEFinalize() != ge::SUCCESS) return 1;
  return rc;
}
