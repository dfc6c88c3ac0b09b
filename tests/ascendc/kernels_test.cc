// Our own Ascend C kernels (test_kernels.cc) run block by block on the host library
// (include/ascendc/kernel_operator.h): exact results of double-buffered add, a TBuf/ReduceSum/
// Duplicate row sum, Cast + Muls, and atomic adds from concurrent blocks.
#include <catch2/catch.hpp>

#include <cmath>
#include <thread>
#include <vector>

#include "test_kernels.h"

namespace {

template <typename F>
void RunBlocks(uint32_t num, F &&kernel) {
  openatc_host_kernel_set_gm_checker(nullptr);  // these tests check values, not GM bounds
  for (uint32_t b = 0; b < num; ++b) {
    openatc_host_kernel_set_block(b, num);
    kernel();
  }
  openatc_host_kernel_set_block(0, 1);
}

GM_ADDR Gm(void *p) { return static_cast<GM_ADDR>(p); }

}  // namespace

TEST_CASE("double-buffered add over 4 blocks of 4 tiles gives x + y exactly", "[ascendc]") {
  const uint32_t n = 4 * 4 * 256;
  std::vector<float> x(n), y(n), z(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(2 * i + 1);
  }
  RunBlocks(4, [&] { tk_add_double_buffer(Gm(x.data()), Gm(y.data()), Gm(z.data()), n); });
  for (uint32_t i = 0; i < n; ++i) REQUIRE(z[i] == static_cast<float>(3 * i + 1));
}

TEST_CASE("row sum with TBuf tiles, ReduceSum and Duplicate", "[ascendc]") {
  const uint32_t rows = 3, cols = 1000;
  std::vector<float> x(rows * cols), out(rows * 8, -1.0f);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) x[r * cols + c] = static_cast<float>(c % 7 + r);
  }
  RunBlocks(rows, [&] { tk_row_sum(Gm(x.data()), Gm(out.data()), cols); });
  // sum over c of (c % 7) for c < 1000 is 142 * 21 + (0+1+2+3+4+5) = 2997; plus 1000 * r.
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t k = 0; k < 8; ++k) REQUIRE(out[r * 8 + k] == 2997.0f + 1000.0f * r);
  }
}

TEST_CASE("Muls then Cast to int32 with CAST_ROUND, CAST_RINT and CAST_FLOOR", "[ascendc]") {
  std::vector<float> x = {1, 3, 5, -1, -3, 6.5f, 7, -7.5f, 9, -9, 0, 11, 2, -2, 4.5f, -0.5f};
  std::vector<int32_t> rnd(16, 99), rint(16, 99), flr(16, 99);
  RunBlocks(2, [&] { tk_cast_muls(Gm(x.data()), Gm(rnd.data()), Gm(rint.data()), Gm(flr.data())); });
  // x * 0.5 = 0.5 1.5 2.5 -0.5 -1.5 3.25 3.5 -3.75 | 4.5 -4.5 0 5.5 1 -1 2.25 -0.25
  CHECK(rnd == std::vector<int32_t>{1, 2, 3, -1, -2, 3, 4, -4, 5, -5, 0, 6, 1, -1, 2, 0});
  CHECK(rint == std::vector<int32_t>{0, 2, 2, 0, -2, 3, 4, -4, 4, -4, 0, 6, 1, -1, 2, 0});
  CHECK(flr == std::vector<int32_t>{0, 1, 2, -1, -2, 3, 3, -4, 4, -5, 0, 5, 1, -1, 2, -1});
}

TEST_CASE("SetAtomicAdd makes concurrent blocks' DataCopy to one GM address add up", "[ascendc]") {
  openatc_host_kernel_set_gm_checker(nullptr);
  std::vector<float> acc(8, 5.0f);
  const uint32_t blocks = 8, repeats = 200;
  std::vector<std::thread> threads;
  for (uint32_t b = 0; b < blocks; ++b) {
    threads.emplace_back([&, b] {
      openatc_host_kernel_set_block(b, blocks);
      tk_atomic_add(Gm(acc.data()), repeats);
    });
  }
  for (std::thread &t : threads) t.join();
  // 5 + 200 * (1 + 2 + ... + 8) = 5 + 200 * 36.
  for (float v : acc) REQUIRE(v == 7205.0f);
}
