// Runs the .asc library's launches and prints the results (tests/asc/CMakeLists.txt checks them).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"

extern "C" int LaunchWhereLike(void *x, void *y, void *count, uint64_t n, void *stream);
extern "C" int LaunchWithDynamicUb(void *y, void *stream);

int main() {
  if (aclInit(nullptr) != 0 || aclrtSetDevice(0) != 0) return 10;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != 0) return 11;
  const int32_t host_x[8] = {0, 5, 0, -2, 7, 0, 0, 1};
  void *x = nullptr, *y = nullptr, *count = nullptr;
  if (aclrtMalloc(&x, sizeof host_x, ACL_MEM_MALLOC_NORMAL_ONLY) != 0 ||
      aclrtMalloc(&y, 8 * sizeof(int64_t), ACL_MEM_MALLOC_NORMAL_ONLY) != 0 ||
      aclrtMalloc(&count, sizeof(uint64_t), ACL_MEM_MALLOC_NORMAL_ONLY) != 0) {
    return 12;
  }
  aclrtMemcpy(x, sizeof host_x, host_x, sizeof host_x, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemset(y, 8 * sizeof(int64_t), 0, 8 * sizeof(int64_t));
  int rc = LaunchWhereLike(x, y, count, 8, stream);
  int64_t out[8];
  uint64_t found = 0;
  aclrtMemcpy(out, sizeof out, y, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(&found, sizeof found, count, sizeof found, ACL_MEMCPY_DEVICE_TO_HOST);
  std::printf("rc %d count %llu:", rc, static_cast<unsigned long long>(found));
  for (int64_t v : out) std::printf(" %lld", static_cast<long long>(v));
  std::printf("\n");
  int dyn = LaunchWithDynamicUb(y, stream);
  std::printf("dynamic UB launch rc %d: %s\n", dyn, aclGetRecentErrMsg());
  return 0;
}
