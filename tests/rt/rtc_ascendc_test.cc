// The host RTC on Ascend C source (docs/architecture.md "Host RTC"): --npu-arch, generated kernel
// entries (extern "C", C++ linkage, templates through name expressions), the load options and
// the three launch forms with the Ascend args layout.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "rtc_test_util.h"

namespace {

using rttest::Compile;

// Our own kernels, written as Ascend C kernels are: only the skeleton API and raw __gm__ pointers.
const char *const kAscendSource = R"(
#include "kernel_operator.h"
// a comment naming __global__ void not_a_kernel(int) {}
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  const int64_t base = AscendC::GetBlockIdx() * 8;
  __gm__ const float *a = reinterpret_cast<__gm__ const float *>(x);
  __gm__ const float *b = reinterpret_cast<__gm__ const float *>(y);
  __gm__ float *c = reinterpret_cast<__gm__ float *>(z);
  for (int64_t i = base; i < base + 8; ++i) c[i] = a[i] + b[i];
}
extern "C" __global__ __aicore__ void arch_info(GM_ADDR out) {
  __gm__ int64_t *o = reinterpret_cast<__gm__ int64_t *>(out);
#ifdef __NPU_ARCH__
  o[0] = __NPU_ARCH__;
#else
  o[0] = -1;
#endif
#ifdef OPENATC_ASCENDC_UB_SIZE
  o[1] = OPENATC_ASCENDC_UB_SIZE;
#else
  o[1] = -1;
#endif
  o[2] = __cplusplus;
  o[3] = AscendC::GetBlockNum();
}
// C++ linkage, mixed parameter sizes: x at 0, n at 8, factor at 12 (16 bytes).
__global__ __vector__ void scale(GM_ADDR x, uint32_t n, float factor) {
  __gm__ float *p = reinterpret_cast<__gm__ float *>(x);
  if (AscendC::GetBlockIdx() == 0) {
    for (uint32_t i = 0; i < n; ++i) p[i] *= factor;
  }
}
template <typename T, uint32_t N>
__global__ __aicore__ void fill(GM_ADDR out, T value) {
  __gm__ T *o = reinterpret_cast<__gm__ T *>(out);
  for (uint32_t i = 0; i < N; ++i) o[AscendC::GetBlockIdx() * N + i] = value + static_cast<T>(i);
}
)";

std::string LastError() { return aclGetRecentErrMsg(); }
bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// `type` as an int: an unknown type (outside the enum's values) is written as bytes, as a C caller could.
aclrtBinHandle LoadWith(const std::vector<uint8_t> &bin, int32_t type, uint32_t value, aclError *rc) {
  aclrtBinaryLoadOption option;
  std::memset(&option, 0, sizeof option);
  std::memcpy(&option.type, &type, sizeof type);
  option.value.magic = value;
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle h = nullptr;
  *rc = aclrtBinaryLoadFromData(bin.data(), bin.size(), &options, &h);
  return h;
}

aclrtBinHandle Load(const std::vector<uint8_t> &bin) {
  aclError rc = 0;
  aclrtBinHandle h = LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_MAGIC, ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, &rc);
  INFO(LastError());
  REQUIRE(rc == ACL_SUCCESS);
  return h;
}

aclrtFuncHandle Function(aclrtBinHandle bin, const char *name) {
  aclrtFuncHandle f = nullptr;
  INFO(name);
  REQUIRE(aclrtBinaryGetFunction(bin, name, &f) == ACL_SUCCESS);
  return f;
}

const std::vector<uint8_t> &AscendBinary() {
  static std::vector<uint8_t> bin;
  if (bin.empty()) {
    auto r = Compile(kAscendSource, {"--npu-arch=dav-2201"}, "add_custom");
    INFO(r.log << r.error);
    REQUIRE(r.rc == ACL_SUCCESS);
    bin = r.binary;
  }
  return bin;
}

struct __attribute__((packed)) AddArgs {
  const void *x __attribute__((aligned(8)));
  const void *y __attribute__((aligned(8)));
  void *z __attribute__((aligned(8)));
};

