// The TileLang offline flow's OM program (flow C, examples/tilelang_stand_in): loads the OM (its
// AddCustomOffline kernels come back through Deserialize), runs it once on x, y (inputs.h) with
// aclmdlExecute, checks z exactly, and reports whether any libpython is mapped in this process
// (/proc/self/maps): the offline flow must need neither the OPP path nor Python.
//   tilelang_model_exec <model.om>
#include <fstream>
#include <string>

#include "../inputs.h"
#include "acl/acl.h"

namespace {
bool Check(aclError ret, const char *what) {
  if (ret != ACL_SUCCESS) std::printf("[ERROR] %s failed, error code: %d (%s)\n", what, ret, aclGetRecentErrMsg());
  return ret == ACL_SUCCESS;
}

bool PythonMapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libpython") != std::string::npos) return true;
  return false;
}

aclmdlDataset *Dataset(const std::vector<void *> &bufs, size_t bytes) {
  aclmdlDataset *d = aclmdlCreateDataset();
  for (void *b : bufs) aclmdlAddDatasetBuffer(d, aclCreateDataBuffer(b, bytes));
  return d;
}

void FreeDataset(aclmdlDataset *d) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i));
  aclmdlDestroyDataset(d);
}

/** Runs the loaded model `id` once; fills `z`. */
bool RunModel(uint32_t id, std::vector<float> &z) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  if (!Check(aclmdlGetDesc(desc, id), "aclmdlGetDesc")) return false;
  const size_t bytes = aclmdlGetInputSizeByIndex(desc, 0);
  std::printf("Model: %zu inputs, %zu outputs, input size %zu bytes\n", aclmdlGetNumInputs(desc),
              aclmdlGetNumOutputs(desc), bytes);
  aclmdlDestroyDesc(desc);
  const int64_t n = static_cast<int64_t>(bytes / sizeof(float));
  const std::vector<float> hx = InputX(n), hy = InputY(n);
  std::vector<void *> d(3, nullptr);
  bool ok = true;
  for (void *&p : d) ok = ok && Check(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  ok = ok && Check(aclrtMemcpy(d[0], bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy") &&
       Check(aclrtMemcpy(d[1], bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  if (ok) {
    aclmdlDataset *in = Dataset({d[0], d[1]}, bytes);
    aclmdlDataset *out = Dataset({d[2]}, bytes);
    z.assign(static_cast<size_t>(n), 0.0f);
    ok = Check(aclmdlExecute(id, in, out), "aclmdlExecute") &&
         Check(aclrtMemcpy(z.data(), bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    FreeDataset(in);
    FreeDataset(out);
  }
  for (void *p : d)
    if (p != nullptr) aclrtFree(p);
  return ok;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("usage: %s <model.om>\n", argv[0]);
    return 2;
  }
  if (!Check(aclInit(nullptr), "aclInit") || !Check(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
  std::printf("Loading OM model (triggers Deserialize): %s\n", argv[1]);
  std::fflush(stdout);
  uint32_t id = 0;
  std::vector<float> z;
  bool ok = Check(aclmdlLoadFromFile(argv[1], &id), "aclmdlLoadFromFile");
  if (ok) {
    ok = RunModel(id, z);
    (void)aclmdlUnload(id);
  }
  std::printf("libpython mapped: %s\n", PythonMapped() ? "yes" : "no");
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return ok && CheckSum(z, 1) ? 0 : 1;
}
