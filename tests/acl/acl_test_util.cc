// Helpers for the ACL application-API tests (see acl_test_util.h).
#include "acl_test_util.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "run_command.h"

namespace openatc::testing {
namespace {

struct TempDir {
  std::string path = MakeTempDir();
  ~TempDir() { RemoveTree(path); }
};

}  // namespace

const std::string &SingleAddOm() {
  static TempDir dir;
  static std::string om;
  if (om.empty()) {
    auto r = RunCommand({BuildPath("bin/atc"), "--model", SourcePath("examples/compilable_add_custom/single_add.json"),
                         "--soc_version", "host", "--output", dir.path + "/single_add"},
                        {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("examples/compilable_add_custom/opp")}});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    om = dir.path + "/single_add.om";
  }
  return om;
}

FloatDataset::FloatDataset(const std::vector<std::vector<float>> &tensors) : dataset_(aclmdlCreateDataset()) {
  REQUIRE(dataset_ != nullptr);
  for (const auto &t : tensors) {
    const size_t bytes = t.size() * sizeof(float);
    void *dev = nullptr;
    REQUIRE(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(dev, bytes, t.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    aclDataBuffer *b = aclCreateDataBuffer(dev, bytes);
    REQUIRE(b != nullptr);
    REQUIRE(aclmdlAddDatasetBuffer(dataset_, b) == ACL_SUCCESS);
  }
}

FloatDataset::~FloatDataset() {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset_); ++i) {
    aclDataBuffer *b = aclmdlGetDatasetBuffer(dataset_, i);
    aclrtFree(aclGetDataBufferAddr(b));
    aclDestroyDataBuffer(b);
  }
  aclmdlDestroyDataset(dataset_);
}

std::vector<float> FloatDataset::Read(size_t i) const {
  aclDataBuffer *b = aclmdlGetDatasetBuffer(dataset_, i);
  const size_t bytes = aclGetDataBufferSizeV2(b);
  std::vector<float> out(bytes / sizeof(float));
  REQUIRE(aclrtMemcpy(out.data(), bytes, aclGetDataBufferAddr(b), bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  return out;
}

bool RecentErrorContains(const std::string &text) {
  const char *msg = aclGetRecentErrMsg();
  UNSCOPED_INFO("aclGetRecentErrMsg: " << (msg ? msg : "(null)"));
  return msg != nullptr && std::strstr(msg, text.c_str()) != nullptr;
}

}  // namespace openatc::testing
