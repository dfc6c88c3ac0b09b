// aclmdl* on the host: load, describe, datasets, execute (sync/async), from file and memory,
// on the compilable_add_custom OM (add2 = (x + x) + x on fp32 [4,4]; expected values are that
// formula evaluated by hand on the inputs below).
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "acl/acl.h"
#include "acl_test_util.h"

using namespace openatc::testing;

namespace {

std::vector<float> Iota16(float start) {
  std::vector<float> v(16);
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  return v;
}

std::vector<float> Times3(const std::vector<float> &v) {
  std::vector<float> out;
  for (float x : v) out.push_back(3.0f * x);
  return out;
}

std::vector<uint8_t> FileBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("aclmdl: load, describe and execute single_add.om", "[acl]") {
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &id) == ACL_SUCCESS);
  CHECK(id != 0);
  aclmdlDesc *desc = aclmdlCreateDesc();
  REQUIRE(desc != nullptr);
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetNumInputs(desc) == 1);
  CHECK(aclmdlGetNumOutputs(desc) == 1);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 64);   // 4 x 4 fp32
  CHECK(aclmdlGetOutputSizeByIndex(desc, 0) == 64);
  CHECK(std::string(aclmdlGetInputNameByIndex(desc, 0)) == "data");
  CHECK(std::string(aclmdlGetOutputNameByIndex(desc, 0)) == "add2:0");
  CHECK(aclmdlGetInputDataType(desc, 0) == ACL_FLOAT);
  CHECK(aclmdlGetOutputDataType(desc, 0) == ACL_FLOAT);
  CHECK(aclmdlGetInputFormat(desc, 0) == ACL_FORMAT_ND);
  CHECK(aclmdlGetOutputFormat(desc, 0) == ACL_FORMAT_ND);
  aclmdlIODims dims;
  REQUIRE(aclmdlGetInputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(std::string(dims.name) == "data");
  REQUIRE(dims.dimCount == 2);
  CHECK(dims.dims[0] == 4);
  CHECK(dims.dims[1] == 4);
  REQUIRE(aclmdlGetOutputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(std::string(dims.name) == "add2:0");
  CHECK(dims.dimCount == 2);

  SECTION("aclmdlExecute") {
    const std::vector<float> x = Iota16(-4.0f);
    FloatDataset in({x});
    FloatDataset out({std::vector<float>(16, 0.0f)});
    REQUIRE(aclmdlGetDatasetNumBuffers(in.get()) == 1);
    REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
    CHECK(out.Read(0) == Times3(x));
    // A second run on new values reuses the loaded model.
    FloatDataset ones({std::vector<float>(16, 1.0f)});
    REQUIRE(aclmdlExecute(id, ones.get(), out.get()) == ACL_SUCCESS);
    CHECK(out.Read(0) == std::vector<float>(16, 3.0f));
  }
  SECTION("aclmdlExecuteAsync on a stream, and on the default stream") {
    aclrtStream stream = nullptr;
    REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
    const std::vector<float> x = Iota16(0.5f);
    FloatDataset in({x});
    FloatDataset out({std::vector<float>(16, 0.0f)});
    REQUIRE(aclmdlExecuteAsync(id, in.get(), out.get(), stream) == ACL_SUCCESS);
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHECK(out.Read(0) == Times3(x));
    REQUIRE(aclmdlExecuteAsync(id, in.get(), out.get(), nullptr) == ACL_SUCCESS);
    CHECK(out.Read(0) == Times3(x));
    REQUIRE(aclrtDestroyStream(stream) == ACL_SUCCESS);
    // The destroyed stream is no longer accepted.
    CHECK(aclmdlExecuteAsync(id, in.get(), out.get(), stream) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("aclmdlExecuteAsync: stream"));
    CHECK(RecentErrorContains("is not a live stream"));
  }
  SECTION("an output buffer larger than needed is accepted") {
    FloatDataset in({std::vector<float>(16, 2.0f)});
    FloatDataset out({std::vector<float>(20, -1.0f)});
    REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
    std::vector<float> want(16, 6.0f);
    want.resize(20, -1.0f);  // bytes past the output are untouched
    CHECK(out.Read(0) == want);
  }
  CHECK(aclmdlDestroyDesc(desc) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

TEST_CASE("aclmdl: aclmdlLoadFromMem keeps its own copy of the image", "[acl]") {
  std::vector<uint8_t> bytes = FileBytes(SingleAddOm());
  REQUIRE(bytes.size() > 64);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id) == ACL_SUCCESS);
  std::fill(bytes.begin(), bytes.end(), 0);  // the caller's bytes may go away after the call
  bytes.clear();
  bytes.shrink_to_fit();
  const std::vector<float> x = Iota16(1.0f);
  FloatDataset in({x});
  FloatDataset out({std::vector<float>(16, 0.0f)});
  REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
  CHECK(out.Read(0) == Times3(x));
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

TEST_CASE("aclmdl: two loads of one OM get different ids and run independently", "[acl]") {
  uint32_t a = 0, b = 0;
  REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &a) == ACL_SUCCESS);
  REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &b) == ACL_SUCCESS);
  CHECK(a != b);
  REQUIRE(aclmdlUnload(a) == ACL_SUCCESS);
  FloatDataset in({std::vector<float>(16, 5.0f)});
  FloatDataset out({std::vector<float>(16, 0.0f)});
  CHECK(aclmdlExecute(b, in.get(), out.get()) == ACL_SUCCESS);
  CHECK(out.Read(0) == std::vector<float>(16, 15.0f));
  CHECK(aclmdlUnload(b) == ACL_SUCCESS);
}
