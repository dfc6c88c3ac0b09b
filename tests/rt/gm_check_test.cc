// Checked global memory (openatc/gm_check.h, openatc/rt/gm_registry.h): the registry's innermost
// lookup and `ok` prefix, and a kernel compiled at test time by the host RTC from our own source
// that reports each access through the ABI as the Ascend C host library does, launched over
// aclrtMalloc blocks with a deliberate overrun. The default run is OPENATC_GM_CHECK unset (fail);
// the hidden tags run as separate ctest entries with OPENATC_GM_CHECK=warn / =bogus
// (tests/rt/CMakeLists.txt), since the mode is read once at library start.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "openatc/rt/gm_registry.h"
#include "rtc_test_util.h"

using openatc::rt::GmBuffer;
using openatc::rt::GmRegistry;

namespace {

const void *At(uintptr_t a) { return reinterpret_cast<const void *>(a); }

// Each block copies `per` bytes from src + block*per to dst + block*per, each side one checked
// access ("DataCopy"); in warn mode it reads zeros and drops writes past the buffer's end.
const char *const kCopyKernel = R"(
#include "openatc/gm_check.h"
#include "openatc/host_kernel.h"
static const openatc_gm_checker *g_checker = nullptr;
extern "C" __attribute__((visibility("default"))) void openatc_host_kernel_set_gm_checker(const openatc_gm_checker *c) {
  g_checker = c;
}
struct Stopped {};
static uint64_t Checked(const void *p, uint64_t n, int write) {
  if (g_checker == nullptr) return n;
  int stop = 0;
  uint64_t ok = g_checker->check(p, n, write, "DataCopy", &stop);
  if (stop) throw Stopped{};
  return ok;
}
OPENATC_HOST_KERNEL(gm_copy, GM_ADDR src, GM_ADDR dst, uint32_t per) {
  uint8_t tmp[256] = {0};
  uint64_t off = static_cast<uint64_t>(per) * GetBlockIdx();
  memcpy(tmp, src + off, Checked(src + off, per, 0));
  memcpy(dst + off, tmp, Checked(dst + off, per, 1));
}
)";

#pragma pack(push, 1)
struct CopyArgs {
  void *src, *dst;
  uint32_t per;
};
#pragma pack(pop)

aclrtFuncHandle CopyKernel() {
  static aclrtFuncHandle f = [] {
    auto r = rttest::Compile(kCopyKernel, {"--npu-arch=dav-0"}, "gm_copy");
    INFO(r.log << r.error);
    REQUIRE(r.rc == ACL_SUCCESS);
    aclrtBinHandle bin = nullptr;
    REQUIRE(aclrtBinaryLoadFromData(r.binary.data(), r.binary.size(), nullptr, &bin) == ACL_SUCCESS);
    aclrtFuncHandle fn = nullptr;
    REQUIRE(aclrtBinaryGetFunction(bin, "gm_copy", &fn) == ACL_SUCCESS);
    return fn;
  }();
  return f;
}

aclError Copy(void *src, void *dst, uint32_t per, uint32_t blocks = 1) {
  CopyArgs args{src, dst, per};
  return aclrtLaunchKernelWithHostArgs(CopyKernel(), blocks, nullptr, nullptr, &args, sizeof args, nullptr, 0);
}

uint8_t *Malloc(size_t n, uint8_t fill) {
  void *p = nullptr;
  REQUIRE(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  std::memset(p, fill, n);
  return static_cast<uint8_t *>(p);
}

// What `body` prints on stderr (fd 2), through a temporary file.
template <typename F>
std::string Stderr(F &&body) {
  std::fflush(stderr);
  char name[] = "/tmp/gm_check_test_XXXXXX";
  int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  int saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string out;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  unlink(name);
  return out;
}

const char kWarnTail[] =
    ". OPENATC_GM_CHECK=warn: the bytes outside the buffer were not written (writes) or read as zeros (reads); "
    "this is reported once per kernel, block and buffer\n";

}  // namespace

