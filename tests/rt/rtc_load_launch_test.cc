// RTC output loaded by libascendcl and launched: exact results over several block counts
// (float32, int32, float16), Triton's layout, launch observers, and every load/launch error.
#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "openatc/host_kernel.h"
#include "openatc/rt/runtime.h"
#include "rtc_test_util.h"

using rttest::Compile;

namespace {

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }
std::string LastError() { return aclGetRecentErrMsg(); }

/** Compiles once per option set and keeps the bytes (compiles take ~1 s). */
const std::vector<uint8_t> &Binary(const std::string &type) {
  static std::map<std::string, std::vector<uint8_t>> cache;
  auto it = cache.find(type);
  if (it != cache.end()) return it->second;
  auto r = Compile(rttest::kAddKernel, {"-DT=" + type, "--npu-arch=dav-0"}, "add_custom");
  INFO(r.log << r.error);
  REQUIRE(r.rc == ACL_SUCCESS);
  return cache[type] = r.binary;
}

aclrtBinHandle Load(const std::vector<uint8_t> &bin) {
  aclrtBinaryLoadOption option;
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle h = nullptr;
  aclError rc = aclrtBinaryLoadFromData(bin.data(), bin.size(), &options, &h);
  INFO(LastError());
  REQUIRE(rc == ACL_SUCCESS);
  return h;
}

aclrtFuncHandle Function(aclrtBinHandle bin, const char *name) {
  aclrtFuncHandle f = nullptr;
  REQUIRE(aclrtBinaryGetFunction(bin, name, &f) == ACL_SUCCESS);
  return f;
}

#pragma pack(push, 1)
struct AddArgs {
  void *x, *y, *z;
  uint32_t n;
};
#pragma pack(pop)

template <typename T>
void RunAdd(const std::string &type, const std::vector<T> &x, const std::vector<T> &y, const std::vector<T> &expected) {
  aclrtBinHandle bin = Load(Binary(type));
  aclrtFuncHandle f = Function(bin, "add_custom");
  const uint32_t n = static_cast<uint32_t>(x.size());
  for (uint32_t blocks : {1u, 3u, 7u, 64u, n}) {
    std::vector<T> z(n, T(0));
    AddArgs args{const_cast<T *>(x.data()), const_cast<T *>(y.data()), z.data(), n};
    INFO("blocks " << blocks);
    REQUIRE(aclrtLaunchKernelWithHostArgs(f, blocks, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(z[i] == expected[i]);
  }
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}

}  // namespace

TEST_CASE("float32 add over several block counts is exact", "[rt][launch]") {
  std::vector<float> x(1000), y(1000), expected(1000);
  for (int i = 0; i < 1000; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 3.0f - static_cast<float>(i);
    expected[i] = 3.0f - 0.5f * static_cast<float>(i);  // exact in float32 for i < 1000
  }
  RunAdd<float>("float", x, y, expected);
}

TEST_CASE("int32 add over several block counts is exact", "[rt][launch]") {
  std::vector<int32_t> x(777), y(777), expected(777);
  for (int i = 0; i < 777; ++i) {
    x[i] = 7 * i;
    y[i] = 5 - 2 * i;
    expected[i] = 5 * i + 5;
  }
  RunAdd<int32_t>("int32_t", x, y, expected);
}

#ifdef OPENATC_HOST_KERNEL_HAS_HALF
TEST_CASE("float16 add (clang-19 _Float16) is exact", "[rt][launch]") {
  std::vector<half> x(300), y(300), expected(300);
  for (int i = 0; i < 300; ++i) {
    x[i] = static_cast<half>(0.25f * static_cast<float>(i % 64));
    y[i] = static_cast<half>(1.0f);
    expected[i] = static_cast<half>(0.25f * static_cast<float>(i % 64) + 1.0f);  // <= 16.75, exact in fp16
  }
  RunAdd<half>("half", x, y, expected);
}
#endif

TEST_CASE("every block runs once with its index and the block count", "[rt][launch]") {
  aclrtBinHandle bin = Load(Binary("float"));
  aclrtFuncHandle f = Function(bin, "block_info");
  openatc::rt::SetThreadCount(4);
  for (uint32_t blocks : {1u, 5u, 300u, 65535u}) {
    std::vector<int64_t> out(blocks, -1);
    void *p = out.data();
    REQUIRE(aclrtLaunchKernelWithHostArgs(f, blocks, nullptr, nullptr, &p, sizeof p, nullptr, 0) == ACL_SUCCESS);
    for (uint32_t b = 0; b < blocks; ++b) REQUIRE(out[b] == int64_t(b) * 100000 + blocks);
  }
  openatc::rt::SetThreadCount(0);
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}

TEST_CASE("Triton-style args through RTC, load and launch", "[rt][launch]") {
  auto r = Compile(rttest::kTritonKernel, {"--npu-arch=dav-2201"}, "add_kernel");
  INFO(r.log << r.error);
  REQUIRE(r.rc == ACL_SUCCESS);
  aclrtBinHandle bin = Load(r.binary);
  aclrtFuncHandle f = Function(bin, "add_kernel");
  struct {
    void *sync_block_lock;
    void *workspace_addr;
    const void *x;
    const void *y;
    void *out;
    int32_t n_elements;
    int32_t grid_x, grid_y, grid_z;
  } args;
  std::vector<float> x(10), y(10), out(10, -1.0f);
  for (int i = 0; i < 10; ++i) {
    x[i] = static_cast<float>(i) * 2.0f;
    y[i] = 0.5f;
  }
  int32_t ws[4] = {0, 0, 0, 0};
  args = {nullptr, ws, x.data(), y.data(), out.data(), 10, 3, 1, 1};
  REQUIRE(sizeof args == 56);
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 3, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);
  for (int i = 0; i < 10; ++i) REQUIRE(out[i] == static_cast<float>(i) * 2.0f + 0.5f);
  REQUIRE(ws[0] == 3);
  REQUIRE(ws[1] == 1);
  REQUIRE(ws[2] == 1);
  REQUIRE(ws[3] == 10);
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}

