// model_exec: runs an OM through the ACL model API, following the flow of GE's
// examples/custom_op/compilable_add_custom/model_exec program (docs/acl.md
// §3 "OM run"): init, device 0, load, describe, one all-ones float input buffer per model input
// and one buffer per output, execute, copy the first output back and print its first element,
// then release everything in reverse order. Written only against the public acl/*.h headers.
//
// Usage: model_exec <model.om>
// Prints "[INFO] Model executed successfully!" and "[INFO] First element of output: <v>" and
// exits 0; on a failed call prints "[ERROR] <what> failed, error code: <n>" (plus the runtime's
// last message) and exits 1.
#include <cstdio>
#include <vector>

#include "acl/acl.h"

namespace {

/** Reports a failed ACL call in the sample's format; returns false when `rc` is an error. */
bool Check(aclError rc, const char *what) {
  if (rc == ACL_SUCCESS) return true;
  std::printf("[ERROR] %s failed, error code: %d\n", what, static_cast<int>(rc));
  const char *msg = aclGetRecentErrMsg();
  if (msg != nullptr && *msg != '\0') std::printf("[ERROR] %s\n", msg);
  return false;
}

/** Device buffers wrapped in data buffers and collected in a dataset; frees all of it. */
class Buffers {
 public:
  Buffers() : dataset_(aclmdlCreateDataset()) {}
  ~Buffers() {
    for (size_t i = 0; dataset_ != nullptr && i < aclmdlGetDatasetNumBuffers(dataset_); ++i) {
      aclDataBuffer *b = aclmdlGetDatasetBuffer(dataset_, i);
      if (void *p = aclGetDataBufferAddr(b)) aclrtFree(p);
      aclDestroyDataBuffer(b);
    }
    if (dataset_ != nullptr) aclmdlDestroyDataset(dataset_);
  }
  Buffers(const Buffers &) = delete;
  Buffers &operator=(const Buffers &) = delete;

  aclmdlDataset *dataset() const { return dataset_; }

  /** Allocates `size` bytes of device memory, fills it from `host` when given, appends it. */
  bool Add(size_t size, const void *host) {
    if (dataset_ == nullptr) return Check(ACL_ERROR_BAD_ALLOC, "aclmdlCreateDataset");
    void *dev = nullptr;
    if (!Check(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc")) return false;
    if (host != nullptr && !Check(aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) {
      aclrtFree(dev);
      return false;
    }
    aclDataBuffer *b = aclCreateDataBuffer(dev, size);
    if (b == nullptr) {
      aclrtFree(dev);
      return Check(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer");
    }
    if (!Check(aclmdlAddDatasetBuffer(dataset_, b), "aclmdlAddDatasetBuffer")) {
      aclDestroyDataBuffer(b);
      aclrtFree(dev);
      return false;
    }
    return true;
  }

 private:
  aclmdlDataset *dataset_;
};

/** Load -> describe -> fill -> execute -> read back, for a loaded model `model_id`. */
bool RunModel(uint32_t model_id) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  if (desc == nullptr) return Check(ACL_ERROR_BAD_ALLOC, "aclmdlCreateDesc");
  bool ok = Check(aclmdlGetDesc(desc, model_id), "aclmdlGetDesc");
  Buffers inputs, outputs;
  for (size_t i = 0; ok && i < aclmdlGetNumInputs(desc); ++i) {
    const size_t size = aclmdlGetInputSizeByIndex(desc, i);
    std::vector<float> host(size / sizeof(float), 1.0f);
    ok = inputs.Add(size, host.data());
  }
  for (size_t i = 0; ok && i < aclmdlGetNumOutputs(desc); ++i) ok = outputs.Add(aclmdlGetOutputSizeByIndex(desc, i), nullptr);
  ok = ok && Check(aclmdlExecute(model_id, inputs.dataset(), outputs.dataset()), "aclmdlExecute");
  if (ok) {
    std::printf("[INFO] Model executed successfully!\n");
    aclDataBuffer *out = aclmdlGetDatasetBuffer(outputs.dataset(), 0);
    const size_t size = aclGetDataBufferSizeV2(out);
    std::vector<float> host(size / sizeof(float));
    ok = !host.empty() &&
         Check(aclrtMemcpy(host.data(), size, aclGetDataBufferAddr(out), size, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    if (ok) std::printf("[INFO] First element of output: %f\n", static_cast<double>(host[0]));
  }
  aclmdlDestroyDesc(desc);
  return ok;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("[ERROR] usage: %s <model.om>, error code: %d\n", argc > 0 ? argv[0] : "model_exec", ACL_ERROR_INVALID_PARAM);
    return 1;
  }
  if (!Check(aclInit(nullptr), "aclInit")) return 1;
  bool ok = Check(aclrtSetDevice(0), "aclrtSetDevice");
  uint32_t model_id = 0;
  if (ok && Check(aclmdlLoadFromFile(argv[1], &model_id), "aclmdlLoadFromFile")) {
    ok = RunModel(model_id);
    ok = Check(aclmdlUnload(model_id), "aclmdlUnload") && ok;
  } else {
    ok = false;
  }
  aclrtResetDevice(0);
  aclFinalize();
  return ok ? 0 : 1;
}
