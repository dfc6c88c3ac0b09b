// aclopSetModelDir + aclopExecuteV2 / aclopExecute on the OMs atc --singleop builds from
// tests/singleop/json/valid.json and custom.json: expected values are worked out by hand from the
// inputs below (Add, Clip, Concat, Abs, Relu, AxpyCustom y = 2 * x1 + x2), and every call that
// asks for a model the folder does not have gets ACL_ERROR_OP_NOT_FOUND naming what was asked.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "e2e_util.h"

using namespace openatc::testing;

namespace {

// The folder of single-op OMs, built once (aclopSetModelDir may be called once per process).
const std::string &ModelDir() {
  static const std::string dir = [] {
    const std::string d = MakeTempDir();
    for (const char *json : {"valid.json", "custom.json"}) {
      auto r = RunAtc({std::string("--singleop=") + SourcePath("tests/singleop/json/") + json, "--output=" + d,
                       "--soc_version=host"},
                      AxpyOpp());
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
    }
    REQUIRE(aclopSetModelDir(d.c_str()) == ACL_SUCCESS);
    return d;
  }();
  return dir;
}

// Owns the descriptions and buffers of one call.
struct Call {
  std::vector<aclTensorDesc *> in_desc, out_desc;
  std::vector<aclDataBuffer *> in, out;
  std::vector<std::vector<uint8_t>> storage;

  template <typename T>
  void Input(aclDataType dt, std::vector<int64_t> dims, const std::vector<T> &values, aclFormat f = ACL_FORMAT_ND) {
    in_desc.push_back(aclCreateTensorDesc(dt, static_cast<int>(dims.size()), dims.data(), f));
    in.push_back(Buffer(values.data(), values.size() * sizeof(T)));
  }
  void Output(aclDataType dt, std::vector<int64_t> dims, size_t bytes, aclFormat f = ACL_FORMAT_ND) {
    out_desc.push_back(aclCreateTensorDesc(dt, static_cast<int>(dims.size()), dims.data(), f));
    std::vector<uint8_t> zero(bytes, 0);
    out.push_back(Buffer(zero.data(), bytes));
  }
  aclDataBuffer *Buffer(const void *data, size_t bytes) {
    storage.emplace_back(static_cast<const uint8_t *>(data), static_cast<const uint8_t *>(data) + bytes);
    return aclCreateDataBuffer(storage.back().data(), bytes);
  }
  aclError Run(const char *op, aclopAttr *attr = nullptr) {
    return aclopExecuteV2(op, static_cast<int>(in.size()), in_desc.data(), in.data(), static_cast<int>(out.size()),
                          out_desc.data(), out.data(), attr, nullptr);
  }
  template <typename T>
  std::vector<T> Result(size_t i) const {
    const size_t n = aclGetDataBufferSizeV2(out[i]) / sizeof(T);
    const T *p = static_cast<const T *>(aclGetDataBufferAddr(out[i]));
    return std::vector<T>(p, p + n);
  }
  Call() { storage.reserve(16); }  // buffers point into storage: no reallocation
  ~Call() {
    for (auto *d : in_desc) aclDestroyTensorDesc(d);
    for (auto *d : out_desc) aclDestroyTensorDesc(d);
    for (auto *b : in) aclDestroyDataBuffer(b);
    for (auto *b : out) aclDestroyDataBuffer(b);
  }
};

std::vector<int64_t> Dims(const aclTensorDesc *d) {
  std::vector<int64_t> v;
  for (size_t i = 0; i < aclGetTensorDescNumDims(d); ++i) v.push_back(aclGetTensorDescDim(d, i));
  return v;
}

}  // namespace

