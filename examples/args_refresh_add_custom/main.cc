// args_refresh_add_custom's example program (host port of the sample's session_run flow), written
// only against acl/*.h: loads the two OMs (AddRefreshOp graph, AddNoRefreshOp graph), then for
// each runs 5 warm-up and 100 timed executions alternating between two input/output buffer sets.
// With ArgsUpdater the replayed kernel is retargeted to each buffer set (no copies); without it
// the runtime copies inputs and outputs through the model's fixed buffers. Prints the sample's
// [Perf] lines and a precision check per graph.
//
//   args_refresh_add_custom add_refresh.om add_no_refresh.om [iters]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"

namespace {
constexpr int kWarmup = 5;

struct BufferSet {
  void *x = nullptr, *y = nullptr, *z = nullptr;
  aclmdlDataset *in = nullptr, *out = nullptr;
};

#define CHECK_ACL(expr)                                                                        \
  do {                                                                                         \
    aclError _e = (expr);                                                                      \
    if (_e != ACL_SUCCESS) {                                                                   \
      std::printf("[ERROR] %s failed, error code: %d (%s)\n", #expr, _e, aclGetRecentErrMsg()); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

BufferSet MakeSet(size_t bytes, float xv, float yv) {
  BufferSet s;
  const size_t n = bytes / sizeof(float);
  std::vector<float> hx(n, xv), hy(n, yv);
  CHECK_ACL(aclrtMalloc(&s.x, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMalloc(&s.y, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMalloc(&s.z, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemcpy(s.x, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(s.y, bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  s.in = aclmdlCreateDataset();
  s.out = aclmdlCreateDataset();
  CHECK_ACL(aclmdlAddDatasetBuffer(s.in, aclCreateDataBuffer(s.x, bytes)));
  CHECK_ACL(aclmdlAddDatasetBuffer(s.in, aclCreateDataBuffer(s.y, bytes)));
  CHECK_ACL(aclmdlAddDatasetBuffer(s.out, aclCreateDataBuffer(s.z, bytes)));
  return s;
}

void FreeSet(BufferSet &s) {
  for (aclmdlDataset *d : {s.in, s.out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i));
    aclmdlDestroyDataset(d);
  }
  aclrtFree(s.x);
  aclrtFree(s.y);
  aclrtFree(s.z);
}

// Runs one graph; returns the average microseconds per iteration and checks both result sets.
double RunGraph(const char *om, int iters, const char *label) {
  uint32_t id = 0;
  CHECK_ACL(aclmdlLoadFromFile(om, &id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, id));
  const size_t bytes = aclmdlGetInputSizeByIndex(desc, 0);
  BufferSet sets[2] = {MakeSet(bytes, 1.0f, 2.0f), MakeSet(bytes, 4.0f, 5.0f)};
  for (int i = 0; i < kWarmup; ++i) CHECK_ACL(aclmdlExecute(id, sets[i % 2].in, sets[i % 2].out));
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) CHECK_ACL(aclmdlExecute(id, sets[i % 2].in, sets[i % 2].out));
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  double max_error = 0;
  const float expect[2] = {3.0f, 9.0f};
  std::vector<float> host(bytes / sizeof(float));
  for (int s = 0; s < 2; ++s) {
    CHECK_ACL(aclrtMemcpy(host.data(), bytes, sets[s].z, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (float v : host) max_error = std::fmax(max_error, std::fabs(v - expect[s]));
  }
  if (max_error > 1e-6) {
    std::printf("[ERROR] %s: Precision check failed, max_error=%g\n", label, max_error);
    std::exit(1);
  }
  std::printf("[INFO] %s: Precision check passed, max_error=%g\n", label, max_error);
  for (auto &s : sets) FreeSet(s);
  aclmdlDestroyDesc(desc);
  CHECK_ACL(aclmdlUnload(id));
  return us;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::printf("usage: %s add_refresh.om add_no_refresh.om [iters]\n", argv[0]);
    return 2;
  }
  const int iters = argc > 3 ? std::atoi(argv[3]) : 100;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  const double with_us = RunGraph(argv[1], iters, "add_refresh");
  const double without_us = RunGraph(argv[2], iters, "add_no_refresh");
  std::printf("[INFO] [Perf] input shape: [4096, 4096], float32, 64MB\n");
  std::printf("[INFO] [Perf] iters: %d\n", iters);
  std::printf("[INFO] [Perf] With    ArgsUpdater: %.1f us (avg %.1f us/iter)\n", with_us, with_us / iters);
  std::printf("[INFO] [Perf] Without ArgsUpdater: %.1f us (avg %.1f us/iter)\n", without_us, without_us / iters);
  std::printf("[INFO] [Perf] Speedup: %.2f x\n", without_us / with_us);
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return 0;
}
