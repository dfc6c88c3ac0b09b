// libascendcl: stream handles, launch-observer registration and the thread-count setter.
#include <catch2/catch.hpp>

#include <string>
#include <thread>

#include "acl/acl.h"
#include "openatc/rt/runtime.h"

TEST_CASE("streams are created, synchronized and destroyed; bad handles are errors", "[rt]") {
  aclrtStream s = nullptr;
  REQUIRE(aclrtCreateStream(&s) == ACL_SUCCESS);
  REQUIRE(s != nullptr);
  REQUIRE(aclrtSynchronizeStream(s) == ACL_SUCCESS);
  REQUIRE(aclrtSynchronizeStream(nullptr) == ACL_SUCCESS);  // default stream
  REQUIRE(aclrtDestroyStream(s) == ACL_SUCCESS);
  REQUIRE(aclrtSynchronizeStream(s) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(std::string(aclGetRecentErrMsg()).find("is not a live stream. Pass a stream from aclrtCreateStream") !=
          std::string::npos);
  REQUIRE(aclrtDestroyStream(s) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtDestroyStream(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(std::string(aclGetRecentErrMsg()) ==
          "aclrtDestroyStream: stream is null; the default stream cannot be destroyed.");
  REQUIRE(aclrtCreateStream(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(std::string(aclGetRecentErrMsg()) == "aclrtCreateStream: stream is a null pointer.");
}

TEST_CASE("launch observers need a live stream", "[rt]") {
  aclrtStream s = nullptr;
  REQUIRE(aclrtCreateStream(&s) == ACL_SUCCESS);
  REQUIRE(openatc::rt::SetLaunchObserver(s, [](const openatc::rt::LaunchRecord &) {}) == ACL_SUCCESS);
  REQUIRE(openatc::rt::ClearLaunchObserver(s) == ACL_SUCCESS);
  REQUIRE(aclrtDestroyStream(s) == ACL_SUCCESS);
  REQUIRE(openatc::rt::SetLaunchObserver(s, [](const openatc::rt::LaunchRecord &) {}) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(std::string(aclGetRecentErrMsg()).rfind("SetLaunchObserver: stream ", 0) == 0);
}

TEST_CASE("thread count can be set and restored", "[rt]") {
  openatc::rt::SetThreadCount(3);
  REQUIRE(openatc::rt::GetThreadCount() == 3u);
  int64_t cores = 0;
  REQUIRE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores) == ACL_SUCCESS);
  REQUIRE(cores == 3);
  openatc::rt::SetThreadCount(0);
  unsigned hw = std::thread::hardware_concurrency();
  REQUIRE(openatc::rt::GetThreadCount() == (hw == 0 ? 1u : hw));
}
