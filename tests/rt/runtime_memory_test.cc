// libascendcl: init, device, memory, memcpy/memset, data buffers and aclGetRecentErrMsg text.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

extern "C" int openatc_acl_headers_c_check(void);

namespace {
std::string LastError() { return aclGetRecentErrMsg(); }
}  // namespace

TEST_CASE("ACL headers compile as C with the documented values", "[rt]") {
  REQUIRE(openatc_acl_headers_c_check() == 1);
  STATIC_REQUIRE(ACL_ERROR_REPEAT_INITIALIZE == 100002);
  STATIC_REQUIRE(ACL_DEV_ATTR_NPU_ARCH == 601);
  STATIC_REQUIRE(ACL_MEMCPY_DEVICE_TO_HOST == 2);
  STATIC_REQUIRE(ACL_MEM_MALLOC_NORMAL_ONLY == 2);
  STATIC_REQUIRE(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE == 0x41415246U);
  STATIC_REQUIRE(ACL_BF16 == 27);
  STATIC_REQUIRE(ACL_FORMAT_ND == 2);
}

TEST_CASE("aclGetRecentErrMsg is empty on a thread with no failure", "[rt]") {
  std::string text = "unset";
  std::thread t([&] { text = aclGetRecentErrMsg(); });
  t.join();
  REQUIRE(text.empty());
}

TEST_CASE("aclInit and aclFinalize report repeats", "[rt]") {
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  REQUIRE(aclInit(nullptr) == ACL_ERROR_REPEAT_INITIALIZE);
  REQUIRE(LastError() == "aclInit: ACL is already initialized in this process. Call aclInit once (or aclFinalize before calling it again).");
  REQUIRE(aclFinalize() == ACL_SUCCESS);
  REQUIRE(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE);
  REQUIRE(LastError().find("aclFinalize without a matching aclInit") != std::string::npos);
}

TEST_CASE("device 0 only, and its attributes", "[rt]") {
  REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
  int32_t dev = -1;
  REQUIRE(aclrtGetDevice(&dev) == ACL_SUCCESS);
  REQUIRE(dev == 0);
  REQUIRE(aclrtSetDevice(1) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtSetDevice: device 1 does not exist; the host runtime has only device 0. Pass device id 0.");
  REQUIRE(aclrtGetDevice(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtGetDevice: deviceId is a null pointer.");
  int64_t arch = -1;
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &arch) == ACL_SUCCESS);
  REQUIRE(arch == 0);
  int64_t cores = 0;
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &cores) == ACL_SUCCESS);
  REQUIRE(cores >= 1);
  REQUIRE(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(12345), &arch) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError().find("device attribute 12345 is not known to the host runtime") != std::string::npos);
  REQUIRE(aclrtGetDeviceInfo(3, ACL_DEV_ATTR_NPU_ARCH, &arch) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtResetDevice(0) == ACL_SUCCESS);
}