std::vector<int64_t> ArchInfo(const std::vector<uint8_t> &bin) {
  aclrtBinHandle h = Load(bin);
  std::vector<int64_t> out(4, 0);
  void *p = out.data();
  REQUIRE(aclrtLaunchKernelWithHostArgs(Function(h, "arch_info"), 1, nullptr, nullptr, &p, sizeof p, nullptr, 0) == 0);
  REQUIRE(aclrtBinaryUnLoad(h) == ACL_SUCCESS);
  return out;
}

}  // namespace

TEST_CASE("an Ascend C add_custom compiled with --npu-arch=dav-2201 runs with GE's three launch forms", "[rt][ascendc]") {
  REQUIRE(sizeof(AddArgs) == 24);
  aclrtBinHandle bin = Load(AscendBinary());
  aclrtFuncHandle f = Function(bin, "add_custom");
  const uint32_t blocks = 4, n = blocks * 8;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = 1.5f * static_cast<float>(i);
    y[i] = 100.0f - static_cast<float>(i);
  }
  auto check = [&](const std::vector<float> &z) {
    for (uint32_t i = 0; i < n; ++i) REQUIRE(z[i] == 100.0f + 0.5f * static_cast<float>(i));
  };
  SECTION("WithHostArgs, a packed struct of three pointers") {
    std::vector<float> z(n, -1.0f);
    AddArgs args{x.data(), y.data(), z.data()};
    REQUIRE(aclrtLaunchKernelWithHostArgs(f, blocks, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);
    check(z);
  }
  SECTION("V2, the args block read in place") {
    std::vector<float> z(n, -1.0f);
    AddArgs args{x.data(), y.data(), z.data()};
    REQUIRE(aclrtLaunchKernelV2(f, blocks, &args, sizeof args, nullptr, nullptr) == ACL_SUCCESS);
    check(z);
  }
  SECTION("WithConfig, an args handle of three appended uint64 addresses") {
    std::vector<float> z(n, -1.0f);
    aclrtArgsHandle h = nullptr;
    REQUIRE(aclrtKernelArgsInit(f, &h) == ACL_SUCCESS);
    for (void *p : {static_cast<void *>(x.data()), static_cast<void *>(y.data()), static_cast<void *>(z.data())}) {
      uint64_t v = reinterpret_cast<uintptr_t>(p);
      aclrtParamHandle ph = nullptr;
      REQUIRE(aclrtKernelArgsAppend(h, &v, sizeof v, &ph) == ACL_SUCCESS);
      REQUIRE(ph != nullptr);
    }
    REQUIRE(aclrtLaunchKernelWithConfig(f, blocks, nullptr, nullptr, h, nullptr) == ACL_ERROR_INVALID_PARAM);
    REQUIRE(Contains(LastError(), "not finalized"));
    REQUIRE(aclrtKernelArgsFinalize(h) == ACL_SUCCESS);
    uint64_t extra = 0;
    REQUIRE(aclrtKernelArgsAppend(h, &extra, 8, nullptr) == ACL_ERROR_INVALID_PARAM);
    REQUIRE(aclrtLaunchKernelWithConfig(f, blocks, nullptr, nullptr, h, nullptr) == ACL_SUCCESS);
    check(z);
  }
  SECTION("too few argument bytes are refused before any block runs") {
    std::vector<float> z(n, -1.0f);
    AddArgs args{x.data(), y.data(), z.data()};
    REQUIRE(aclrtLaunchKernelWithHostArgs(f, blocks, nullptr, nullptr, &args, 16, nullptr, 0) == ACL_ERROR_INVALID_PARAM);
    REQUIRE(Contains(LastError(), "kernel 'add_custom' reads 24 bytes of packed arguments, but the launch passes 16"));
    REQUIRE(z[0] == -1.0f);
  }
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);
}

TEST_CASE("--npu-arch and --npu-soc select the chip's facts; -std of the user wins", "[rt][ascendc]") {
  const std::vector<int64_t> want_2201 = {2201, 196608, 201703, 1};
  REQUIRE(ArchInfo(AscendBinary()) == want_2201);
  auto soc = Compile(kAscendSource, {"--npu-soc=Ascend910B1", "-std=c++20", "-O1", "-g", "-DUNUSED=1"}, "k");
  INFO(soc.log << soc.error);
  REQUIRE(soc.rc == ACL_SUCCESS);
  const std::vector<int64_t> want_20 = {2201, 196608, 202002, 1};
  REQUIRE(ArchInfo(soc.binary) == want_20);
  auto host = Compile(kAscendSource, {"--npu-arch=dav-0"}, "k");
  REQUIRE(host.rc == ACL_SUCCESS);
  // No chip: no __NPU_ARCH__, and no UB size from the toolchain, so kernel_operator.h's default
  // (include/ascendc/kernel_operator_base.h) is what the kernel sees.
  const std::vector<int64_t> want_host = {-1, 196608, 201703, 1};
  REQUIRE(ArchInfo(host.binary) == want_host);
}

