// "Device" and host memory (aclrtMalloc/Free/MallocHost/FreeHost), copies and fills, data
// buffers and aclDataTypeSize. On the host reference all memory is host memory. Each aclrtMalloc
// block is registered for the global-memory checks (openatc/rt/gm_registry.h) while it lives.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "acl/acl_rt.h"
#include "openatc/rt/error_state.h"
#include "openatc/rt/gm_registry.h"
#include "stream.h"

struct aclDataBuffer {
  void *data;
  size_t size;
};

namespace openatc {
namespace rt {
namespace {

constexpr size_t kAlign = 64;

class Allocations {
 public:
  /** `gm_label`: the checked-memory label's first words ("aclrtMalloc block"); null = not registered. */
  explicit Allocations(const char *gm_label) : gm_label_(gm_label) {}
  void *Allocate(const char *what, size_t size) {
    if (size == 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(what) + " of 0 bytes", "Pass a size of at least 1 byte");
    size_t limit = Limit();
    if (size > limit) {
      ThrowAcl(ACL_ERROR_BAD_ALLOC,
               "cannot allocate " + std::to_string(size) + " bytes: more than the machine's " + std::to_string(limit) +
                   " bytes of physical memory");
    }
    size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
    void *p = std::aligned_alloc(kAlign, rounded);
    if (p == nullptr) ThrowAcl(ACL_ERROR_BAD_ALLOC, "out of memory allocating " + std::to_string(size) + " bytes");
    GmRegistration reg;
    if (gm_label_ != nullptr) reg = GmRegistration(p, size, std::string(gm_label_) + " of " + std::to_string(size) + " bytes");
    std::lock_guard<std::mutex> lock(mutex_);
    live_[p] = std::move(reg);
    return p;
  }
  void Free(const char *what, void *p) {
    if (p == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "the pointer to free is null");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = live_.find(p);
      if (it == live_.end()) {
        ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string("pointer was not returned by ") + what + " or was already freed",
                 "Free each allocation once, with the matching free call");
      }
      live_.erase(it);
    }
    std::free(p);
  }

 private:
  static size_t Limit() {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : SIZE_MAX / 2;
  }
  const char *gm_label_;
  std::mutex mutex_;
  std::unordered_map<void *, GmRegistration> live_;
};

Allocations &DeviceAllocations() {
  static Allocations a("aclrtMalloc block");
  return a;
}
Allocations &HostAllocations() {
  static Allocations a(nullptr);  // host memory: a kernel has no business there
  return a;
}

void Copy(void *dst, size_t dest_max, const void *src, size_t count, int raw_kind) {
  if (raw_kind < ACL_MEMCPY_HOST_TO_HOST || raw_kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "memcpy kind " + std::to_string(raw_kind) + " is not an aclrtMemcpyKind",
             "Pass one of ACL_MEMCPY_HOST_TO_HOST (0) .. ACL_MEMCPY_INTER_DEVICE_TO_DEVICE (7)");
  }
  if (dest_max < count) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             "destMax (" + std::to_string(dest_max) + " bytes) is smaller than count (" + std::to_string(count) + " bytes)",
             "Pass a destination of at least count bytes");
  }
  if (count == 0) return;
  if (dst == nullptr || src == nullptr) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(dst == nullptr ? "dst" : "src") + " is a null pointer");
  }
  std::memmove(dst, src, count);
}

void Fill(void *dst, size_t max_count, int32_t value, size_t count) {
  if (max_count < count) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM,
             "maxCount (" + std::to_string(max_count) + " bytes) is smaller than count (" + std::to_string(count) + " bytes)",
             "Pass a destination of at least count bytes");
  }
  if (count == 0) return;
  if (dst == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "devPtr is a null pointer");
  std::memset(dst, value & 0xFF, count);
}

void CheckOut(const void *p, const char *name) {
  if (p == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(name) + " is a null pointer");
}

}  // namespace
}  // namespace rt
}  // namespace openatc

using namespace openatc::rt;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  return Guard("aclrtMalloc", [&] {
    CheckOut(devPtr, "devPtr");
    *devPtr = DeviceAllocations().Allocate("allocation", size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr) {
  return Guard("aclrtFree", [&] { DeviceAllocations().Free("aclrtMalloc", devPtr); });
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size) {
  return Guard("aclrtMallocHost", [&] {
    CheckOut(hostPtr, "hostPtr");
    *hostPtr = HostAllocations().Allocate("host allocation", size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr) {
  return Guard("aclrtFreeHost", [&] { HostAllocations().Free("aclrtMallocHost", hostPtr); });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  return Guard("aclrtMemcpy", [&] { Copy(dst, destMax, src, count, RawEnum(kind)); });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream) {
  return Guard("aclrtMemcpyAsync", [&] {
    ResolveStream(stream);
    Copy(dst, destMax, src, count, RawEnum(kind));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  return Guard("aclrtMemset", [&] { Fill(devPtr, maxCount, value, count); });
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream) {
  return Guard("aclrtMemsetAsync", [&] {
    ResolveStream(stream);
    Fill(devPtr, maxCount, value, count);
  });
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  aclDataBuffer *b = nullptr;
  aclError rc = Guard("aclCreateDataBuffer", [&] {
    if (data == nullptr && size != 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "data is null but size is " + std::to_string(size) + " bytes");
    }
    b = new aclDataBuffer{data, size};
  });
  return rc == ACL_SUCCESS ? b : nullptr;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  return Guard("aclDestroyDataBuffer", [&] {
    CheckOut(dataBuffer, "dataBuffer");
    delete dataBuffer;
  });
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  return Guard("aclUpdateDataBuffer", [&] {
    CheckOut(dataBuffer, "dataBuffer");
    dataBuffer->data = data;
    dataBuffer->size = size;
  });
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? 0 : dataBuffer->size;
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  size_t s = aclGetDataBufferSizeV2(dataBuffer);
  return s > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(s);
}

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

}  // extern "C"