TEST_CASE("aclrtLaunchKernelV2 reads caller-owned args; observers see both launch forms", "[rt][launch]") {
  aclrtBinHandle bin = Load(Binary("float"));
  aclrtFuncHandle f = Function(bin, "add_custom");
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  std::vector<openatc::rt::LaunchRecord> seen;
  REQUIRE(openatc::rt::SetLaunchObserver(stream, [&](const openatc::rt::LaunchRecord &r) { seen.push_back(r); }) ==
          ACL_SUCCESS);
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40}, z(4, 0.0f);
  AddArgs args{x.data(), y.data(), z.data(), 4};
  void *dev_args = nullptr;
  REQUIRE(aclrtMalloc(&dev_args, sizeof args, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(dev_args, sizeof args, &args, sizeof args, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclrtLaunchKernelV2(f, 2, dev_args, sizeof args, nullptr, stream) == ACL_SUCCESS);
  REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  REQUIRE(z == std::vector<float>{11, 22, 33, 44});
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 4, stream, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);

  REQUIRE(seen.size() == 2);
  REQUIRE(seen[0].func == f);
  REQUIRE(seen[0].kernel_name == "add_custom");
  REQUIRE(seen[0].block_dim == 2);
  REQUIRE_FALSE(seen[0].host_args_copied);
  REQUIRE(seen[0].args_ptr == dev_args);
  REQUIRE(seen[0].args_size == 28);
  REQUIRE(seen[1].host_args_copied);
  REQUIRE(seen[1].block_dim == 4);
  REQUIRE(seen[1].host_args.size() == 28);
  REQUIRE(std::memcmp(seen[1].host_args.data(), &args, 28) == 0);
  REQUIRE(openatc::rt::FunctionName(f) == "add_custom");
  REQUIRE(openatc::rt::FunctionBinary(f) == bin);
  REQUIRE(openatc::rt::BinaryBytes(bin) == Binary("float"));

  // the default stream has no observer
  REQUIRE(aclrtLaunchKernelV2(f, 1, dev_args, sizeof args, nullptr, nullptr) == ACL_SUCCESS);
  REQUIRE(seen.size() == 2);
  REQUIRE(openatc::rt::ClearLaunchObserver(stream) == ACL_SUCCESS);
  REQUIRE(aclrtLaunchKernelV2(f, 1, dev_args, sizeof args, nullptr, stream) == ACL_SUCCESS);
  REQUIRE(seen.size() == 2);
  REQUIRE(aclrtDestroyStream(stream) == ACL_SUCCESS);
  REQUIRE(aclrtFree(dev_args) == ACL_SUCCESS);
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}

