// atc -> OM -> omrun through the test deliverable AxpyCustom (y = alpha * x1 + x2) for float32,
// float16 and int32 at several shapes (one block and several), with exact expected values.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/float16.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
template <typename T>
tensor_io::HostTensor Make(ge::DataType dt, const std::vector<int64_t> &shape, const std::vector<T> &v) {
  tensor_io::HostTensor t;
  t.dtype = dt;
  t.shape = shape;
  t.data.resize(v.size() * sizeof(T));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}
template <typename T>
std::vector<T> Values(const tensor_io::HostTensor &t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}
int64_t Count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

struct Compiled {
  std::string dir, om;
};
Compiled CompileAxpy(const std::string &dtype, const std::vector<int64_t> &shape, float alpha) {
  Compiled c{MakeTempDir(), ""};
  WriteBytes(c.dir + "/axpy.json", AxpyGraphJson(dtype, shape, alpha));
  auto atc = RunAtc({"--model", c.dir + "/axpy.json", "--soc_version", "host", "--output", c.dir + "/axpy"}, AxpyOpp());
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  c.om = c.dir + "/axpy.om";
  return c;
}
tensor_io::HostTensor Run(const Compiled &c, const tensor_io::HostTensor &a, const tensor_io::HostTensor &b) {
  tensor_io::WriteNpy(c.dir + "/a.npy", a);
  tensor_io::WriteNpy(c.dir + "/b.npy", b);
  auto run = RunOmrun({c.om, "--input", c.dir + "/a.npy," + c.dir + "/b.npy", "--output", c.dir + "/out"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return tensor_io::ReadNpy(c.dir + "/out/output_0.npy");
}
}  // namespace

TEST_CASE("AxpyCustom float32", "[e2e]") {
  for (auto shape : {std::vector<int64_t>{2, 5}, std::vector<int64_t>{1000}}) {
    const float alpha = 2.5f;
    Compiled c = CompileAxpy("DT_FLOAT", shape, alpha);
    std::vector<float> x, y;
    for (int64_t i = 0; i < Count(shape); ++i) {
      x.push_back(0.125f * static_cast<float>(i % 97) - 3.0f);
      y.push_back(static_cast<float>(i % 13) * 0.75f);
    }
    auto out = Run(c, Make(ge::DT_FLOAT, shape, x), Make(ge::DT_FLOAT, shape, y));
    CHECK(out.dtype == ge::DT_FLOAT);
    CHECK(out.shape == shape);
    auto got = Values<float>(out);
    REQUIRE(got.size() == x.size());
    for (size_t i = 0; i < x.size(); ++i) CHECK(got[i] == alpha * x[i] + y[i]);
    RemoveTree(c.dir);
  }
}

TEST_CASE("AxpyCustom float16", "[e2e]") {
  const std::vector<int64_t> shape{4, 300};  // 1200 elements: 5 blocks of 256
  const float alpha = 0.5f;
  Compiled c = CompileAxpy("DT_FLOAT16", shape, alpha);
  std::vector<uint16_t> x, y;
  std::vector<float> expect;
  for (int64_t i = 0; i < Count(shape); ++i) {
    float a = static_cast<float>(i % 64) - 32.0f;  // alpha * a is exact in binary16
    float b = static_cast<float>(i % 7) * 0.25f;
    x.push_back(tensor_io::FloatToHalf(a));
    y.push_back(tensor_io::FloatToHalf(b));
    expect.push_back(alpha * a + b);  // exactly representable: |value| < 64, step 0.25
  }
  auto out = Run(c, Make(ge::DT_FLOAT16, shape, x), Make(ge::DT_FLOAT16, shape, y));
  CHECK(out.dtype == ge::DT_FLOAT16);
  auto got = Values<uint16_t>(out);
  REQUIRE(got.size() == expect.size());
  for (size_t i = 0; i < expect.size(); ++i) CHECK(tensor_io::HalfToFloat(got[i]) == expect[i]);
  RemoveTree(c.dir);
}

TEST_CASE("AxpyCustom int32", "[e2e]") {
  const std::vector<int64_t> shape{3};
  Compiled c = CompileAxpy("DT_INT32", shape, 3.0f);
  auto out = Run(c, Make<int32_t>(ge::DT_INT32, shape, {1, -2, 100000}), Make<int32_t>(ge::DT_INT32, shape, {7, 8, -9}));
  CHECK(out.dtype == ge::DT_INT32);
  CHECK(Values<int32_t>(out) == std::vector<int32_t>{10, 2, 299991});
  RemoveTree(c.dir);
}

TEST_CASE("the default attribute value reaches the kernel when alpha is not set", "[e2e]") {
  const std::string dir = MakeTempDir();
  const std::string json = AxpyGraphJson("DT_INT32", {2}, 9.0f, /*set_alpha=*/false);
  REQUIRE(json.find("alpha") == std::string::npos);
  WriteBytes(dir + "/g.json", json);
  auto atc = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/g"}, AxpyOpp());
  INFO(json << atc.err);
  REQUIRE(atc.exit_code == 0);
  Compiled c{dir, dir + "/g.om"};
  auto out = Run(c, Make<int32_t>(ge::DT_INT32, {2}, {5, 6}), Make<int32_t>(ge::DT_INT32, {2}, {1, 1}));
  CHECK(Values<int32_t>(out) == std::vector<int32_t>{6, 7});
  RemoveTree(dir);
}