TEST_CASE("aclrtMalloc aligns to 64 bytes and refuses size 0", "[rt]") {
  void *p = nullptr;
  REQUIRE(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  REQUIRE(p != nullptr);
  REQUIRE(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  void *q = nullptr;
  REQUIRE(aclrtMalloc(&q, 0, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMalloc: allocation of 0 bytes. Pass a size of at least 1 byte.");
  REQUIRE(q == nullptr);
  REQUIRE(aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMalloc: devPtr is a null pointer.");
  REQUIRE(aclrtMalloc(&q, SIZE_MAX - 10, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_BAD_ALLOC);
  REQUIRE(LastError().find("more than the machine's") != std::string::npos);
  REQUIRE(aclrtFree(p) == ACL_SUCCESS);
  REQUIRE(aclrtFree(p) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtFree: pointer was not returned by aclrtMalloc or was already freed. Free each allocation once, with the matching free call.");
  REQUIRE(aclrtFree(nullptr) == ACL_ERROR_INVALID_PARAM);
  int local = 0;
  REQUIRE(aclrtFree(&local) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtMallocHost / aclrtFreeHost", "[rt]") {
  void *p = nullptr;
  REQUIRE(aclrtMallocHost(&p, 64) == ACL_SUCCESS);
  REQUIRE(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  REQUIRE(aclrtFree(p) == ACL_ERROR_INVALID_PARAM);  // host memory is not device memory
  REQUIRE(aclrtFreeHost(p) == ACL_SUCCESS);
  REQUIRE(aclrtMallocHost(&p, 0) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMallocHost: host allocation of 0 bytes. Pass a size of at least 1 byte.");
}

TEST_CASE("aclrtMemcpy copies values and checks destMax, pointers and kind", "[rt]") {
  std::vector<float> host = {1.5f, -2.0f, 3.25f, 4.0f};
  void *dev = nullptr;
  REQUIRE(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(dev, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  std::vector<float> back(4, 0.0f);
  REQUIRE(aclrtMemcpy(back.data(), 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  REQUIRE(back == std::vector<float>{1.5f, -2.0f, 3.25f, 4.0f});

  REQUIRE(aclrtMemcpy(back.data(), 8, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMemcpy: destMax (8 bytes) is smaller than count (16 bytes). Pass a destination of at least count bytes.");
  REQUIRE(aclrtMemcpy(nullptr, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMemcpy: dst is a null pointer.");
  REQUIRE(aclrtMemcpy(back.data(), 16, nullptr, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMemcpy: src is a null pointer.");
  REQUIRE(aclrtMemcpy(back.data(), 16, dev, 16, static_cast<aclrtMemcpyKind>(9)) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError().find("memcpy kind 9 is not an aclrtMemcpyKind") != std::string::npos);
  REQUIRE(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS);  // count 0: no-op

  // device to device and memset
  void *dev2 = nullptr;
  REQUIRE(aclrtMalloc(&dev2, 16, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  REQUIRE(aclrtMemset(dev2, 16, 0x7F, 16) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(dev2, 16, dev, 8, ACL_MEMCPY_DEVICE_TO_DEVICE) == ACL_SUCCESS);
  unsigned char bytes[16];
  REQUIRE(aclrtMemcpy(bytes, 16, dev2, 16, ACL_MEMCPY_DEFAULT) == ACL_SUCCESS);
  float f0, f1;
  std::memcpy(&f0, bytes, 4);
  std::memcpy(&f1, bytes + 4, 4);
  REQUIRE(f0 == 1.5f);
  REQUIRE(f1 == -2.0f);
  for (int i = 8; i < 16; ++i) REQUIRE(bytes[i] == 0x7F);
  REQUIRE(aclrtMemset(dev2, 4, 0, 16) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMemset: maxCount (4 bytes) is smaller than count (16 bytes). Pass a destination of at least count bytes.");

  // async on a stream and on the default stream
  aclrtStream s = nullptr;
  REQUIRE(aclrtCreateStream(&s) == ACL_SUCCESS);
  std::vector<float> ones(4, 1.0f);
  REQUIRE(aclrtMemcpyAsync(dev, 16, ones.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_SUCCESS);
  REQUIRE(aclrtMemsetAsync(dev2, 16, 0, 4, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtSynchronizeStream(s) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(back.data(), 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  REQUIRE(back == ones);
  REQUIRE(aclrtMemcpyAsync(dev, 16, ones.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtMemcpyAsync: destMax (16 bytes) is smaller than count (32 bytes). Pass a destination of at least count bytes.");
  REQUIRE(aclrtDestroyStream(s) == ACL_SUCCESS);
  REQUIRE(aclrtFree(dev) == ACL_SUCCESS);
  REQUIRE(aclrtFree(dev2) == ACL_SUCCESS);
}

TEST_CASE("data buffers wrap caller memory", "[rt]") {
  float data[4] = {0, 0, 0, 0};
  aclDataBuffer *b = aclCreateDataBuffer(data, sizeof data);
  REQUIRE(b != nullptr);
  REQUIRE(aclGetDataBufferAddr(b) == data);
  REQUIRE(aclGetDataBufferSizeV2(b) == 16);
  REQUIRE(aclGetDataBufferSize(b) == 16u);
  REQUIRE(aclUpdateDataBuffer(b, data + 1, 12) == ACL_SUCCESS);
  REQUIRE(aclGetDataBufferAddr(b) == data + 1);
  REQUIRE(aclGetDataBufferSizeV2(b) == 12);
  REQUIRE(aclDestroyDataBuffer(b) == ACL_SUCCESS);
  REQUIRE(aclDestroyDataBuffer(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclDestroyDataBuffer: dataBuffer is a null pointer.");
  REQUIRE(aclCreateDataBuffer(nullptr, 8) == nullptr);
  REQUIRE(LastError() == "aclCreateDataBuffer: data is null but size is 8 bytes.");
  REQUIRE(aclGetDataBufferAddr(nullptr) == nullptr);
  REQUIRE(aclDataTypeSize(ACL_FLOAT16) == 2);
  REQUIRE(aclDataTypeSize(ACL_INT64) == 8);
  REQUIRE(aclDataTypeSize(ACL_STRING) == 0);
}
