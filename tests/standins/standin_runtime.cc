// STAND-IN for CANN's libascendcl.so (the NPU runtime), built only for tests. It is NOT CANN and
// runs nothing on any device: CANN is proprietary and cannot be installed here, so OpenATC's
// forwarding of aclrt* to CANN's runtime (device/rt/src/cann_runtime.cc) is tested against this
// library, installed by tests/standins/CMakeLists.txt as
// <build>/tests/standins/ascend_home/lib64/libascendcl.so.
//
// Recognisable behaviour: every call appends one line to the file named by $OPENATC_STANDIN_LOG
// (when set), "standin-cann: <function> <arguments>", e.g.
//   standin-cann: aclrtBinaryLoadFromData size=118 name=add_custom
//   standin-cann: aclrtBinaryGetFunction name=add_custom
//   standin-cann: aclrtLaunchKernelWithHostArgs kernel=add_custom blocks=1 args_size=24 args=3xptr distinct
// Memory is host memory (malloc), so copies work; kernels are never run. Identical binaries
// share one handle, valid for the process. Linked with
// -Bsymbolic so its own calls never bind to OpenATC's libascendcl of the same name.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

extern "C" {
typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
}

namespace {

constexpr aclError kInvalidParam = 100000;

std::mutex g_mutex;

void Log(const std::string &line) {
  const char *path = std::getenv("OPENATC_STANDIN_LOG");
  if (path == nullptr || *path == '\0') return;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (FILE *f = std::fopen(path, "a")) {
    std::fprintf(f, "standin-cann: %s\n", line.c_str());
    std::fclose(f);
  }
}

struct Function {
  std::string name;
};
struct Binary {
  std::string name;  // the "name=" line of a stand-in RTC blob, else "?"
  std::map<std::string, std::unique_ptr<Function>> functions;
};

// Binaries by content: identical bytes share one handle, and handles (and their functions) stay
// valid for the process, as GE's samples load in every Execute and never unload.
std::map<std::string, std::unique_ptr<Binary>> &Binaries() {
  static std::map<std::string, std::unique_ptr<Binary>> binaries;
  return binaries;
}

std::string BlobName(const char *data, size_t size) {
  std::string s(data, size);
  size_t p = s.find("\nname=");
  if (s.compare(0, 4, "\x7f" "ELF") != 0 || p == std::string::npos) return "?";
  size_t e = s.find('\n', p + 6);
  return s.substr(p + 6, e == std::string::npos ? std::string::npos : e - p - 6);
}

std::string DescribeArgs(const void *args, size_t size) {
  if (args == nullptr || size % 8 != 0 || size == 0) return "opaque";
  std::set<uintptr_t> seen;
  bool null = false;
  for (size_t i = 0; i < size; i += 8) {
    uintptr_t v;
    std::memcpy(&v, static_cast<const char *>(args) + i, 8);
    null |= v == 0;
    seen.insert(v);
  }
  return std::to_string(size / 8) + "xptr" + (null ? " has-null" : "") + (seen.size() == size / 8 ? " distinct" : " repeated");
}

aclError Launch(const char *api, aclrtFuncHandle func, uint32_t blocks, const void *args, size_t size) {
  if (func == nullptr) return kInvalidParam;
  Log(std::string(api) + " kernel=" + static_cast<Function *>(func)->name + " blocks=" + std::to_string(blocks) +
      " args_size=" + std::to_string(size) + " args=" + DescribeArgs(args, size));
  return 0;
}

}  // namespace

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

STANDIN_EXPORT aclError aclInit(const char *) { Log("aclInit"); return 0; }
STANDIN_EXPORT aclError aclFinalize() { Log("aclFinalize"); return 0; }
STANDIN_EXPORT aclError aclrtSetDevice(int32_t id) { Log("aclrtSetDevice " + std::to_string(id)); return 0; }
STANDIN_EXPORT aclError aclrtResetDevice(int32_t id) { Log("aclrtResetDevice " + std::to_string(id)); return 0; }
STANDIN_EXPORT aclError aclrtGetDevice(int32_t *id) {
  if (id == nullptr) return kInvalidParam;
  *id = 0;
  return 0;
}
STANDIN_EXPORT aclError aclrtGetDeviceInfo(uint32_t, int attr, int64_t *value) {
  if (value == nullptr) return kInvalidParam;
  *value = attr == 601 ? 2201 : 8;  // ACL_DEV_ATTR_NPU_ARCH -> dav-2201, counts -> 8
  return 0;
}