TEST_CASE("identical bytes load once and are reference-counted", "[rt][load]") {
  const auto &bytes = Binary("float");
  std::vector<uint8_t> copy = bytes;  // same content, different address
  aclrtBinHandle a = Load(bytes);
  aclrtBinHandle b = Load(copy);
  REQUIRE(a == b);
  aclrtFuncHandle fa = Function(a, "add_custom");
  aclrtFuncHandle fb = Function(b, "add_custom");
  REQUIRE(fa == fb);
  REQUIRE(aclrtBinaryUnLoad(a) == ACL_SUCCESS);
  // still loaded: one reference left
  std::vector<float> x = {1}, y = {2}, z = {0};
  AddArgs args{x.data(), y.data(), z.data(), 1};
  REQUIRE(aclrtLaunchKernelWithHostArgs(fb, 1, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);
  REQUIRE(z[0] == 3.0f);
  REQUIRE(aclrtBinaryUnLoad(b) == ACL_SUCCESS);
  REQUIRE(aclrtBinaryUnLoad(b) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtBinaryUnLoad: binHandle is not a loaded binary (null, never loaded, or already unloaded). "
                         "Pass a handle from aclrtBinaryLoadFromData/FromFile.");
  REQUIRE(aclrtLaunchKernelWithHostArgs(fb, 1, nullptr, nullptr, &args, sizeof args, nullptr, 0) ==
          ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "funcHandle is not a kernel of a loaded binary"));
  // a different binary after unloading loads fine (fd path reuse must not return the old object)
  aclrtBinHandle c = Load(Binary("int32_t"));
  aclrtFuncHandle fc = Function(c, "add_custom");
  std::vector<int32_t> xi = {5}, yi = {6}, zi = {0};
  AddArgs iargs{xi.data(), yi.data(), zi.data(), 1};
  REQUIRE(aclrtLaunchKernelWithHostArgs(fc, 1, nullptr, nullptr, &iargs, sizeof iargs, nullptr, 0) == ACL_SUCCESS);
  REQUIRE(zi[0] == 11);
  REQUIRE(aclrtBinaryUnLoad(c) == ACL_SUCCESS);
}