TEST_CASE("unknown options and architectures are refused naming them", "[rt][ascendc]") {
  auto bad = Compile(kAscendSource, {"--npu-arch=dav-2201", "-ffast-math"}, "k");
  REQUIRE(bad.rc == ACL_ERROR_RTC_INVALID_OPTION);
  REQUIRE(Contains(bad.error, "option '-ffast-math' is not supported by the host RTC"));
  auto arch = Compile(kAscendSource, {"--npu-arch=dav-9999"}, "k");
  REQUIRE(arch.rc == ACL_ERROR_RTC_INVALID_OPTION);
  REQUIRE(Contains(arch.error, "--npu-arch=dav-9999 is not an NPU architecture this host toolchain emulates"));
  REQUIRE(Contains(arch.error, "dav-2201 (Ascend910B1)"));
  auto word = Compile(kAscendSource, {"--npu-arch=c220"}, "k");
  REQUIRE(word.rc == ACL_ERROR_RTC_INVALID_OPTION);
  auto soc = Compile(kAscendSource, {"--npu-soc=Ascend000"}, "k");
  REQUIRE(soc.rc == ACL_ERROR_RTC_INVALID_OPTION);
  REQUIRE(Contains(soc.error, "--npu-soc=Ascend000 is not a SoC this host toolchain emulates"));
}

