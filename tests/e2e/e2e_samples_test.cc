// Ported GE samples run from their README commands: data_dependent_shape_custom (dynamic path:
// Execute on every run, output shape read back after Execute).
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

TEST_CASE("data_dependent_shape_custom: input 1 0 1 0 1 0 0 1 -> shape [4, 1], values 0 2 4 7", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto atc = RunAtc({"--model", SourcePath("examples/data_dependent_shape_custom/where_like.json"), "--soc_version",
                     "host", "--output", dir + "/wl"},
                    BuildPath("examples/data_dependent_shape_custom/opp"));
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  auto info = RunOmrun({dir + "/wl.om", "--info"});
  CHECK(info.out.find("int64 [-1, 1]") != std::string::npos);
  auto run = RunOmrun({dir + "/wl.om", "--input", SourcePath("examples/data_dependent_shape_custom/input.npy"),
                       "--output", dir + "/out", "--loop", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("shape [4, 1] int64 [0, 2, 4, 7]") != std::string::npos);
  auto y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
  CHECK(y.dtype == ge::DT_INT64);
  CHECK(y.shape == std::vector<int64_t>{4, 1});
  std::vector<int64_t> v(4);
  REQUIRE(y.data.size() == 32);
  std::memcpy(v.data(), y.data.data(), 32);
  CHECK(v == std::vector<int64_t>{0, 2, 4, 7});

  // Another input, same OM: the shape follows the data.
  tensor_io::HostTensor all;
  all.dtype = ge::DT_BOOL;
  all.shape = {8};
  all.data.assign(8, 1);
  tensor_io::WriteNpy(dir + "/all.npy", all);
  auto run2 = RunOmrun({dir + "/wl.om", "--input", dir + "/all.npy"});
  CHECK(run2.out.find("shape [8, 1] int64 [0, 1, 2, 3, 4, 5, 6, 7]") != std::string::npos);
  RemoveTree(dir);
}

TEST_CASE("annotated_args_refresh_add_custom: declared launches run with no callback, 1 + 2 = 3", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto atc = RunAtc({"--model", SourcePath("examples/annotated_args_refresh_add_custom/annotated_add.json"),
                     "--soc_version", "host", "--output", dir + "/aa"},
                    BuildPath("examples/annotated_args_refresh_add_custom/opp"));
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  for (int round = 0; round < 2; ++round) {  // GE's two-round check: 1+2=3, then 4+5=9
    const float a = round == 0 ? 1.0f : 4.0f, b = round == 0 ? 2.0f : 5.0f;
    for (int k = 0; k < 2; ++k) {
      tensor_io::HostTensor t;
      t.dtype = ge::DT_FLOAT;
      t.shape = {8192};
      std::vector<float> v(8192, k == 0 ? a : b);
      t.data.resize(v.size() * 4);
      std::memcpy(t.data.data(), v.data(), t.data.size());
      tensor_io::WriteNpy(dir + "/in" + std::to_string(k) + ".npy", t);
    }
    auto run = RunOmrun({dir + "/aa.om", "--input", dir + "/in0.npy," + dir + "/in1.npy", "--output", dir + "/out"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    std::vector<float> v(y.data.size() / 4);
    std::memcpy(v.data(), y.data.data(), y.data.size());
    CHECK(v == std::vector<float>(8192, a + b));
  }
  RemoveTree(dir);
}
