// Checked global memory in the host library (include/ascendc/kernel_operator_gm.h) against a
// table checker (test_checker.h): every access reported first; fail mode throws before
// touching memory, warn mode moves the valid prefix, zero-fills reads and drops the rest of writes.
#include <catch2/catch.hpp>

#include <vector>

#include "test_checker.h"
#include "test_kernels.h"

namespace {

GM_ADDR Gm(void *p) { return static_cast<GM_ADDR>(p); }

std::string RunCopy(std::vector<float> &x, std::vector<float> &z, uint32_t count) {
  openatc_host_kernel_set_block(1, 2);
  std::string what;
  try {
    tk_copy(Gm(x.data()), Gm(z.data()), count);
  } catch (const openatc::ascendc::KernelError &e) {
    what = e.what();
  }
  openatc_host_kernel_set_block(0, 1);
  return what;
}

}  // namespace

TEST_CASE("fail mode: a read past the buffer throws before any byte moves", "[ascendc]") {
  std::vector<float> x(32, 1.5f), z(32, -1.0f);
  ascendc_test::ResetChecker(1);
  ascendc_test::AddBuffer(x.data(), 16 * sizeof(float));  // the runtime handed out 16 floats
  ascendc_test::AddBuffer(z.data(), 32 * sizeof(float));
  openatc_host_kernel_set_gm_checker(ascendc_test::TableChecker());
  const std::string what = RunCopy(x, z, 32);
  CHECK(what ==
        "block 1: DataCopy: read of 128 bytes of global memory, only 64 of them inside the buffer holding the "
        "address (reported above)");
  CHECK(z == std::vector<float>(32, -1.0f));
  const std::vector<ascendc_test::Access> &log = ascendc_test::Accesses();
  REQUIRE(log.size() == 1);
  CHECK(log[0].addr == reinterpret_cast<uintptr_t>(x.data()));
  CHECK(log[0].size == 128);
  CHECK(!log[0].is_write);
  CHECK(log[0].api == "DataCopy");
  CHECK(log[0].ok == 64);
}

TEST_CASE("warn mode: reads zero-fill past the buffer, writes stop at its end", "[ascendc]") {
  std::vector<float> x(32, 2.5f), z(32, -1.0f);
  ascendc_test::ResetChecker(0);
  ascendc_test::AddBuffer(x.data(), 16 * sizeof(float));
  ascendc_test::AddBuffer(z.data(), 24 * sizeof(float));
  openatc_host_kernel_set_gm_checker(ascendc_test::TableChecker());
  CHECK(RunCopy(x, z, 32).empty());
  for (int i = 0; i < 16; ++i) CHECK(z[i] == 2.5f);    // the valid prefix of x
  for (int i = 16; i < 24; ++i) CHECK(z[i] == 0.0f);   // zeros read past x's buffer
  for (int i = 24; i < 32; ++i) CHECK(z[i] == -1.0f);  // the write stopped at z's buffer end
  const std::vector<ascendc_test::Access> &log = ascendc_test::Accesses();
  REQUIRE(log.size() == 2);
  CHECK(log[1].is_write);
  CHECK(log[1].ok == 96);
}

TEST_CASE("GlobalTensor GetValue/SetValue are checked; a null checker switches checks off", "[ascendc]") {
  std::vector<int32_t> g(8, 7);
  ascendc_test::ResetChecker(1);
  ascendc_test::AddBuffer(g.data(), 4 * sizeof(int32_t));
  openatc_host_kernel_set_gm_checker(ascendc_test::TableChecker());
  AscendC::GlobalTensor<int32_t> t;
  t.SetGlobalBuffer(g.data(), 8);
  CHECK(t.GetValue(3) == 7);
  t.SetValue(2, 9);
  CHECK(g[2] == 9);
  CHECK_THROWS_WITH(t.SetValue(4, 1), "block 0: GlobalTensor::SetValue: write of 4 bytes of global memory, only 0 "
                                      "of them inside the buffer holding the address (reported above)");
  CHECK(g[4] == 7);
  openatc_host_kernel_set_gm_checker(nullptr);
  t.SetValue(4, 1);
  CHECK(g[4] == 1);
  CHECK(ascendc_test::Accesses().size() == 3);
}