TEST_CASE("C++-linkage and template kernels: entries, name expressions and the args layout", "[rt][ascendc]") {
  const char *src = kAscendSource;
  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(&prog, src, "k", 0, nullptr, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtcAddNameExpr(prog, "fill<int32_t, 3>") == ACL_SUCCESS);
  const char *lowered = nullptr;
  REQUIRE(aclrtcGetLoweredName(prog, "fill<int32_t, 3>", &lowered) == ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  const char *opts[] = {"--npu-arch=dav-2201"};
  REQUIRE(aclrtcCompileProg(prog, 1, opts) == ACL_SUCCESS);
  REQUIRE(aclrtcAddNameExpr(prog, "fill<int32_t, 4>") == ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION);
  REQUIRE(aclrtcGetLoweredName(prog, "fill<int32_t, 3>", &lowered) == ACL_SUCCESS);
  REQUIRE(std::string(lowered) == "fill__openatc_expr_0");
  REQUIRE(aclrtcGetLoweredName(prog, "fill<float, 3>", &lowered) == ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  size_t size = 0;
  REQUIRE(aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS);
  std::vector<uint8_t> bin(size);
  REQUIRE(aclrtcGetBinData(prog, reinterpret_cast<char *>(bin.data())) == ACL_SUCCESS);
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);

  aclrtBinHandle h = Load(bin);
  std::vector<float> v = {1.0f, 2.0f, 3.0f, 4.0f};
  unsigned char scale_args[16] = {};
  void *p = v.data();
  uint32_t n = 3;
  float factor = 2.5f;
  std::memcpy(scale_args, &p, 8);
  std::memcpy(scale_args + 8, &n, 4);
  std::memcpy(scale_args + 12, &factor, 4);
  REQUIRE(aclrtLaunchKernelWithHostArgs(Function(h, "scale"), 2, nullptr, nullptr, scale_args, 16, nullptr, 0) == 0);
  REQUIRE(v == std::vector<float>{2.5f, 5.0f, 7.5f, 4.0f});

  std::vector<int32_t> out(6, 0);
  unsigned char fill_args[12] = {};
  void *o = out.data();
  int32_t value = 40;
  std::memcpy(fill_args, &o, 8);
  std::memcpy(fill_args + 8, &value, 4);
  REQUIRE(aclrtLaunchKernelWithHostArgs(Function(h, "fill__openatc_expr_0"), 2, nullptr, nullptr, fill_args, 12, nullptr,
                                        0) == ACL_SUCCESS);
  REQUIRE(out == std::vector<int32_t>{40, 41, 42, 40, 41, 42});

  aclrtFuncHandle missing = nullptr;
  REQUIRE(aclrtBinaryGetFunction(h, "fill", &missing) == ACL_ERROR_KERNEL_NOT_FOUND);
  REQUIRE(Contains(LastError(), "kernel 'fill' is not exported by in-memory binary"));
  REQUIRE(Contains(LastError(), "neither the Ascend C entry openatc_ascendc_entry_fill nor the host kernel entry fill"));
  REQUIRE(aclrtBinaryGetFunction(h, "not_a_kernel", &missing) == ACL_ERROR_KERNEL_NOT_FOUND);
  REQUIRE(aclrtBinaryUnLoad(h) == ACL_SUCCESS);
}

TEST_CASE("the load options of the samples are accepted, unknown ones refused", "[rt][ascendc]") {
  const auto &bin = AscendBinary();
  for (uint32_t magic : {ACL_RT_BINARY_MAGIC_ELF_AICORE, ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE}) {
    aclError rc = -1;
    aclrtBinHandle h = LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_MAGIC, magic, &rc);
    REQUIRE(rc == ACL_SUCCESS);
    REQUIRE(aclrtBinaryUnLoad(h) == ACL_SUCCESS);
  }
  aclError rc = -1;
  aclrtBinHandle lazy = LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, 1, &rc);
  REQUIRE(rc == ACL_SUCCESS);
  // Identical bytes load once: the same handle, reference-counted.
  aclrtBinHandle again = LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_MAGIC, ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, &rc);
  REQUIRE(again == lazy);
  REQUIRE(aclrtBinaryUnLoad(again) == ACL_SUCCESS);
  REQUIRE(aclrtBinaryUnLoad(lazy) == ACL_SUCCESS);

  LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_MAGIC, 0x12345678u, &rc);
  REQUIRE(rc == ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "load option 0 (ACL_RT_BINARY_LOAD_OPT_MAGIC) has unknown magic 0x12345678"));
  LoadWith(bin, 9, 0, &rc);
  REQUIRE(rc == ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "load option 0 has unknown type 9"));
  LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, 2, &rc);
  REQUIRE(rc == ACL_ERROR_INVALID_PARAM);
  LoadWith(bin, ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, 1, &rc);
  REQUIRE(rc == ACL_ERROR_INVALID_PARAM);
  REQUIRE(Contains(LastError(), "AI CPU kernel binaries are not supported"));
}

TEST_CASE("aclrtLaunchKernelWithArgsArray packs one pointer per parameter (Ascend C kernels only)", "[rt][ascendc]") {
  aclrtBinHandle bin = Load(AscendBinary());
  std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
  std::vector<float> y(8, 0.5f), z(8, 0.0f);
  void *px = x.data(), *py = y.data(), *pz = z.data();
  void *add_args[] = {&px, &py, &pz};
  REQUIRE(aclrtLaunchKernelWithArgsArray(Function(bin, "add_custom"), 1, nullptr, nullptr, add_args) == ACL_SUCCESS);
  REQUIRE(z == std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f});
  uint32_t n = 2;
  float factor = -2.0f;
  void *scale_args[] = {&px, &n, &factor};
  REQUIRE(aclrtLaunchKernelWithArgsArray(Function(bin, "scale"), 1, nullptr, nullptr, scale_args) == ACL_SUCCESS);
  REQUIRE(x == std::vector<float>{-2.0f, -4.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f});
  REQUIRE(aclrtBinaryUnLoad(bin) == ACL_SUCCESS);

  auto host = Compile(rttest::kAddKernel, {"-DT=float"}, "add_custom");
  REQUIRE(host.rc == ACL_SUCCESS);
  aclrtBinHandle hb = Load(host.binary);
  REQUIRE(aclrtLaunchKernelWithArgsArray(Function(hb, "add_custom"), 1, nullptr, nullptr, add_args) ==
          ACL_ERROR_FEATURE_UNSUPPORTED);
  REQUIRE(Contains(LastError(), "kernel 'add_custom' is a host-ABI kernel, whose parameter layout the runtime does not know"));
  REQUIRE(aclrtBinaryUnLoad(hb) == ACL_SUCCESS);
}
