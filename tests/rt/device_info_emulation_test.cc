// aclrtGetDeviceInfo under OPENATC_EMULATION (include/acl/acl_rt.h): the emulated chip's NpuArch
// and core counts (common/src/chip_facts.cc, Ascend910_9362: 2201, 24 / 24 / 48), the host's
// memory. The switch is read once, at the first query, so this binary holds this one test case
// and sets the variable for itself before any query (the product never sets it).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdlib>

#include "acl/acl_rt.h"

TEST_CASE("rt: aclrtGetDeviceInfo answers the emulated chip's facts", "[rt][emulation]") {
  REQUIRE(::setenv("OPENATC_EMULATION", "ascend910_9362", 1) == 0);
  int64_t v = -1;
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v) == ACL_SUCCESS);
  CHECK(v == 2201);
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v) == ACL_SUCCESS);
  CHECK(v == 24);
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v) == ACL_SUCCESS);
  CHECK(v == 24);
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v) == ACL_SUCCESS);
  CHECK(v == 48);
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v) == ACL_SUCCESS);
  CHECK(v == static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE));
  // Read once: a later change of the variable does not move the device.
  REQUIRE(::setenv("OPENATC_EMULATION", "1", 1) == 0);
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v) == ACL_SUCCESS);
  CHECK(v == 48);
  ::unsetenv("OPENATC_EMULATION");
}
