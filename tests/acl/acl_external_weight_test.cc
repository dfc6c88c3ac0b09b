// The aclmdl calls for OMs built with atc --external_weight (include/acl/acl_mdl_config.h):
// aclmdlLoadFromFile finds weight/ beside the OM, a memory load needs ACL_MDL_WEIGHT_PATH_PTR or
// aclmdlSetExternalWeightAddress, aclmdlLoadWithConfig / ...WithMem and their argument checks.
// Expected outputs: y = (x + w1) * w2 + w1 evaluated in double (tests/e2e/e2e_util.h).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "e2e_util.h"

using namespace openatc::testing;

namespace {

const std::vector<float> kX = {1, -2, 3, 0.5f, 0, 7};
const char kW1File[] = "weight_24ae2dfe8df57c1b80e54cef3d90ac3b417fd98973345a5f616bbc9a75dcc22";
const char kW2File[] = "weight_2522fb33781a8d219c73237b30d867a8ce0a8562737c6683121a2d3d855b";

std::vector<float> Expected() {
  std::vector<float> y;
  for (int i = 0; i < 6; ++i)
    y.push_back(static_cast<float>((static_cast<double>(kX[i]) + kExtW1[i]) * kExtW2[i] + kExtW1[i]));
  return y;
}

std::vector<uint8_t> FileBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// dir/m.om compiled with --external_weight=1 (weight files in dir/weight/).
std::string CompileExternal() {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", ExternalWeightGraphJson());
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m", "--external_weight=1"},
                  "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return dir;
}

void CheckRuns(uint32_t id) {
  FloatDataset in({kX});
  FloatDataset out({std::vector<float>(6, 0.0f)});
  REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
  CHECK(out.Read(0) == Expected());
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

template <typename T>
aclError Set(aclmdlConfigHandle *h, aclmdlConfigAttr attr, T value) {
  return aclmdlSetConfigOpt(h, attr, &value, sizeof value);
}

}  // namespace

TEST_CASE("aclmdl external weights: file, memory and config loads", "[acl]") {
  const std::string dir = CompileExternal();
  const std::string om = dir + "/m.om";
  const std::vector<uint8_t> image = FileBytes(om);
  uint32_t id = 0;

  SECTION("aclmdlLoadFromFile and ...WithMem read weight/ beside the OM") {
    REQUIRE(aclmdlLoadFromFile(om.c_str(), &id) == ACL_SUCCESS);
    CheckRuns(id);
    std::vector<uint8_t> work(256), weight(256);
    REQUIRE(aclmdlLoadFromFileWithMem(om.c_str(), &id, work.data(), work.size(), weight.data(), weight.size()) ==
            ACL_SUCCESS);
    CheckRuns(id);
    CHECK(aclmdlLoadFromFileWithMem(om.c_str(), &id, nullptr, 16, nullptr, 0) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("aclmdlLoadFromFileWithMem: workPtr and workSize disagree (one is null or 0)"));
  }
  SECTION("aclmdlLoadFromMem without a weight folder is refused, naming the way to give one") {
    CHECK(aclmdlLoadFromMem(image.data(), image.size(), &id) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("OA2113"));
    CHECK(RecentErrorContains("lives in the external weight file 'weight_"));
    CHECK(RecentErrorContains("ACL_MDL_WEIGHT_PATH_PTR"));
    CHECK(aclmdlLoadFromMemWithMem(image.data(), image.size(), &id, nullptr, 0, nullptr, 0) ==
          ACL_ERROR_INVALID_PARAM);
  }
  SECTION("aclmdlLoadWithConfig from memory with ACL_MDL_WEIGHT_PATH_PTR, and from a file") {
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    REQUIRE(h != nullptr);
    CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM) == ACL_SUCCESS);
    CHECK(Set<const void *>(h, ACL_MDL_MEM_ADDR_PTR, image.data()) == ACL_SUCCESS);
    CHECK(Set<size_t>(h, ACL_MDL_MEM_SIZET, image.size()) == ACL_SUCCESS);
    CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_INVALID_PARAM);  // no weight folder yet
    const std::string weights = dir + "/weight";
    CHECK(Set<const char *>(h, ACL_MDL_WEIGHT_PATH_PTR, weights.c_str()) == ACL_SUCCESS);
    REQUIRE(aclmdlLoadWithConfig(h, &id) == ACL_SUCCESS);
    CheckRuns(id);
    CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE) == ACL_SUCCESS);
    CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("a file load without ACL_MDL_PATH_PTR"));
    CHECK(Set<const char *>(h, ACL_MDL_PATH_PTR, om.c_str()) == ACL_SUCCESS);
    REQUIRE(aclmdlLoadWithConfig(h, &id) == ACL_SUCCESS);
    CheckRuns(id);
    CHECK(aclmdlDestroyConfigHandle(h) == ACL_SUCCESS);
    CHECK(aclmdlDestroyConfigHandle(h) == ACL_ERROR_INVALID_PARAM);
  }
  SECTION("aclmdlSetExternalWeightAddress wins over the folder and is checked") {
    const std::vector<uint8_t> w1 = FileBytes(dir + "/weight/" + kW1File);
    const std::vector<uint8_t> w2 = FileBytes(dir + "/weight/" + kW2File);
    REQUIRE(w1.size() == 24);
    REQUIRE(w2.size() == 24);
    void *d1 = nullptr, *d2 = nullptr;
    REQUIRE(aclrtMalloc(&d1, 32, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);  // sizes 32-byte aligned
    REQUIRE(aclrtMalloc(&d2, 32, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(d1, 32, w1.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(d2, 32, w2.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM) == ACL_SUCCESS);
    CHECK(Set<const void *>(h, ACL_MDL_MEM_ADDR_PTR, image.data()) == ACL_SUCCESS);
    CHECK(Set<size_t>(h, ACL_MDL_MEM_SIZET, image.size()) == ACL_SUCCESS);
    CHECK(Set<const char *>(h, ACL_MDL_WEIGHT_PATH_PTR, "/nonexistent") == ACL_SUCCESS);
    CHECK(aclmdlSetExternalWeightAddress(h, kW1File, d1, 32) == ACL_SUCCESS);
    CHECK(aclmdlSetExternalWeightAddress(h, kW2File, d2, 16) == ACL_SUCCESS);  // too small
    CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_PARSE_MODEL);
    CHECK(RecentErrorContains("(the caller's buffer for '" + std::string(kW2File) +
                              "') of segment #1 (weight) of tensor 'value' holds 16 bytes; the OM needs 24 bytes"));
    CHECK(aclmdlSetExternalWeightAddress(h, kW2File, d2, 32) == ACL_SUCCESS);  // the last call wins
    REQUIRE(aclmdlLoadWithConfig(h, &id) == ACL_SUCCESS);
    CheckRuns(id);
    // Argument checks.
    CHECK(aclmdlSetExternalWeightAddress(h, nullptr, d1, 32) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlSetExternalWeightAddress(h, kW1File, nullptr, 32) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlSetExternalWeightAddress(h, "weight/x", d1, 32) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlSetExternalWeightAddress(h, kW1File, d1, 0) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlDestroyConfigHandle(h) == ACL_SUCCESS);
    CHECK(aclrtFree(d1) == ACL_SUCCESS);
    CHECK(aclrtFree(d2) == ACL_SUCCESS);
  }
  SECTION("a missing or altered weight file: READ_MODEL_FAILURE / PARSE_MODEL naming the file") {
    const std::string w2 = dir + "/weight/" + kW2File;
    std::vector<uint8_t> bytes = FileBytes(w2);
    bytes[0] ^= 0x80;
    WriteBytes(w2, std::string(bytes.begin(), bytes.end()));
    CHECK(aclmdlLoadFromFile(om.c_str(), &id) == ACL_ERROR_PARSE_MODEL);
    CHECK(RecentErrorContains("OA2112"));
    CHECK(RecentErrorContains("the external weight file '" + w2 + "'"));
    CHECK(RecentErrorContains(", the OM expects 0x"));
    std::remove(w2.c_str());
    CHECK(aclmdlLoadFromFile(om.c_str(), &id) == ACL_ERROR_READ_MODEL_FAILURE);
    CHECK(RecentErrorContains("cannot read the external weight file '" + w2 + "'"));
  }
  RemoveTree(dir);
}

TEST_CASE("aclmdl config handles: option checks", "[acl]") {
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
  REQUIRE(h != nullptr);
  uint32_t id = 0;
  CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlLoadWithConfig: the config has no ACL_MDL_LOAD_TYPE_SIZET"));
  CHECK(Set<int32_t>(h, ACL_MDL_LOAD_TYPE_SIZET, 1) == ACL_ERROR_INVALID_PARAM);  // not a size_t
  CHECK(RecentErrorContains("valueSize of ACL_MDL_LOAD_TYPE_SIZET is 4, not 8"));
  CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, 9) == ACL_ERROR_INVALID_PARAM);
  CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE_WITH_Q) == ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK(Set<int32_t>(h, ACL_MDL_PRIORITY_INT32, 8) == ACL_ERROR_INVALID_PARAM);
  CHECK(Set<int32_t>(h, ACL_MDL_PRIORITY_INT32, 7) == ACL_SUCCESS);
  CHECK(Set<const char *>(h, ACL_MDL_WEIGHT_PATH_PTR, "") == ACL_ERROR_INVALID_PARAM);
  CHECK(Set<size_t>(h, ACL_MDL_INPUTQ_NUM_SIZET, 1) == ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, nullptr, sizeof(size_t)) == ACL_ERROR_INVALID_PARAM);
  CHECK(Set<size_t>(h, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM) == ACL_SUCCESS);
  CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("a memory load without ACL_MDL_MEM_ADDR_PTR and ACL_MDL_MEM_SIZET"));
  CHECK(Set<const void *>(h, ACL_MDL_WORKSPACE_ADDR_PTR, &id) == ACL_SUCCESS);
  CHECK(aclmdlLoadWithConfig(h, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("ACL_MDL_WORKSPACE_ADDR_PTR and ACL_MDL_WORKSPACE_SIZET disagree"));
  CHECK(aclmdlLoadWithConfig(h, nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlDestroyConfigHandle(h) == ACL_SUCCESS);
  CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &id, sizeof id) == ACL_ERROR_INVALID_PARAM);  // destroyed
  CHECK(aclmdlDestroyConfigHandle(nullptr) == ACL_ERROR_INVALID_PARAM);
}
