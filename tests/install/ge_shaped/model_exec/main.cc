// Runs an OM of x, y -> AxpbCustom -> z ([2,3] float32 each) with ACL as GE's model_exec programs
// do: aclInit, aclrtSetDevice, aclmdlLoadFromFile, device buffers in aclmdlDatasets,
// aclmdlExecute, copy back; prints z on one line, "z = v0 v1 ...". Usage: ge_shaped_model_exec OM.
#include <cstdio>
#include <vector>

#include "acl/acl.h"

namespace {
bool Check(aclError e, const char *what) {
  if (e != ACL_SUCCESS) std::fprintf(stderr, "model_exec: %s failed: %d (%s)\n", what, e, aclGetRecentErrMsg());
  return e == ACL_SUCCESS;
}

// Adds a device buffer of `bytes` to `set`, filled from `host` when it is not null.
void *AddBuffer(aclmdlDataset *set, size_t bytes, const float *host) {
  void *dev = nullptr;
  if (!Check(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) return nullptr;
  if (host != nullptr && !Check(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) return nullptr;
  if (!Check(aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(dev, bytes)), "aclmdlAddDatasetBuffer")) return nullptr;
  return dev;
}

int Run(const char *om) {
  uint32_t model = 0;
  if (!Check(aclmdlLoadFromFile(om, &model), "aclmdlLoadFromFile")) return 1;
  const std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {10, 20, 30, 40, 50, 60};
  const size_t bytes = x.size() * sizeof(float);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  void *dz = nullptr;
  if (AddBuffer(in, bytes, x.data()) == nullptr || AddBuffer(in, bytes, y.data()) == nullptr ||
      (dz = AddBuffer(out, bytes, nullptr)) == nullptr || !Check(aclmdlExecute(model, in, out), "aclmdlExecute")) {
    return 1;
  }
  std::vector<float> z(x.size());
  if (!Check(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) return 1;
  std::printf("z =");
  for (float v : z) std::printf(" %g", v);
  std::printf("\n");
  for (aclmdlDataset *set : {in, out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
      aclDataBuffer *b = aclmdlGetDatasetBuffer(set, i);
      (void)aclrtFree(aclGetDataBufferAddr(b));
      (void)aclDestroyDataBuffer(b);
    }
    (void)aclmdlDestroyDataset(set);
  }
  return Check(aclmdlUnload(model), "aclmdlUnload") ? 0 : 1;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ge_shaped_model_exec MODEL.om\n");
    return 2;
  }
  if (!Check(aclInit(nullptr), "aclInit") || !Check(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
  const int rc = Run(argv[1]);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return rc;
}
