// openatc/host_kernel.h compiled straight into the test (g++): argument unpacking with Ascend's
// packing rules, Triton's layout, refusal of short blocks, block index/count, exported symbols.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "openatc/host_kernel.h"

namespace {
struct Mixed {
  uint8_t a;
  uint64_t b;
  uint16_t c;
  double d;
  int8_t e;
  const float *p;
};
Mixed g_seen;
int g_calls = 0;
}  // namespace

OPENATC_HOST_KERNEL(hk_mixed, uint8_t a, uint64_t b, uint16_t c, double d, int8_t e, const float *p) {
  g_seen = Mixed{a, b, c, d, e, p};
  ++g_calls;
}

// Triton's host-args layout: 5 pointers then 4 int32, packed at natural alignment.
OPENATC_HOST_KERNEL(hk_triton_add, void *sync_block_lock, void *workspace, const float *x, const float *y, float *out,
                    int32_t n_elements, int32_t grid_x, int32_t grid_y, int32_t grid_z) {
  (void)sync_block_lock;
  int32_t pid = static_cast<int32_t>(GetBlockIdx());
  for (int32_t i = pid * 4; i < pid * 4 + 4 && i < n_elements; ++i) out[i] = x[i] + y[i];
  if (pid == 0) {
    int32_t *w = static_cast<int32_t *>(workspace);
    w[0] = grid_x;
    w[1] = grid_y;
    w[2] = grid_z;
    w[3] = n_elements;
  }
}

OPENATC_HOST_KERNEL(hk_block_info, GM_ADDR out) {
  reinterpret_cast<int64_t *>(out)[GetBlockIdx()] = GetBlockIdx() * 1000 + GetBlockNum();
}

TEST_CASE("host kernel args follow natural-alignment packing", "[rt][host_kernel]") {
  // Hand layout: a@0 (1), b@8 (8), c@16 (2), d@24 (8), e@32 (1), p@40 (8) -> 48 bytes.
  REQUIRE(openatc_host_kernel_args_size_hk_mixed() == 48u);
  unsigned char block[48];
  std::memset(block, 0xEE, sizeof block);
  uint8_t a = 7;
  uint64_t b = 0x0102030405060708ull;
  uint16_t c = 513;
  double d = -2.5;
  int8_t e = -3;
  float f = 0;
  const float *p = &f;
  std::memcpy(block + 0, &a, 1);
  std::memcpy(block + 8, &b, 8);
  std::memcpy(block + 16, &c, 2);
  std::memcpy(block + 24, &d, 8);
  std::memcpy(block + 32, &e, 1);
  std::memcpy(block + 40, &p, 8);
  g_calls = 0;
  hk_mixed(block, sizeof block);
  REQUIRE(g_calls == 1);
  REQUIRE(g_seen.a == 7);
  REQUIRE(g_seen.b == 0x0102030405060708ull);
  REQUIRE(g_seen.c == 513);
  REQUIRE(g_seen.d == -2.5);
  REQUIRE(g_seen.e == -3);
  REQUIRE(g_seen.p == &f);
}

TEST_CASE("host kernel refuses a block too small for its parameters", "[rt][host_kernel]") {
  unsigned char block[48] = {};
  g_calls = 0;
  hk_mixed(block, 47);
  hk_mixed(nullptr, 0);
  REQUIRE(g_calls == 0);
  hk_mixed(block, 64);  // larger is fine
  REQUIRE(g_calls == 1);
}

TEST_CASE("Triton-style args (5 pointers + 4 int32) unpack right", "[rt][host_kernel]") {
  struct TritonArgs {
    void *sync_block_lock;
    void *workspace_addr;
    const void *x;
    const void *y;
    void *out;
    int32_t n_elements;
    int32_t grid_x, grid_y, grid_z;
  };
  STATIC_REQUIRE(sizeof(TritonArgs) == 56);
  REQUIRE(openatc_host_kernel_args_size_hk_triton_add() == 56u);
  std::vector<float> x(10), y(10), out(10, -1.0f);
  for (int i = 0; i < 10; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 100.0f;
  }
  int32_t ws[4] = {0, 0, 0, 0};
  TritonArgs args{nullptr, ws, x.data(), y.data(), out.data(), 10, 3, 1, 1};
  for (uint32_t b = 0; b < 3; ++b) {
    openatc_host_kernel_set_block(b, 3);
    hk_triton_add(&args, sizeof args);
  }
  openatc_host_kernel_set_block(0, 1);
  for (int i = 0; i < 10; ++i) REQUIRE(out[i] == 100.0f + static_cast<float>(i));
  REQUIRE(ws[0] == 3);
  REQUIRE(ws[1] == 1);
  REQUIRE(ws[2] == 1);
  REQUIRE(ws[3] == 10);
}

TEST_CASE("GetBlockIdx/GetBlockNum read the values the setter stored", "[rt][host_kernel]") {
  REQUIRE(openatc_host_kernel_abi_version() == OPENATC_HOST_KERNEL_ABI_VERSION);
  REQUIRE(OPENATC_HOST_KERNEL_ABI_VERSION == 1u);
  int64_t out[4] = {0, 0, 0, 0};
  GM_ADDR ptr = reinterpret_cast<GM_ADDR>(out);
  for (uint32_t b = 0; b < 4; ++b) {
    openatc_host_kernel_set_block(b, 4);
    hk_block_info(&ptr, sizeof ptr);
  }
  openatc_host_kernel_set_block(0, 1);
  REQUIRE(out[0] == 4);
  REQUIRE(out[1] == 1004);
  REQUIRE(out[2] == 2004);
  REQUIRE(out[3] == 3004);
  REQUIRE(GetBlockIdx() == 0);
  REQUIRE(GetBlockNum() == 1);
}

#ifdef OPENATC_HOST_KERNEL_HAS_HALF
TEST_CASE("half is a 2-byte floating type", "[rt][host_kernel]") {
  STATIC_REQUIRE(sizeof(half) == 2);
  half h = static_cast<half>(1.5f);
  REQUIRE(static_cast<float>(h + h) == 3.0f);
}
#endif
