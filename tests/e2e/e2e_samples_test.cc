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