TEST_CASE("aclop: Add of two 2x3 float tensors", "[acl][singleop]") {
  ModelDir();
  Call c;
  c.Input<float>(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  c.Input<float>(ACL_FLOAT, {2, 3}, {10, 20, 30, 40, 50, 60});
  c.Output(ACL_FLOAT, {2, 3}, 24);
  REQUIRE(c.Run("Add") == ACL_SUCCESS);
  CHECK(c.Result<float>(0) == std::vector<float>{11, 22, 33, 44, 55, 66});
  CHECK(Dims(c.out_desc[0]) == std::vector<int64_t>{2, 3});
}

TEST_CASE("aclop: a -1 dim within its range runs, and the output description is refreshed", "[acl][singleop]") {
  ModelDir();
  Call c;
  c.Input<int32_t>(ACL_INT32, {2, 3}, {1, -2, 3, 4, 5, 6});
  c.Input<int32_t>(ACL_INT32, {2, 3}, {100, 100, 100, -1, -1, -1});
  c.Output(ACL_INT32, {2, -1}, 24);
  REQUIRE(c.Run("Add") == ACL_SUCCESS);
  CHECK(c.Result<int32_t>(0) == std::vector<int32_t>{101, 98, 103, 3, 4, 5});
  CHECK(Dims(c.out_desc[0]) == std::vector<int64_t>{2, 3});  // was [2, -1]

  // 5 is outside the model's range [1, 4]: no model matches.
  Call far;
  std::vector<int32_t> ten(10, 1);
  far.Input(ACL_INT32, {2, 5}, ten);
  far.Input(ACL_INT32, {2, 5}, ten);
  far.Output(ACL_INT32, {2, -1}, 40);
  CHECK(far.Run("Add") == ACL_ERROR_OP_NOT_FOUND);
  const std::string msg = aclGetRecentErrMsg();
  CHECK(msg.find("aclopExecuteV2: no loaded single-op model matches op 'Add' with inputs (int32 ND [2, 5], int32 ND "
                 "[2, 5]), outputs (int32 ND [2, -1]), attrs {}") == 0);
  CHECK(msg.find("add_dyn.om': input 0: dim 1 = 5 is outside the model's range [1, 4]") != std::string::npos);
}

TEST_CASE("aclop: a constant input matches only its own values", "[acl][singleop]") {
  ModelDir();
  const std::vector<_Float16> x = {0.5f, 1.5f, -4.0f}, k = {1.0f, 2.0f, 3.0f}, other = {1.0f, 2.0f, 4.0f};
  Call c;
  c.Input(ACL_FLOAT16, {3}, x);
  c.Input(ACL_FLOAT16, {3}, k);
  c.Output(ACL_FLOAT16, {3}, 6);
  REQUIRE(c.Run("Add") == ACL_SUCCESS);
  const auto y = c.Result<_Float16>(0);
  CHECK(static_cast<float>(y[0]) == 1.5f);
  CHECK(static_cast<float>(y[1]) == 3.5f);
  CHECK(static_cast<float>(y[2]) == -1.0f);
  Call d;
  d.Input(ACL_FLOAT16, {3}, x);
  d.Input(ACL_FLOAT16, {3}, other);
  d.Output(ACL_FLOAT16, {3}, 6);
  CHECK(d.Run("Add") == ACL_ERROR_OP_NOT_FOUND);
  CHECK(std::string(aclGetRecentErrMsg()).find("input 1: the model holds this input as a constant") != std::string::npos);
}

TEST_CASE("aclop: attrs of every type select the model; a missing or different one does not", "[acl][singleop]") {
  ModelDir();
  aclopAttr *attr = aclopCreateAttr();
  REQUIRE(attr != nullptr);
  const uint8_t lb[] = {1, 0};
  const int64_t li[] = {1, 2, 3};
  const float lf[] = {0.25f, -1.0f};
  const char *ls[] = {"a", "bc"};
  const int64_t l0[] = {1, 2}, l1[] = {3};
  const int64_t *lli[] = {l0, l1};
  const int lli_n[] = {2, 1};
  REQUIRE(aclopSetAttrBool(attr, "b", 1) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrInt(attr, "i", -7) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrFloat(attr, "f", 0.5f) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrString(attr, "s", "v") == ACL_SUCCESS);
  REQUIRE(aclopSetAttrListBool(attr, "lb", 2, lb) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrListInt(attr, "li", 3, li) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrListFloat(attr, "lf", 2, lf) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrListString(attr, "ls", 2, ls) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrListListInt(attr, "lli", 2, lli_n, lli) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrDataType(attr, "dt", ACL_FLOAT16) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrDataType(attr, "dn", ACL_INT32) == ACL_SUCCESS);
  auto run = [&](aclopAttr *a) {
    Call c;
    c.Input<float>(ACL_FLOAT, {1, 2, 1, 2}, {-1, 2, -3, 4}, ACL_FORMAT_NCHW);
    c.Output(ACL_FLOAT, {1, 2, 1, 2}, 16, ACL_FORMAT_NCHW);
    const aclError e = c.Run("Relu", a);
    if (e == ACL_SUCCESS) CHECK(c.Result<float>(0) == std::vector<float>{0, 2, 0, 4});
    return e;
  };
  CHECK(run(attr) == ACL_SUCCESS);
  REQUIRE(aclopSetAttrInt(attr, "i", 7) == ACL_SUCCESS);
  CHECK(run(attr) == ACL_ERROR_OP_NOT_FOUND);
  CHECK(std::string(aclGetRecentErrMsg()).find("relu_attrs.om': attr i=7, the model's i=-7") != std::string::npos);
  CHECK(run(nullptr) == ACL_ERROR_OP_NOT_FOUND);
  CHECK(aclopSetAttrInt(nullptr, "i", 1) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclopSetAttrInt(attr, "", 1) == ACL_ERROR_INVALID_PARAM);
  aclopDestroyAttr(attr);
}

TEST_CASE("aclop: an absent optional input, a dynamic input group, an unknown rank, a custom op", "[acl][singleop]") {
  ModelDir();
  {  // Clip(x, min absent, max = 2.5), through the deprecated aclopExecute
    Call c;
    c.Input<float>(ACL_FLOAT, {4}, {-1, 0, 3, 10});
    c.in_desc.push_back(aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED));
    c.in.push_back(aclCreateDataBuffer(nullptr, 0));
    const float max = 2.5f;
    c.Input<float>(ACL_FLOAT, {}, {max});
    c.Output(ACL_FLOAT, {4}, 16);
    std::vector<const aclTensorDesc *> ind(c.in_desc.begin(), c.in_desc.end()), outd(c.out_desc.begin(), c.out_desc.end());
    std::vector<const aclDataBuffer *> inb(c.in.begin(), c.in.end());
    REQUIRE(aclopExecute("Clip", 3, ind.data(), inb.data(), 1, outd.data(), c.out.data(), nullptr, nullptr) == ACL_SUCCESS);
    CHECK(c.Result<float>(0) == std::vector<float>{-1, 0, 2.5f, 2.5f});
  }
  {  // Concat([1,2], [2,2]) on axis 0
    aclopAttr *axis = aclopCreateAttr();
    REQUIRE(aclopSetAttrInt(axis, "axis", 0) == ACL_SUCCESS);
    Call c;
    c.Input<float>(ACL_FLOAT, {1, 2}, {1, 2});
    c.Input<float>(ACL_FLOAT, {2, 2}, {3, 4, 5, 6});
    c.Output(ACL_FLOAT, {3, 2}, 24);
    REQUIRE(c.Run("Concat", axis) == ACL_SUCCESS);
    CHECK(c.Result<float>(0) == std::vector<float>{1, 2, 3, 4, 5, 6});
    aclopDestroyAttr(axis);
  }
  {  // Abs on [-2]: any rank
    Call c;
    c.Input<float>(ACL_FLOAT, {2, 1, 2}, {-1.5f, 2, -0.0f, -8});
    const int64_t unknown[] = {-2};
    c.out_desc.push_back(aclCreateTensorDesc(ACL_FLOAT, 1, unknown, ACL_FORMAT_ND));
    CHECK(aclGetTensorDescNumDims(c.out_desc[0]) == ACL_UNKNOWN_RANK);
    std::vector<uint8_t> zero(16, 0);
    c.out.push_back(c.Buffer(zero.data(), 16));
    REQUIRE(c.Run("Abs") == ACL_SUCCESS);
    CHECK(c.Result<float>(0) == std::vector<float>{1.5f, 2, 0, 8});
    CHECK(Dims(c.out_desc[0]) == std::vector<int64_t>{2, 1, 2});
  }
  {  // AxpyCustom (alpha 2) from its embedded deliverable: y = 2 * x1 + x2
    aclopAttr *alpha = aclopCreateAttr();
    REQUIRE(aclopSetAttrFloat(alpha, "alpha", 2.0f) == ACL_SUCCESS);
    Call c;
    c.Input<float>(ACL_FLOAT, {4}, {1, 2, 3, 4});
    c.Input<float>(ACL_FLOAT, {4}, {10, 20, 30, 40});
    c.Output(ACL_FLOAT, {4}, 16);
    REQUIRE(c.Run("AxpyCustom", alpha) == ACL_SUCCESS);
    CHECK(c.Result<float>(0) == std::vector<float>{12, 24, 36, 48});
    aclopDestroyAttr(alpha);
  }
}