STANDIN_EXPORT aclError aclrtMalloc(void **p, size_t size, int policy) {
  if (p == nullptr || size == 0) return kInvalidParam;
  *p = std::malloc(size);
  Log("aclrtMalloc size=" + std::to_string(size) + " policy=" + std::to_string(policy));
  return *p ? 0 : 200000;
}
STANDIN_EXPORT aclError aclrtFree(void *p) {
  if (p == nullptr) return kInvalidParam;
  std::free(p);
  Log("aclrtFree");
  return 0;
}
STANDIN_EXPORT aclError aclrtMallocHost(void **p, size_t size) {
  if (p == nullptr || size == 0) return kInvalidParam;
  *p = std::malloc(size);
  Log("aclrtMallocHost size=" + std::to_string(size));
  return *p ? 0 : 200000;
}
STANDIN_EXPORT aclError aclrtFreeHost(void *p) {
  if (p == nullptr) return kInvalidParam;
  std::free(p);
  return 0;
}
STANDIN_EXPORT aclError aclrtMemcpy(void *dst, size_t max, const void *src, size_t count, int kind) {
  if (max < count || (count > 0 && (dst == nullptr || src == nullptr))) return kInvalidParam;
  if (count > 0) std::memmove(dst, src, count);
  Log("aclrtMemcpy count=" + std::to_string(count) + " kind=" + std::to_string(kind));
  return 0;
}
STANDIN_EXPORT aclError aclrtMemcpyAsync(void *dst, size_t max, const void *src, size_t count, int kind, aclrtStream) {
  if (max < count || (count > 0 && (dst == nullptr || src == nullptr))) return kInvalidParam;
  if (count > 0) std::memmove(dst, src, count);
  Log("aclrtMemcpyAsync count=" + std::to_string(count) + " kind=" + std::to_string(kind));
  return 0;
}
STANDIN_EXPORT aclError aclrtMemset(void *dst, size_t max, int32_t value, size_t count) {
  if (max < count || (count > 0 && dst == nullptr)) return kInvalidParam;
  if (count > 0) std::memset(dst, value & 0xff, count);
  return 0;
}

STANDIN_EXPORT aclError aclrtCreateStream(aclrtStream *s) {
  if (s == nullptr) return kInvalidParam;
  *s = new int(0);
  Log("aclrtCreateStream");
  return 0;
}
STANDIN_EXPORT aclError aclrtDestroyStream(aclrtStream s) {
  if (s == nullptr) return kInvalidParam;
  delete static_cast<int *>(s);
  Log("aclrtDestroyStream");
  return 0;
}
STANDIN_EXPORT aclError aclrtSynchronizeStream(aclrtStream) {
  Log("aclrtSynchronizeStream");
  return 0;
}

STANDIN_EXPORT aclError aclrtBinaryLoadFromData(const void *data, size_t size, const void *, aclrtBinHandle *bin) {
  if (data == nullptr || size == 0 || bin == nullptr) return kInvalidParam;
  Binary *b = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto &slot = Binaries()[std::string(static_cast<const char *>(data), size)];
    if (!slot) slot.reset(new Binary{BlobName(static_cast<const char *>(data), size), {}});
    b = slot.get();
  }
  *bin = b;
  Log("aclrtBinaryLoadFromData size=" + std::to_string(size) + " name=" + b->name);
  return 0;
}
STANDIN_EXPORT aclError aclrtBinaryGetFunction(aclrtBinHandle bin, const char *name, aclrtFuncHandle *func) {
  if (bin == nullptr || name == nullptr || func == nullptr) return kInvalidParam;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto &slot = static_cast<Binary *>(bin)->functions[name];
    if (!slot) slot.reset(new Function{name});
    *func = slot.get();
  }
  Log(std::string("aclrtBinaryGetFunction name=") + name);
  return 0;
}
STANDIN_EXPORT aclError aclrtBinaryUnLoad(aclrtBinHandle bin) {
  if (bin == nullptr) return kInvalidParam;
  Log("aclrtBinaryUnLoad");  // the handle stays valid (see Binaries())
  return 0;
}
STANDIN_EXPORT aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle func, uint32_t blocks, aclrtStream, void *,
                                                      void *args, size_t size, void *, size_t) {
  return Launch("aclrtLaunchKernelWithHostArgs", func, blocks, args, size);
}
STANDIN_EXPORT aclError aclrtLaunchKernelV2(aclrtFuncHandle func, uint32_t blocks, const void *args, size_t size, void *,
                                            aclrtStream) {
  return Launch("aclrtLaunchKernelV2", func, blocks, args, size);
}