TEST_CASE("the registry finds the innermost buffer and the in-bounds prefix", "[rt][gm]") {
  GmRegistry r;
  const uint64_t outer = r.Add(At(0x1000), 0x100, "outer");
  const uint64_t inner = r.Add(At(0x1040), 0x40, "inner");
  REQUIRE(outer != 0);
  REQUIRE(inner != 0);
  GmBuffer b;
  REQUIRE(r.Find(At(0x1050), &b));
  CHECK(b.label == "inner");
  CHECK(b.base == 0x1040);
  CHECK(b.size == 0x40);
  REQUIRE(r.Find(At(0x1080), &b));  // one past inner: the enclosing buffer
  CHECK(b.label == "outer");
  REQUIRE(r.Find(At(0x10ff), &b));
  CHECK(b.label == "outer");
  CHECK_FALSE(r.Find(At(0x1100), &b));
  CHECK_FALSE(r.Find(At(0xfff), &b));
  CHECK(r.InBounds(At(0x1040), 64, &b) == 64);  // ends exactly at inner's end: allowed
  CHECK(r.InBounds(At(0x1041), 64, &b) == 63);  // one byte past: ok = size - 1
  CHECK(b.label == "inner");
  CHECK(r.InBounds(At(0x1070), 32, nullptr) == 16);
  CHECK(r.InBounds(At(0x10f0), 0x20, nullptr) == 0x10);
  CHECK(r.InBounds(At(0x2000), 8, nullptr) == 0);
  CHECK(r.Covers(At(0x1040), 0x40));
  CHECK(r.Covers(At(0x1040), 0x41));  // the outer buffer holds all of it
  CHECK_FALSE(r.Covers(At(0x10f0), 0x11));
  r.Remove(inner);
  REQUIRE(r.Find(At(0x1050), &b));
  CHECK(b.label == "outer");
  CHECK(r.InBounds(At(0x1070), 32, nullptr) == 32);
  r.Remove(outer);
  r.Remove(outer);  // unknown ids are ignored
  CHECK(r.count() == 0);
  CHECK(r.Add(nullptr, 8, "null") == 0);
  CHECK(r.Add(At(0x1000), 0, "empty") == 0);
  CHECK(r.count() == 0);
}

TEST_CASE("buffers sharing a base: the smaller one holds its addresses", "[rt][gm]") {
  GmRegistry r;
  r.Add(At(0x4000), 128, "big");
  r.Add(At(0x4000), 64, "small");
  GmBuffer b;
  REQUIRE(r.Find(At(0x4000), &b));
  CHECK(b.label == "small");
  REQUIRE(r.Find(At(0x403f), &b));
  CHECK(b.label == "small");
  REQUIRE(r.Find(At(0x4040), &b));
  CHECK(b.label == "big");
  CHECK(r.InBounds(At(0x4000), 128, nullptr) == 64);
}

TEST_CASE("aclrtMalloc blocks are registered while they live", "[rt][gm]") {
  uint8_t *p = Malloc(100, 0);
  GmBuffer b;
  REQUIRE(GmRegistry::Process().Find(p + 99, &b));
  CHECK(b.label == "aclrtMalloc block of 100 bytes");
  CHECK(b.base == reinterpret_cast<uintptr_t>(p));
  CHECK(GmRegistry::Process().InBounds(p + 90, 16, nullptr) == 10);
  REQUIRE(aclrtFree(p) == ACL_SUCCESS);
  CHECK(GmRegistry::Process().InBounds(p + 90, 16, nullptr) == 0);
}

TEST_CASE("fail mode: an overrun stops the block and fails the launch naming it", "[rt][gm]") {
  uint8_t *src = Malloc(64, 7), *dst = Malloc(64, 0x5a);
  REQUIRE(Copy(src, dst, 64) == ACL_SUCCESS);  // in bounds, ending exactly at the end
  CHECK(dst[0] == 7);
  CHECK(dst[63] == 7);
  std::memset(dst, 0x5a, 64);
  REQUIRE(Copy(src, dst, 96) == ACL_ERROR_RT_FAILURE);
  const std::string inner =
      "kernel 'gm_copy', block 0 of 1: DataCopy reads 96 bytes at offset 0 of aclrtMalloc block of 64 bytes, 32 bytes "
      "past its end";
  CHECK(std::string(aclGetRecentErrMsg()) ==
        "aclrtLaunchKernelWithHostArgs: global-memory violation (OPENATC_GM_CHECK=fail): " + inner +
            ". Fix the kernel's access or the sizes it is launched with; OPENATC_GM_CHECK=warn reports each such "
            "access once and continues.");
  CHECK(openatc::rt::TakeGmViolation() == inner);
  CHECK(openatc::rt::TakeGmViolation().empty());
  for (int i = 0; i < 64; ++i) REQUIRE(dst[i] == 0x5a);  // the block stopped before writing
  // Block 1 of 2 starts at offset 32 of the 64-byte blocks and overruns them; block 0 is in bounds.
  REQUIRE(Copy(src, dst, 48, 2) == ACL_ERROR_RT_FAILURE);
  CHECK(openatc::rt::TakeGmViolation() ==
        "kernel 'gm_copy', block 1 of 2: DataCopy reads 48 bytes at offset 48 of aclrtMalloc block of 64 bytes, 32 "
        "bytes past its end");
  REQUIRE(aclrtFree(src) == ACL_SUCCESS);
  REQUIRE(aclrtFree(dst) == ACL_SUCCESS);
}