TEST_CASE("aclop: unknown op, repeated model dir, memory load, tensor descriptions", "[acl][singleop]") {
  const std::string &dir = ModelDir();
  Call c;
  c.Input<float>(ACL_FLOAT, {2, 3}, std::vector<float>(6, 1.0f));
  c.Output(ACL_FLOAT, {2, 3}, 24);
  CHECK(c.Run("Sub") == ACL_ERROR_OP_NOT_FOUND);
  CHECK(std::string(aclGetRecentErrMsg()).find("matches op 'Sub' with inputs (float32 ND [2, 3]), outputs (float32 ND "
                                               "[2, 3]), attrs {} (no model of that op type is loaded)") !=
        std::string::npos);
  CHECK(aclopSetModelDir(dir.c_str()) == ACL_ERROR_REPEAT_INITIALIZE);
  CHECK(aclopExecuteV2(nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);

  std::ifstream f(dir + "/add_2x3.om", std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(aclopLoad(bytes.data(), bytes.size()) == ACL_SUCCESS);
  const char junk[] = "not an om";
  CHECK(aclopLoad(junk, sizeof junk) != ACL_SUCCESS);

  const int64_t dims[] = {2, -1, 3};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_NCHW);
  REQUIRE(d != nullptr);
  CHECK(aclGetTensorDescType(d) == ACL_FLOAT16);
  CHECK(aclGetTensorDescFormat(d) == ACL_FORMAT_NCHW);
  CHECK(aclGetTensorDescNumDims(d) == 3);
  CHECK(aclGetTensorDescSize(d) == 0);  // unknown dim
  int64_t range[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{2, 2}, {1, 8}};
  CHECK(aclSetTensorShapeRange(d, 2, range) == ACL_SUCCESS);
  int64_t got[2] = {0, 0};
  CHECK(aclGetTensorDescDimRange(d, 1, 2, got) == ACL_SUCCESS);
  CHECK(got[0] == 1);
  CHECK(got[1] == 8);
  const int64_t fixed[] = {2, 4, 3};
  CHECK(aclSetTensorShape(d, 3, fixed) == ACL_SUCCESS);
  CHECK(aclGetTensorDescElementCount(d) == 24);
  CHECK(aclGetTensorDescSize(d) == 48);
  int64_t dim = 0;
  CHECK(aclGetTensorDescDimV2(d, 1, &dim) == ACL_SUCCESS);
  CHECK(dim == 4);
  CHECK(aclGetTensorDescDimV2(d, 3, &dim) == ACL_ERROR_INVALID_PARAM);
  aclSetTensorDescName(d, "x");
  CHECK(std::string(aclGetTensorDescName(d)) == "x");
  aclDestroyTensorDesc(d);
}

TEST_CASE("aclop: a C program runs Add through aclopSetModelDir + aclopExecuteV2", "[acl][singleop]") {
  // Its own process: aclopSetModelDir is once per process.
  auto r = RunCommand({BuildPath("tests/acl_op_c_test"), ModelDir()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "1.5 2.5 3.5 3 4 5 | 2 x 3\n");  // {1..6} + {0.5, 0.5, 0.5, -1, -1, -1}
}
