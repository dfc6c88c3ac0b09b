// aclmdl* error codes (docs/acl.md §4) and their aclGetRecentErrMsg texts: bad handles, bad
// files, wrong counts and sizes, unloaded models, an OM built for another target.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "openatc/om/model.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

struct Loaded {
  uint32_t id = 0;
  Loaded() { REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &id) == ACL_SUCCESS); }
  ~Loaded() { aclmdlUnload(id); }
};

std::vector<float> Ones(size_t n) { return std::vector<float>(n, 1.0f); }

}  // namespace

TEST_CASE("aclmdlLoad*: bad arguments and bad files", "[acl]") {
  uint32_t id = 12345;
  CHECK(aclmdlLoadFromFile(nullptr, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlLoadFromFile: modelPath is a null pointer."));
  CHECK(aclmdlLoadFromFile(SingleAddOm().c_str(), nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("modelId is a null pointer"));
  CHECK(aclmdlLoadFromFile("", &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("modelPath is empty"));

  const std::string dir = MakeTempDir();
  CHECK(aclmdlLoadFromFile((dir + "/missing.om").c_str(), &id) == ACL_ERROR_READ_MODEL_FAILURE);
  CHECK(RecentErrorContains("aclmdlLoadFromFile: cannot load the model:"));
  CHECK(RecentErrorContains(dir + "/missing.om"));

  WriteBytes(dir + "/text.om", "this is not a model\n");
  CHECK(aclmdlLoadFromFile((dir + "/text.om").c_str(), &id) == ACL_ERROR_INVALID_FILE);
  CHECK(RecentErrorContains("not an OM file"));
  CHECK(id == 12345);  // untouched on failure

  SECTION("an OM built for another CPU names both targets") {
    openatc::om::Model m = openatc::om::ReadFile(SingleAddOm());
    m.target.arch = "riscv64";
    openatc::om::WriteFile(dir + "/riscv.om", m);
    CHECK(aclmdlLoadFromFile((dir + "/riscv.om").c_str(), &id) == ACL_ERROR_INVALID_FILE);
    CHECK(RecentErrorContains("the OM was built for host (riscv64), but this runtime runs host ("));
    CHECK(RecentErrorContains("Rebuild it with atc --soc_version host"));
  }
  SECTION("an OM built for Ascend without CANN names the target and every path searched") {
    openatc::om::Model m = openatc::om::ReadFile(SingleAddOm());
    m.target = openatc::Target{openatc::TargetKind::kAscendCann, "Ascend910B1", ""};
    openatc::om::WriteFile(dir + "/ascend.om", m);
    setenv("ASCEND_HOME_PATH", (dir + "/no-cann").c_str(), 1);
    CHECK(aclmdlLoadFromFile((dir + "/ascend.om").c_str(), &id) == ACL_ERROR_FEATURE_UNSUPPORTED);
    unsetenv("ASCEND_HOME_PATH");
    CHECK(RecentErrorContains("aclmdlLoadFromFile: cannot load the model: OA2110: '" + dir +
                              "/ascend.om': running an OM built for Ascend910B1 needs CANN's runtime (libascendcl.so), "
                              "which was not found; searched " + dir +
                              "/no-cann/lib64/libascendcl.so, /usr/local/Ascend/ascend-toolkit/latest/lib64/"
                              "libascendcl.so, /usr/local/Ascend/cann/lib64/libascendcl.so. Install CANN and set "
                              "ASCEND_HOME_PATH, or rebuild the OM with atc --soc_version host to run it on this CPU."));
  }
  SECTION("aclmdlLoadFromMem") {
    const char junk[] = "OAOMjunkjunkjunkjunk";
    CHECK(aclmdlLoadFromMem(nullptr, 10, &id) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("aclmdlLoadFromMem: model is a null pointer."));
    CHECK(aclmdlLoadFromMem(junk, 0, &id) == ACL_ERROR_MODEL_SIZE_INVALID);
    CHECK(RecentErrorContains("modelSize is 0"));
    CHECK(aclmdlLoadFromMem(junk, sizeof junk, nullptr) == ACL_ERROR_INVALID_PARAM);
    const aclError rc = aclmdlLoadFromMem(junk, sizeof junk, &id);
    CHECK((rc == ACL_ERROR_INVALID_FILE || rc == ACL_ERROR_PARSE_MODEL));
    CHECK(RecentErrorContains("<memory model>"));
    // A truncated real image.
    std::ifstream f(SingleAddOm(), std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const aclError cut = aclmdlLoadFromMem(bytes.data(), bytes.size() / 2, &id);
    CHECK((cut == ACL_ERROR_INVALID_FILE || cut == ACL_ERROR_PARSE_MODEL));
    CHECK(RecentErrorContains("aclmdlLoadFromMem: cannot load the model:"));
  }
  RemoveTree(dir);
}

TEST_CASE("aclmdl: unknown and unloaded model ids", "[acl]") {
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, 987654) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(RecentErrorContains("aclmdlGetDesc: model id 987654 is not a loaded model."));
  CHECK(aclmdlUnload(987654) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(RecentErrorContains("aclmdlUnload: model id 987654"));
  FloatDataset in({Ones(16)});
  FloatDataset out({Ones(16)});
  CHECK(aclmdlExecute(987654, in.get(), out.get()) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(aclmdlExecuteAsync(987654, in.get(), out.get(), nullptr) == ACL_ERROR_INVALID_MODEL_ID);

  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &id) == ACL_SUCCESS);
  REQUIRE(aclmdlUnload(id) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(aclmdlGetDesc(desc, id) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(aclmdlExecute(id, in.get(), out.get()) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(RecentErrorContains("model id " + std::to_string(id) + " is not a loaded model"));
  CHECK(aclmdlDestroyDesc(desc) == ACL_SUCCESS);
}

TEST_CASE("aclmdlExecute: wrong counts and sizes", "[acl]") {
  Loaded m;
  FloatDataset one_in({Ones(16)});
  FloatDataset one_out({Ones(16)});
  SECTION("input count") {
    FloatDataset two({Ones(16), Ones(16)});
    CHECK(aclmdlExecute(m.id, two.get(), one_out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    CHECK(RecentErrorContains("the input dataset holds 2 buffers, but model " + std::to_string(m.id) + " has 1 inputs"));
    FloatDataset none({});
    CHECK(aclmdlExecute(m.id, none.get(), one_out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  }
  SECTION("input size") {
    FloatDataset small({Ones(15)});
    CHECK(aclmdlExecute(m.id, small.get(), one_out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    CHECK(RecentErrorContains("input 0 ('data', float32 [4, 4]) needs 64 bytes, but its buffer holds 60."));
    FloatDataset big({Ones(17)});
    CHECK(aclmdlExecute(m.id, big.get(), one_out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  }
  SECTION("output count") {
    FloatDataset two({Ones(16), Ones(16)});
    CHECK(aclmdlExecute(m.id, one_in.get(), two.get()) == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    CHECK(RecentErrorContains("the output dataset holds 2 buffers, but model " + std::to_string(m.id) + " has 1 outputs"));
  }
  SECTION("output size") {
    FloatDataset small({Ones(8)});
    CHECK(aclmdlExecute(m.id, one_in.get(), small.get()) == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    CHECK(RecentErrorContains("output 0 ('add2:0', float32 [4, 4]) needs 64 bytes, but its buffer holds 32."));
    CHECK(small.Read(0) == Ones(8));  // nothing ran
  }
  SECTION("null and destroyed datasets") {
    CHECK(aclmdlExecute(m.id, nullptr, one_out.get()) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("aclmdlExecute: input is a null pointer."));
    CHECK(aclmdlExecute(m.id, one_in.get(), nullptr) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("output is a null pointer"));
    aclmdlDataset *gone = aclmdlCreateDataset();
    REQUIRE(aclmdlDestroyDataset(gone) == ACL_SUCCESS);
    CHECK(aclmdlExecute(m.id, gone, one_out.get()) == ACL_ERROR_INVALID_PARAM);
    CHECK(RecentErrorContains("the dataset is not live (never created, or already destroyed)."));
  }
  SECTION("a null buffer address") {
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclDataBuffer *null_buf = aclCreateDataBuffer(nullptr, 0);
    REQUIRE(null_buf != nullptr);
    REQUIRE(aclmdlAddDatasetBuffer(ds, null_buf) == ACL_SUCCESS);
    CHECK(aclmdlExecute(m.id, one_in.get(), ds) == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    CHECK(aclmdlExecute(m.id, ds, one_out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    aclDestroyDataBuffer(null_buf);
    aclmdlDestroyDataset(ds);
  }
}

TEST_CASE("aclmdl descriptions: bad handles and indexes", "[acl]") {
  Loaded m;
  aclmdlIODims dims;
  CHECK(aclmdlGetDesc(nullptr, m.id) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlGetDesc: modelDesc is a null pointer."));
  CHECK(aclmdlDestroyDesc(nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetNumInputs(nullptr) == 0);
  CHECK(RecentErrorContains("aclmdlGetNumInputs: modelDesc is a null pointer."));
  CHECK(aclmdlGetNumOutputs(nullptr) == 0);
  CHECK(aclmdlGetInputDims(nullptr, 0, &dims) == ACL_ERROR_INVALID_PARAM);

  aclmdlDesc *desc = aclmdlCreateDesc();
  // Empty (not yet filled) description.
  CHECK(aclmdlGetNumInputs(desc) == 0);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 0);
  CHECK(RecentErrorContains("aclmdlGetInputSizeByIndex: the model description is empty. Fill it with aclmdlGetDesc first."));
  REQUIRE(aclmdlGetDesc(desc, m.id) == ACL_SUCCESS);
  CHECK(aclmdlGetInputSizeByIndex(desc, 1) == 0);
  CHECK(RecentErrorContains("input index 1 is out of range: the model has 1 inputs."));
  CHECK(aclmdlGetOutputSizeByIndex(desc, 7) == 0);
  CHECK(RecentErrorContains("output index 7 is out of range: the model has 1 outputs."));
  CHECK(aclmdlGetInputDims(desc, 1, &dims) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetOutputDims(desc, 1, &dims) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetInputDims(desc, 0, nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlGetInputDims: dims is a null pointer."));
  CHECK(std::string(aclmdlGetInputNameByIndex(desc, 3)) == "");
  CHECK(std::string(aclmdlGetOutputNameByIndex(desc, 3)) == "");
  CHECK(aclmdlGetInputDataType(desc, 3) == ACL_DT_UNDEFINED);
  CHECK(aclmdlGetOutputDataType(desc, 3) == ACL_DT_UNDEFINED);
  CHECK(aclmdlGetInputFormat(desc, 3) == ACL_FORMAT_UNDEFINED);
  CHECK(aclmdlGetOutputFormat(desc, 3) == ACL_FORMAT_UNDEFINED);
  // Failed queries leave the description usable.
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 64);

  REQUIRE(aclmdlDestroyDesc(desc) == ACL_SUCCESS);
  CHECK(aclmdlDestroyDesc(desc) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlDestroyDesc: the model description is not live (never created, or already destroyed)."));
  CHECK(aclmdlGetNumInputs(desc) == 0);
  CHECK(aclmdlGetDesc(desc, m.id) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclmdl datasets: bad handles and indexes", "[acl]") {
  aclmdlDataset *ds = aclmdlCreateDataset();
  REQUIRE(ds != nullptr);
  CHECK(aclmdlGetDatasetNumBuffers(ds) == 0);
  CHECK(aclmdlAddDatasetBuffer(ds, nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlAddDatasetBuffer: dataBuffer is a null pointer."));
  aclDataBuffer *b = aclCreateDataBuffer(nullptr, 0);
  CHECK(aclmdlAddDatasetBuffer(nullptr, b) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclmdlAddDatasetBuffer(ds, b) == ACL_SUCCESS);
  CHECK(aclmdlGetDatasetNumBuffers(ds) == 1);
  CHECK(aclmdlGetDatasetBuffer(ds, 0) == b);
  CHECK(aclmdlGetDatasetBuffer(ds, 1) == nullptr);
  CHECK(RecentErrorContains("aclmdlGetDatasetBuffer: buffer index 1 is out of range: the dataset holds 1 buffers."));
  CHECK(aclmdlGetDatasetBuffer(nullptr, 0) == nullptr);
  CHECK(aclmdlGetDatasetNumBuffers(nullptr) == 0);
  CHECK(aclmdlDestroyDataset(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclmdlDestroyDataset(ds) == ACL_SUCCESS);
  CHECK(aclmdlDestroyDataset(ds) == ACL_ERROR_INVALID_PARAM);
  CHECK(RecentErrorContains("aclmdlDestroyDataset: the dataset is not live"));
  CHECK(aclmdlGetDatasetNumBuffers(ds) == 0);
  CHECK(aclDestroyDataBuffer(b) == ACL_SUCCESS);  // the dataset did not own it
}