TEST_CASE("loading refuses non-ELF bytes, wrong machine/type and wrong ABI version", "[rt][load]") {
  aclrtBinHandle h = nullptr;
  const char junk[] = "hello, this is not an ELF file";
  REQUIRE(aclrtBinaryLoadFromData(junk, sizeof junk, nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(Contains(LastError(), "aclrtBinaryLoadFromData: in-memory binary (31 bytes, xxh3 "));
  REQUIRE(Contains(LastError(), ") is not an ELF file (31 bytes, starting with 68 65 6c 6c 6f 2c 20 74)."));
  REQUIRE(aclrtBinaryLoadFromData(nullptr, 10, nullptr, &h) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtBinaryLoadFromData: data is a null pointer. Pass the kernel binary's bytes and their count.");
  REQUIRE(aclrtBinaryLoadFromData(junk, 0, nullptr, &h) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtBinaryLoadFromData(junk, sizeof junk, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);

  std::vector<uint8_t> other_machine = Binary("float");
  uint16_t machine = EM_AARCH64 == EM_X86_64 ? 0 : (
#if defined(__x86_64__)
                                                      EM_AARCH64
#else
                                                      EM_X86_64
#endif
                                                  );
  std::memcpy(other_machine.data() + offsetof(Elf64_Ehdr, e_machine), &machine, 2);
  REQUIRE(aclrtBinaryLoadFromData(other_machine.data(), other_machine.size(), nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(Contains(LastError(), "is built for "));
  REQUIRE(Contains(LastError(), ", but this host is "));

  std::vector<uint8_t> relocatable = Binary("float");
  uint16_t type = ET_REL;
  std::memcpy(relocatable.data() + offsetof(Elf64_Ehdr, e_type), &type, 2);
  REQUIRE(aclrtBinaryLoadFromData(relocatable.data(), relocatable.size(), nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(Contains(LastError(), "is a relocatable object, not a shared object."));

  auto wrong_abi = Compile("extern \"C\" unsigned openatc_host_kernel_abi_version() { return 999; }\n"
                           "extern \"C\" void k(const void *, unsigned long) {}\n");
  REQUIRE(wrong_abi.rc == ACL_SUCCESS);
  REQUIRE(aclrtBinaryLoadFromData(wrong_abi.binary.data(), wrong_abi.binary.size(), nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(Contains(LastError(), "has host kernel ABI version 999, but this runtime supports version 1. Rebuild the kernel "
                                "with this SDK's openatc/host_kernel.h."));

  auto no_abi = Compile("extern \"C\" void k(const void *, unsigned long) {}\n");
  REQUIRE(no_abi.rc == ACL_SUCCESS);
  REQUIRE(aclrtBinaryLoadFromData(no_abi.binary.data(), no_abi.binary.size(), nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(Contains(LastError(), "does not export openatc_host_kernel_abi_version, so it is not a host kernel binary"));

  REQUIRE(aclrtBinaryLoadFromFile("/nonexistent/kernel.so", nullptr, &h) == ACL_ERROR_INVALID_FILE);
  REQUIRE(LastError() == "aclrtBinaryLoadFromFile: cannot open kernel binary '/nonexistent/kernel.so': No such file or "
                         "directory. Check the path and its permissions.");
}

TEST_CASE("unknown kernel names, bad handles and bad launches are refused with text", "[rt][load]") {
  aclrtBinHandle bin = Load(Binary("float"));
  aclrtFuncHandle f = nullptr;
  REQUIRE(aclrtBinaryGetFunction(bin, "no_such_kernel", &f) == ACL_ERROR_KERNEL_NOT_FOUND);
  REQUIRE(ACL_ERROR_KERNEL_NOT_FOUND == 100029);
  REQUIRE(Contains(LastError(), "aclrtBinaryGetFunction: kernel 'no_such_kernel' is not exported by in-memory binary ("));
  REQUIRE(aclrtBinaryGetFunction(nullptr, "add_custom", &f) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtBinaryGetFunction(bin, nullptr, &f) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtBinaryGetFunction: kernelName is a null pointer.");

  f = Function(bin, "add_custom");
  std::vector<float> x = {1}, y = {2}, z = {0};
  AddArgs args{x.data(), y.data(), z.data(), 1};
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 0, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtLaunchKernelWithHostArgs: numBlocks 0 for kernel 'add_custom' is outside 1..65535. Launch "
                         "between 1 and 65535 blocks.");
  REQUIRE(aclrtLaunchKernelV2(f, 65536, &args, sizeof args, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "numBlocks 65536 for kernel 'add_custom' is outside 1..65535"));
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 1, nullptr, nullptr, &args, 24, nullptr, 0) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtLaunchKernelWithHostArgs: kernel 'add_custom' reads 28 bytes of packed arguments, but the "
                         "launch passes 24. Pass an args block holding every kernel parameter (each at its natural "
                         "alignment).");
  REQUIRE(z[0] == 0.0f);
  aclrtPlaceHolderInfo ph{0, 0};
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 1, nullptr, nullptr, &args, sizeof args, &ph, 1) == ACL_ERROR_FEATURE_UNSUPPORTED);
  REQUIRE(Contains(LastError(), "placeholders (placeHolderNum 1) are not supported by the host runtime"));
  int bogus = 0;
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 1, &bogus, nullptr, &args, sizeof args, nullptr, 0) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "is not a live stream"));
  REQUIRE(aclrtLaunchKernelV2(&bogus, 1, &args, sizeof args, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtLaunchKernelV2(f, 1, nullptr, 28, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(LastError() == "aclrtLaunchKernelV2: the args pointer is null but argsSize is 28.");
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}