TEST_CASE("fail mode: memory the runtime did not hand out is in no buffer", "[rt][gm]") {
  std::vector<uint8_t> host(64, 1);
  uint8_t *dst = Malloc(64, 0);
  REQUIRE(Copy(host.data(), dst, 16) == ACL_ERROR_RT_FAILURE);
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(host.data()));
  // The message may go on to name the buffer that starts closest below (GmRegistry::Preceding).
  const std::string want = std::string("kernel 'gm_copy', block 0 of 1: DataCopy reads 16 bytes: address ") + addr +
                           " is in no buffer the runtime handed out";
  CHECK(openatc::rt::TakeGmViolation().rfind(want, 0) == 0);
  REQUIRE(aclrtFree(dst) == ACL_SUCCESS);
}

TEST_CASE("warn mode: one warning per kernel, block and buffer; writes dropped, reads zero", "[.gm_warn]") {
  uint8_t *src = Malloc(64, 0), *two = Malloc(128, 0xee), *big = Malloc(128, 0xee);
  for (int i = 0; i < 64; ++i) src[i] = static_cast<uint8_t>(i + 1);
  // Two registered buffers back to back inside one block: the overrun of the left one must not
  // reach the right one.
  openatc::rt::GmRegistration left(two, 64, "left half"), right(two + 64, 64, "right half");
  std::string err = Stderr([&] {
    REQUIRE(Copy(src, two, 96) == ACL_SUCCESS);
    REQUIRE(Copy(src, two, 96) == ACL_SUCCESS);  // the same violations again: no new warning
  });
  CHECK(err ==
        "openatc: warning: OA2208: kernel 'gm_copy', block 0 of 1: DataCopy reads 96 bytes at offset 0 of aclrtMalloc "
        "block of 64 bytes, 32 bytes past its end" + std::string(kWarnTail) +
        "openatc: warning: OA2208: kernel 'gm_copy', block 0 of 1: DataCopy writes 96 bytes at offset 0 of left half, "
        "32 bytes past its end" + kWarnTail);
  for (int i = 0; i < 64; ++i) REQUIRE(two[i] == i + 1);
  for (int i = 64; i < 128; ++i) REQUIRE(two[i] == 0xee);  // the neighbour is untouched
  // Into a buffer large enough: the 32 bytes read past src's end arrive as zeros.
  err = Stderr([&] { REQUIRE(Copy(src, big, 96) == ACL_SUCCESS); });
  CHECK(err.empty());  // src's violation for this kernel and block was already reported
  for (int i = 0; i < 64; ++i) REQUIRE(big[i] == i + 1);
  for (int i = 64; i < 96; ++i) REQUIRE(big[i] == 0);
  for (int i = 96; i < 128; ++i) REQUIRE(big[i] == 0xee);
  CHECK(openatc::rt::TakeGmViolation().empty());
  REQUIRE(aclrtFree(src) == ACL_SUCCESS);
  REQUIRE(aclrtFree(two) == ACL_SUCCESS);
  REQUIRE(aclrtFree(big) == ACL_SUCCESS);
}

TEST_CASE("an unknown OPENATC_GM_CHECK value fails every launch naming the accepted values", "[.gm_invalid]") {
  uint8_t *src = Malloc(64, 0), *dst = Malloc(64, 0);
  REQUIRE(Copy(src, dst, 64) == ACL_ERROR_INVALID_PARAM);
  CHECK(std::string(aclGetRecentErrMsg()) ==
        "aclrtLaunchKernelWithHostArgs: OPENATC_GM_CHECK is 'bogus', which is not one of its values: fail (the "
        "default), warn. Unset OPENATC_GM_CHECK, or set it to fail or warn.");
  REQUIRE(aclrtFree(src) == ACL_SUCCESS);
  REQUIRE(aclrtFree(dst) == ACL_SUCCESS);
}

TEST_CASE("registry: the buffer preceding an address no buffer holds", "[rt][gm]") {
  openatc::rt::GmRegistry r;
  std::vector<uint8_t> mem(1024);
  openatc::rt::GmBuffer b;
  CHECK_FALSE(r.Preceding(mem.data() + 10, &b));
  r.Add(mem.data(), 64, "first");
  r.Add(mem.data() + 512, 64, "second");
  REQUIRE(r.Preceding(mem.data() + 320, &b));
  CHECK(b.label == "first");
  CHECK(b.size == 64);
  REQUIRE(r.Preceding(mem.data() + 600, &b));
  CHECK(b.label == "second");
  CHECK_FALSE(r.Preceding(mem.data() - 1, &b));
}
