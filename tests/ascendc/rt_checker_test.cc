// Without openatc_host_kernel_set_gm_checker, the host library asks libascendcl's weak export
// openatc_rt_gm_checker() (defined here as the program's own, as libascendcl would).
#include <catch2/catch.hpp>

#include <vector>

#include "kernel_operator.h"

namespace {
int g_calls = 0;
uint64_t CountingCheck(const void *, uint64_t size, int, const char *, int *stop) {
  ++g_calls;
  *stop = 1;
  return size / 2;
}
const openatc_gm_checker kChecker = {OPENATC_GM_CHECK_ABI_VERSION, 0u, &CountingCheck};
const openatc_gm_checker kWrongVersion = {OPENATC_GM_CHECK_ABI_VERSION + 1, 0u, &CountingCheck};
const openatc_gm_checker *g_current = &kChecker;
}  // namespace

extern "C" const openatc_gm_checker *openatc_rt_gm_checker(void) { return g_current; }

TEST_CASE("the runtime's checker is used when none was handed to the kernel", "[ascendc]") {
  std::vector<float> g(8, 1.0f);
  AscendC::GlobalTensor<float> t;
  t.SetGlobalBuffer(g.data(), 8);
  CHECK_THROWS_WITH(t.GetValue(0), "block 0: GlobalTensor::GetValue: read of 4 bytes of global memory, only 2 of "
                                   "them inside the buffer holding the address (reported above)");
  CHECK(g_calls == 1);
  g_current = &kWrongVersion;
  CHECK_THROWS_WITH(t.GetValue(0), "block 0: GlobalTensor::GetValue: the runtime's global-memory checker has ABI "
                                   "version 2, this kernel was built for 1; rebuild the kernel");
  g_current = nullptr;
  CHECK(t.GetValue(0) == 1.0f);
  CHECK(g_calls == 1);
}
